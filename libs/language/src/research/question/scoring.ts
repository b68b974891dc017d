/**
 * The candidate scorer: candidates of the kind asked in the sentences that share the question's
 * words, scored by those words around them (the word asked about most), the passage's rank, the
 * noun asked, their own page and agreement across sentences and sources.
 */
import { tokenize } from '@app/text';
import type { ResearchPassage } from '@app/research';
import type { QuestionAnalysis } from './analysis';
import { candidatesIn } from './candidates';
import { NOT_OF_KIND, NOUN_FIT } from './candidates/fit';
import { numberNamed } from './candidates/numbers';
import { sentenceShape } from './candidates/shape';
import { spanOf, type Word, wordsOf } from './candidates/words';
import { describedAs, describedAsPerson } from './described-as';
import { instanceConflict, keyOf, namedPages, subjectOf } from './names';
import {
  type CandidateFeature,
  type CandidateVector,
  candidateWeights,
  HAND_SET,
  type SentenceVector,
  weighed,
} from './candidate-model';
import { type Sentence, sentencesOf, termWeights } from './sentences';
import { offSubjectSources } from './subject';
import { SHARED } from './words';

/** Words at which a question word's pull on a candidate halves. */
const PROXIMITY_SPAN = 2;
/** What each further sentence stating a candidate adds, of its own score. */
const AGREEMENT = 0.25;
/** How much a noun phrase repeated across the pages read loses, by the log of its count. */
const COMMONNESS = 0.5;
/** A candidate the pages of two things the question names both state weighs this much more. */
const LINKS_NAMED = 1.5;
/** A candidate whose own page says all the question says of it weighs up to this much more (1 + OWN_PAGE). */
const OWN_PAGE = 1;
/** How much more the word the wh-word asks about pulls a candidate than the question's other words. */
const FOCUS = 2;
/** A sentence stating a count, year or date on a page that never names the entity asked about, where others do, weighs this much. */
const OFF_SUBJECT = 0.4;

/**
 * How close a candidate stands to the question's words in its sentence: each question word the
 * sentence holds counts by its weight, less the further (in words) it stands from the candidate
 * ("the ABL champion Kessa Otters defeated the CBL champion Brelton Hawks": for "ABL",
 * Kessa Otters). A factor around 1: 0.5 with no question word near, up to 1.5.
 */
function proximity(
  text: string,
  tokens: Word[],
  terms: Set<string>,
  weight: (t: string) => number,
  total: number,
): (candidate: string) => number {
  const matched = tokens.map((t, i) => ({ i, term: t.term })).filter((t) => t.term !== undefined && terms.has(t.term));
  return (candidate) => {
    const at = text.indexOf(candidate);
    if (at < 0) return 1;
    const { first, last } = spanOf(tokens, at, candidate.length);
    const nearest = new Map<string, number>();
    for (const m of matched) {
      if (m.i >= first && m.i <= last) continue;
      const d = m.i < first ? first - m.i : m.i - last;
      nearest.set(m.term!, Math.min(nearest.get(m.term!) ?? Infinity, d));
    }
    let near = 0;
    for (const [term, d] of nearest) near += weight(term) / (1 + d / PROXIMITY_SPAN);
    return 1 + near / total;
  };
}

/** A candidate that only repeats the question ("Nashville" for a question about Nashville) answers nothing. */
export function newToQuestion(candidate: string, questionTerms: Set<string>): boolean {
  const own = tokenize(candidate);
  return own.length > 0 && own.some((t) => !questionTerms.has(t));
}

/** A candidate as the scorer weighs it: its value, score, best sentence's score, features (candidate-model.ts) and the sentences stating it. */
export interface Entry {
  value: string;
  score: number;
  best: number;
  /** Its best sentence's score as the rules weigh it (HAND_SET): what the rules' cut-offs read, whatever the learned weights. */
  support: number;
  x: Partial<CandidateVector> & SentenceVector;
  fit: number;
  person: boolean;
  bySource: Map<number, number>;
  hits: Sentence[];
}

/**
 * Every candidate of the kind asked for a short question (not yes/no, not which-of-two), scored
 * by the candidate model, best first: what shortAnswer answers with, and what train:reader learns
 * the candidate weights from (`w`: other weights than the committed ones).
 */
