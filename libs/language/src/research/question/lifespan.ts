import type { ResearchPassage } from '@app/research';
import { sentenceSpans, tokenize } from '@app/text';
import { keyOf, subjectOf, titleName } from './names';
import { termWeights } from './sentences';
import type { ShortAnswer, ShortQuestion } from './short-question';
import { parseDates } from '../../lazy-parsers';

/** Which end of a life a question asks the date of. */
export type LifeEnd = 'born' | 'died';

/**
 * "Born in what year?", "when did … die?": the end of a life asked for, or null (neither, or both).
 * Only for questions that ask a date or a year.
 */
export function asksLife(q: ShortQuestion): LifeEnd | null {
  if (q.kind !== 'year' && q.kind !== 'date') return null;
  const born = /\b(?:born|birth|birthdate|birthday)\b/i.test(q.text);
  const died = /\b(?:died|die|dies|death|dead)\b/i.test(q.text);
  return born === died ? null : born ? 'born' : 'died';
}

interface LifeDate {
  /** As the page writes it ("10 October 1927", "1962"). */
  text: string;
  year: string;
}

/** A person's dates as a page gives them, after the name: "Kenji Amamura (…, born December 10, 1962)". */
export interface Life {
  /** The names the person goes by here: the one before the dates, and their page's title. */
  names: string[];
  source: number;
  sentence: string;
  /** Whether the dates open the person's own page. */
  ownPage: boolean;
  born?: LifeDate;
  died?: LifeDate;
}

