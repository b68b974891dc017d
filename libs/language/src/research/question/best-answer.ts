/**
 * The short answer from the scored candidates: the best one if it scores enough, its confidence
 * (a name checked against its kind, a clear lead, agreeing sources), and its value as the pages
 * write it (a pair a plural question asks for, a place with its region, a page's own name).
 */
import { sentenceSpans } from '@app/text';
import type { ResearchPassage } from '@app/research';
import { analyse, type QuestionAnalysis } from './analysis';
import { candidatesIn } from './candidates';
import { choose } from './choice';
import { CAPITALISED_RUN, keyOf, titleName } from './names';
import { rankedCandidates } from './ranked';
import { newToQuestion } from './scoring';
import type { Sentence } from './sentences';
import type { ShortAnswer } from './short-question';
import { yesNo } from './yes-no';
import { nlp } from '../../lazy-parsers';

/** The short answer to `question` (as given, or analysed) from `passages` (in rank order), or null when none of its kind is found. */
export function shortAnswer(question: string | QuestionAnalysis, passages: ResearchPassage[]): ShortAnswer | null {
  const a = typeof question === 'string' ? analyse(question) : question;
  const q = a.short;
  if (!q || passages.length === 0) return null;
  if (q.kind === 'choice') return choose(q, passages);
  if (q.kind === 'yesno') return yesNo(q, passages);
  const terms = new Set(q.terms);
  const ranked = rankedCandidates(a, passages);
  const top = ranked[0];
  // Enough of the question said, as the rules weigh it (the learned features only order the candidates).
  if (!top || top.support < 0.2) return null;
  const second = ranked[1]?.score ?? 0;
  const sources = new Set(top.hits.map((h) => h.source));
  const first = [...top.hits].sort((a, b) => b.overlap - a.overlap)[0]!;
  const clear = top.score >= 1.5 * second;
  // A name (person, place, organisation) can be checked against its kind; a bare number or date of
  // the right shape may still count the wrong thing: never more than medium.
  // "Who": sure only of a name compromise reads as a person's ("who coached…" is not sure of a league).
  // "Which team": sure only of a name compromise reads as an organisation's (or the pages call the noun asked).
  const named = (q.kind === 'person' && top.person) || q.kind === 'place' || (q.kind === 'organisation' && top.fit > 1);
  const confidence =
    named && clear && sources.size >= 2 && top.support >= 0.4 ? 'high' : clear || sources.size >= 2 ? 'medium' : 'low';
  const agreeing = top.hits.filter((h) => h.source !== first.source).map((h) => ({ source: h.source, quote: h.text }));
  const several = listed(a, top.value, first.text, terms);
  const value = q.kind === 'place' && several === top.value ? withRegion(top.value, first.text, terms) : several;
  return { value: canonical(value, first, passages), confidence, source: first.source, quote: first.text, agreeing };
}

/**
 * A question asking for several ("Who were the sideline reporters?") is answered by the pair its
 * sentence joins with "and" ("Alden Pryce and Corey Vance"), the answer found one of them.
 */
export function listed(
  a: QuestionAnalysis,
  value: string,
  sentence: string,
  terms: Set<string> = new Set(a.short?.terms),
): string {
  const q = a.short;
  if (!q?.plural || q.kind === 'yesno' || q.kind === 'choice') return value;
  for (const other of candidatesIn(q.kind, sentence, terms, a.cues)) {
    if (other.text === value || !newToQuestion(other.text, terms)) continue;
    for (const pair of [`${value} and ${other.text}`, `${other.text} and ${value}`])
      if (sentence.includes(pair)) return pair;
  }
  return value;
}

/**
 * A place as its sentence writes it with the region after a comma: "Harunomi, Okawa", "Port
 * Kessa, Varden" (not a region the question already names).
 */
function withRegion(value: string, sentence: string, terms: Set<string>): string {
  const at = sentence.indexOf(`${value}, `);
  // One of a list ("…, Harbour Review, Quill Weekly, Varden Journal, Lumen") is followed by the next one, no region.
  if (at < 0 || /,\s*$/.test(sentence.slice(0, at))) return value;
  const region = new RegExp(`^${CAPITALISED_RUN.source}`, 'u').exec(sentence.slice(at + value.length + 2))?.[0];
  return region && newToQuestion(region, terms) && !nlp(region).has('#Person') ? `${value}, ${region}` : value;
}

/**
 * A name a page's opening gives its subject among others ("La Varenna or Región Varennica
 * is the … area of north-east Norland" on the page "Varenna, Norland"), where that opening
 * states the answer: the page's own name for it, its title's, as the opening writes it.
 */
function canonical(value: string, sentence: Sentence, passages: ResearchPassage[]): string {
  const page = passages.find((p) => p.source === sentence.source);
  if (!page || sentenceSpans(page.text)[0]?.text !== sentence.text) return value;
  const name = titleName(page.title);
  // The subject as the opening names it, with its other names: "X or Y", "X, also known as Y".
  const subject = /^(.{1,80}?)\s+(?:is|was|are|were)\s/u.exec(sentence.text)?.[1] ?? '';
  const aliases = /\s(?:or|also known as|also called|officially|formerly)\s/u.test(subject);
  return name && keyOf(name) !== keyOf(value) && aliases && subject.includes(value) && subject.includes(name)
    ? name
    : value;
}