export function scoredCandidates(
  a: QuestionAnalysis,
  passages: ResearchPassage[],
  w: Record<CandidateFeature, number> = candidateWeights(),
): Entry[] {
  const q = a.short;
  if (!q || passages.length === 0 || q.kind === 'choice' || q.kind === 'yesno') return [];
  const weight = termWeights(passages, q.terms);
  const terms = new Set(q.terms);
  const sentences = sentencesOf(passages, terms, weight);
  const total = q.terms.reduce((a, t) => a + weight(t), 0) || 1;
  const found = new Map<string, Entry>();
  // "Which magazine": a candidate the pages call a magazine is the kind asked for.
  const isAsked = q.noun ? describedAs(q.noun, q.subtype === true, passages, q.nounWord) : () => false;
  const aPerson = q.kind === 'place' ? describedAsPerson(passages) : () => false;
  const namesOf = numberNamed(passages);
  // Read from the question as analysed (one line, bounded), not from the prompt as sent.
  const otherInstance = instanceConflict(a.numbered);
  const initials = a.initials;
  const ownPage = ownPageSupport(passages, terms, weight, total);
  // A count, a year or a date of the entity asked about: stated on its pages or beside its name.
  const offSubject = ['number', 'year', 'date'].includes(q.kind)
    ? offSubjectSources(a.subject, passages)
    : new Set<number>();
  const subjects = new Set(passages.map((p) => subjectOf(p.title)));
  // A noun phrase every page repeats ("the game", "the team") is what the pages are about, not an answer.
  const everywhere = passages.map((p) => keyOf(p.text)).join(' | ');
  const commonness = (key: string) => {
    let count = 0;
    for (let at = everywhere.indexOf(key); at >= 0 && count < 50; at = everywhere.indexOf(key, at + key.length))
      count++;
    return 1 / (1 + COMMONNESS * Math.log(Math.max(1, count)));
  };
  for (const s of sentences) {
    // Each factor of the score as a named feature, its logarithm (candidate-model.ts).
    const overlap = Math.log(s.overlap / total);
    const rank = -Math.log(1 + 0.15 * s.rank);
    const conflict = otherInstance(s.text) ? Math.log(NOT_OF_KIND) : 0;
    const words = wordsOf(s.text);
    const near = proximity(s.text, words, terms, (t) => (t === q.focus ? FOCUS * weight(t) : weight(t)), total);
    const shape = sentenceShape(s.text, words, terms, weight, total, q.noun);
    for (const { text: candidate, fit, person, whole } of candidatesIn(q.kind, s.text, terms, a.cues)) {
      // Words the question already holds are no answer, unless the pages call that name the noun
      // asked and the question does not write it: "Varden Song … is a fight song" for "the fight
      // song of the university … in Calloway, Varden".
      if (
        !newToQuestion(candidate, terms) &&
        q.kind !== 'year' &&
        q.kind !== 'number' &&
        !(isAsked(whole ?? candidate) && !` ${keyOf(q.text)} `.includes(` ${keyOf(candidate)} `))
      )
        continue;
      // "Where": no one the pages describe as a person, whatever compromise makes of the name.
      if (aPerson(candidate)) continue;
      if ((q.kind === 'year' || q.kind === 'number' || q.kind === 'date') && q.text.includes(candidate)) continue;
      // A number that is a name (an album called "17") counts nothing.
      if (q.kind === 'number' && namesOf(candidate)) continue;
      // The initials of a name the question writes are that name ("NFL" of "the National Football League").
      if (initials.has(candidate)) continue;
      const key = keyOf(candidate);
      if (!key) continue;
      const entry = found.get(key) ?? {
        value: whole ?? candidate,
        score: 0,
        best: 0,
        support: 0,
        x: undefined!,
        fit: 0,
        person: false,
        bySource: new Map<number, number>(),
        hits: [],
      };
      if (entry.hits.includes(s)) continue;
      entry.hits.push(s);
      // A page's own subject is what the pages are about, not a thing of the kind asked.
      const kindFit = q.kind === 'thing' && subjects.has(key) ? 1 : fit;
      const x: SentenceVector = {
        overlap,
        rank,
        other_instance: conflict,
        proximity: Math.log(near(candidate)),
        kind_fit: Math.log(kindFit),
        noun_fit: isAsked(whole ?? candidate) ? Math.log(NOUN_FIT) : 0,
        commonness: q.kind === 'thing' ? Math.log(commonness(key)) : 0,
        off_subject: offSubject.has(s.source) ? Math.log(OFF_SUBJECT) : 0,
        ...shape(candidate),
      };
      const here = weighed(x, w);
      if (here > entry.best) [entry.best, entry.x] = [here, x];
      entry.support = Math.max(entry.support, weighed(x, HAND_SET));
      entry.fit = Math.max(entry.fit, fit);
      entry.person ||= person === true;
      // Agreement: each further source stating it adds a little, as much as its sentence is about
      // the question; a page naming its own subject is no further source.
      if (subjectOf(s.title) !== key) entry.bySource.set(s.source, Math.max(entry.bySource.get(s.source) ?? 0, here));
      if (!whole && candidate.length > entry.value.length && keyOf(candidate) === key) entry.value = candidate;
      found.set(key, entry);
    }
  }
  // A candidate named on another page than its own, whose own page says what the question says of
  // it. For "who", only a name compromise sees as a person or a team, or one the pages call the
  // noun asked: "who directed the film in which X had a role" finds the film's own page saying
  // so, and asks for its director.
  // A kind ("what type of sprite") is no page's subject: no own page supports one.
  // Where the question names the noun it asks for, only a candidate the pages call that: "a
  // medieval fortress in Gullwick borders on the south side of what coastal area?" describes
  // Gullwick Castle, whose own page says so, and asks for the coastal area beside it.
  const ofKind = (e: { value: string; fit: number }) =>
    !q.subtype && (q.noun ? isAsked(e.value) : q.kind !== 'person' || e.fit > 1 || isAsked(e.value));
  for (const entry of found.values()) {
    const others = [...entry.bySource.values()].sort((a, b) => b - a);
    entry.x.agreement = Math.log(
      1 + (AGREEMENT * others.slice(others[0] === entry.best ? 1 : 0).reduce((a, v) => a + v, 0)) / entry.best,
    );
    entry.x.own_page =
      ofKind(entry) && entry.hits.some((h) => subjectOf(h.title) !== keyOf(entry.value))
        ? Math.log(1 + OWN_PAGE * ownPage(entry.value))
        : 0;
  }
  // "What profession do X and Y share?": what every page the question names states.
  if (SHARED.test(q.text)) {
    const named = namedPages(q, passages).map((p) => p.source);
    if (named.length >= 2)
      for (const entry of found.values())
        if (!named.every((n) => entry.hits.some((h) => h.source === n))) entry.x.not_shared = Math.log(NOT_OF_KIND);
  }
  // Two things the question names, both read: a candidate both their pages state is what links
  // them ("which actor, who also appeared in "The Quiet Partners", does Night Courier star?": the
  // one of Night Courier's cast that The Quiet Partners' page names too).
  const namedThings = new Map<string, Set<number>>();
  for (const p of namedPages(q, passages)) {
    const subject = subjectOf(p.title);
    namedThings.set(subject, (namedThings.get(subject) ?? new Set()).add(p.source));
  }
  if (namedThings.size >= 2)
    for (const entry of found.values()) {
      const stating = [...namedThings.values()].filter((sources) =>
        entry.hits.some((h) => sources.has(h.source)),
      ).length;
      if (stating >= 2) entry.x.links_named = Math.log(LINKS_NAMED);
    }
  for (const entry of found.values()) entry.score = weighed(entry.x, w);
  return [...found.values()].sort((a, b) => b.score - a.score);
}

/**
 * How much a candidate's own page (a passage titled with its name) says what the question says
 * of it: the question's words on that page, by weight, as a share of all of them. "Which
 * magazine, the British response to Glossmark, did Dorian Kesh edit?": Quillmark's own page
 * calls it the British response to Glossmark. 0 when no page is about the candidate.
 */
function ownPageSupport(
  passages: ResearchPassage[],
  terms: Set<string>,
  weight: (t: string) => number,
  total: number,
): (candidate: string) => number {
  const pages = new Map<string, Set<string>>();
  for (const p of passages) {
    const subject = subjectOf(p.title);
    if (subject) pages.set(subject, new Set([...(pages.get(subject) ?? []), ...tokenize(p.text)]));
  }
  return (candidate) => {
    const own = pages.get(keyOf(candidate));
    if (!own) return 0;
    const name = new Set(tokenize(candidate));
    let said = 0;
    for (const t of terms) if (!name.has(t) && own.has(t)) said += weight(t);
    return said / total;
  };
}