/** A name (capitalised words, up to six) right before a parenthesis. */
const NAMED_PARENTHESIS = /((?:\p{Lu}[\p{L}\p{M}.'’-]*\s+){0,5}\p{Lu}[\p{L}\p{M}.'’-]*)\s*\(([^()]{4,240})\)/gu;
/** A year as a lifespan writes one, "c. 1450" included; an era after it is kept. */
const YEAR = String.raw`(?:c\.\s*|circa\s+)?(\d{3,4})(?:\s*(?:BC|BCE|AD|CE)\b)?`;
const YEAR_RANGE = new RegExp(String.raw`(?:^|[\s;,])${YEAR}\s*(?:[–—-]|\bto\b)\s*${YEAR}\b`, 'u');
const BORN_YEAR = new RegExp(String.raw`\b(?:born|b\.)\s+(?:on\s+|in\s+)?${YEAR}\b`, 'u');
const DIED_YEAR = new RegExp(String.raw`\b(?:died|d\.)\s+(?:on\s+|in\s+)?${YEAR}\b`, 'u');
/** Dates read as of a fixed day, so that a year chrono guesses is never today's. */
const REFERENCE = new Date(Date.UTC(2000, 0, 1));

const yearOf = (text: string) => /\d{3,4}(?!.*\d{3,4})/.exec(text)?.[0] ?? '';

/** The dates in a parenthesis after a name: a range is birth and death; "born"/"died" mark one. */
function datesIn(inside: string): Pick<Life, 'born' | 'died'> | null {
  for (const segment of inside.split(';')) {
    // Full dates first (chrono-node reads "1 January 1874 – 10 October 1927" as one range).
    for (const r of parseDates(segment, REFERENCE)) {
      if (!r.start.isCertain('year')) continue;
      const before = segment.slice(0, r.index);
      if (r.end?.isCertain('year')) {
        const [from, to] = r.text.split(/\s*[–—-]\s*|\s+to\s+/);
        if (from && to) return { born: { text: from, year: yearOf(from) }, died: { text: to, year: yearOf(to) } };
      }
      if (/\b(?:died|d\.)\s*(?:on\s+)?$/u.test(before)) return { died: { text: r.text, year: yearOf(r.text) } };
      if (/\b(?:born|b\.)\s*(?:on\s+)?$/u.test(before) || /^\s*$/.test(before))
        return { born: { text: r.text, year: yearOf(r.text) } };
    }
    const range = YEAR_RANGE.exec(segment);
    if (range) return { born: { text: range[1]!, year: range[1]! }, died: { text: range[2]!, year: range[2]! } };
    const born = BORN_YEAR.exec(segment);
    const died = DIED_YEAR.exec(segment);
    if (born || died)
      return {
        ...(born && { born: { text: born[1]!, year: born[1]! } }),
        ...(died && { died: { text: died[1]!, year: died[1]! } }),
      };
  }
  return null;
}

/** Everyone whose dates the passages give in a parenthesis after their name. */
export function livesIn(passages: ResearchPassage[]): Life[] {
  const lives: Life[] = [];
  for (const p of passages) {
    const spans = sentenceSpans(p.text);
    spans.forEach((s, i) => {
      // Sentences as the short path reads them; a hostile page's thousand dated names are not read.
      if (s.text.length > MAX_SENTENCE || lives.length >= MAX_LIVES) return;
      for (const m of s.text.matchAll(NAMED_PARENTHESIS)) {
        if (lives.length >= MAX_LIVES) break;
        const dates = datesIn(m[2]!);
        if (!dates) continue;
        // The dates in a page's opening sentence are its subject's.
        const ownPage = i === 0 && (m.index ?? 0) < 80;
        const names = [m[1]!.trim(), ...(ownPage ? [titleName(p.title)] : [])];
        lives.push({ names: [...new Set(names)], source: p.source, sentence: s.text, ownPage, ...dates });
      }
    });
  }
  return lives;
}

/** Longer "sentences" are run-on boilerplate (as the short path reads them). */
const MAX_SENTENCE = 800;
/** Lives read at most: the people a few pages give dates for. */
const MAX_LIVES = 40;

/** A life's support must be this share of the question's words, by weight. */
const SUPPORT = 0.5;
/** And lead the next life's by this much. */
const LEAD = 1.25;

/**
 * "A manga series … is written and illustrated by someone born in what year?": the person the
 * question describes, read as the one whose own page and whose mentions on other pages ("…
 * written and illustrated by Kenji Amamura") hold most of the question's words, and the date
 * of the end of life asked that their dates give. Null when no life is described clearly enough:
 * the question is left to the other readings. `end`: the end of life asked, when the question's
 * analysis has read it (QuestionAnalysis.life).
 */
export function lifeDate(
  q: ShortQuestion,
  passages: ResearchPassage[],
  end: LifeEnd | null = asksLife(q),
): ShortAnswer | null {
  if (!end) return null;
  const lives = livesIn(passages).filter((l) => l[end] !== undefined);
  if (lives.length === 0) return null;
  const terms = q.terms.filter((t) => !LIFE_TERMS.has(t));
  if (terms.length === 0) return null;
  const weight = termWeights(passages, terms);
  const total = terms.reduce((a, t) => a + weight(t), 0);
  const pages = passages.map((p) => ({
    p,
    subject: subjectOf(p.title),
    key: ` ${keyOf(p.text)} `,
    terms: tokenize(p.text),
  }));
  const scored = lives.map((life) => {
    const keys = life.names.map(keyOf).filter((k) => k.length >= 3);
    const words = new Set<string>();
    for (const { p, subject, key, terms: own } of pages) {
      // Their own page, and each page naming them: what it says of its subject describes them too
      // ("Q"s is a manga series written by Kenji Amamura. Its main character is Haruto Senba").
      if (
        keys.includes(subject) ||
        (life.ownPage && p.source === life.source) ||
        keys.some((k) => key.includes(` ${k} `))
      )
        for (const t of own) words.add(t);
    }
    const support = terms.reduce((a, t) => a + (words.has(t) ? weight(t) : 0), 0) / total;
    return { life, support };
  });
  // The same person's dates given twice (their page and another's) are one reading.
  const ranked = scored.sort((a, b) => b.support - a.support);
  const top = ranked[0]!;
  const rival = ranked.find((r) => r.life[end]!.year !== top.life[end]!.year);
  if (top.support < SUPPORT || (rival && rival.support * LEAD > top.support)) return null;
  const date = top.life[end]!;
  const value = q.kind === 'year' ? date.year : date.text;
  // The question naming the person whose own page gives the dates is as sure as that page.
  const named = top.life.ownPage && top.life.names.some((n) => tokenize(n).every((t) => q.terms.includes(t)));
  const agreeing = ranked
    .filter((r) => r !== top && r.life.source !== top.life.source && r.life[end]!.year === date.year)
    .map((r) => ({ source: r.life.source, quote: r.life.sentence }));
  return { value, confidence: named ? 'high' : 'medium', source: top.life.source, quote: top.life.sentence, agreeing };
}

/** The words that ask for the date itself, not who it is of. */
const LIFE_TERMS = new Set(tokenize('born birth birthdate birthday died die dies death dead year date day when'));
