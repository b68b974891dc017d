/**
 * The named features of an answer: what the reader's answer model (answer-model.ts) weighs to
 * judge whether a value read from the pages answers the question. Each is a number, most in
 * [0, 1]; `FEATURES` names them in the order the weights file lists them, and each carries the
 * words the task's basis uses when it decided an answer.
 */
import { nlp, parseDates } from '../../lazy-parsers';
import { sentenceSpans, tokenize } from '@app/text';
import type { ResearchPassage } from '@app/research';
import type { QuestionAnalysis } from '../question/analysis';
import { NEGATION } from '../question/relation';
import type { ShortKind } from '../question/short-question';
import { keyOf, subjectOf } from '../question/names';
import { candidateShare } from '../question/ranked';
import { periodsIn, yearsIn } from '../question/candidates/dates';
import { replacedWord } from './replaced';

export const KINDS: ShortKind[] = [
  'person',
  'place',
  'organisation',
  'date',
  'year',
  'number',
  'thing',
  'yesno',
  'choice',
];

/** Every feature, with what its value says of an answer when it is above its usual value (`high`) or below (`low`). */
export const FEATURES = {
  ...Object.fromEntries(
    KINDS.map((k) => [`kind_${k}`, { high: `a question asking for a ${k}`, low: `a question not asking for a ${k}` }]),
  ),
  fits_kind: { high: 'the value is of the kind asked', low: 'the value is not plainly of the kind asked' },
  sentence_cover: {
    high: "its sentence holds most of the question's words",
    low: "its sentence holds few of the question's words",
  },
  page_cover: { high: "its page holds the question's words", low: "its page lacks some of the question's words" },
  absent_terms: {
    high: 'words of the question appear on no page read',
    low: 'the words of the question are on the pages read',
  },
  sentence_missing: {
    high: 'its sentence misses a rare word of the question',
    low: "its sentence misses none of the question's rarer words",
  },
  names_missing: {
    high: 'its sentence lacks a name or number the question gives',
    low: 'its sentence names what the question names',
  },
  absent_names: {
    high: 'a name or number of the question appears on no page read',
    low: 'the names and numbers of the question are on the pages read',
  },
  proximity: {
    high: "the value stands next to the question's words",
    low: "the value stands far from the question's words",
  },
  relation_words: {
    high: "its sentence states the question's relation (its verbs)",
    low: "its sentence does not state the question's relation (its verbs)",
  },
  value_in_question: { high: 'the value repeats words of the question', low: 'the value is new to the question' },
  sources_agreeing: { high: 'other pages name it too', low: 'no other page names it' },
  value_repeated: { high: 'the pages name it often', low: 'the pages name it rarely' },
  value_named: { high: 'the value is a name (capitalised)', low: 'the value is a common noun phrase' },
  source_rank: { high: 'it is on a top-ranked page', low: 'it is on a lower-ranked page' },
  subject_named: {
    high: 'its page is about a thing the question names',
    low: 'its page is about nothing the question names',
  },
  negation_mismatch: {
    high: 'question and sentence differ in negation',
    low: 'question and sentence agree in negation',
  },
  value_words: { high: 'the value is a long phrase', low: 'the value is a short phrase' },
  antonym_clash: {
    high: 'its sentence states the opposite of a word of the question',
    low: "its sentence states no opposite of the question's words",
  },
  replaced_word: {
    high: 'its sentence has another word where the question has one of its own',
    low: "its sentence replaces none of the question's words",
  },
  candidate_share: {
    high: 'the candidate model prefers it clearly to the other candidates',
    low: 'the candidate model finds other candidates about as likely',
  },
  rule_high: { high: 'the candidate rules were sure of it', low: 'the candidate rules were not sure of it' },
  rule_medium: {
    high: 'the candidate rules found it clearly ahead',
    low: 'the candidate rules did not find it clearly ahead',
  },
} satisfies Record<string, { high: string; low: string }>;

export type FeatureName = keyof typeof FEATURES;
export const FEATURE_NAMES = Object.keys(FEATURES) as FeatureName[];
export type Features = Record<FeatureName, number>;

/** What one answer is judged from: the question as analysed, the value, the rules' confidence, its evidence, the pages read. */
export interface AnswerInput {
  question: QuestionAnalysis;
  value: string;
  rule: 'high' | 'medium' | 'low';
  evidence: ReadonlyArray<{ source: number; quote: string }>;
  passages: ReadonlyArray<ResearchPassage>;
}

const NUMBER_WORD =
  /\b(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|twenty|thirty|forty|fifty|hundred|thousand|million|billion|dozen|half)\b/i;

/** A year, a date or a number is a short phrase: a sentence that holds one is not one ("What year ..." answered with two sentences). */
const SHORT_VALUE_WORDS = 8;

/** The value as a name of the kind asked, by compromise's tags, chrono-node's dates and digits: 1, or 0 where it is plainly not. */
export function fitsKindOf(kind: ShortKind, value: string): number {
  const v = value.trim();
  if (!v) return 0;
  const short = v.split(/\s+/).length <= SHORT_VALUE_WORDS;
  switch (kind) {
    case 'year':
      return short && (/\b(?:1[0-9]\d\d|20\d\d)\b/.test(v) || yearsIn(v).length > 0) ? 1 : 0;
    case 'date':
      // A century or a decade is a date too ("the 10th and 11th centuries", "the 1060s").
      return short && (/\b\d{3,4}\b/.test(v) || periodsIn(v).length > 0 || parseDates(v).length > 0) ? 1 : 0;
    case 'number':
      return short && (/\d/.test(v) || NUMBER_WORD.test(v)) ? 1 : 0;
    case 'person': {
      const doc = nlp(v);
      return doc.has('#Person') || doc.has('#Organization') ? 1 : 0;
    }
    case 'place':
      return nlp(v).has('#Place') ? 1 : 0;
    case 'organisation': {
      const doc = nlp(v);
      return doc.has('#Organization') || doc.has('#ProperNoun') ? 1 : 0;
    }
    default:
      return 1;
  }
}

/**
 * A value that is plainly of another kind than the one asked, which is never the answer: a
 * place, a date or a number for "who"; a person, a date or a number for "where"; no digit nor
 * number word for "how many"; no year for "what year".
 */
export function wrongKind(kind: ShortKind, value: string): string | null {
  const v = value.trim();
  const bare = /^[\d.,\s%$€£]+$/.test(v);
  const dated =
    /^(?:(?:in|on)\s+)?(?:1[0-9]\d\d|20\d\d)$/.test(v) || (parseDates(v)[0]?.text.length ?? 0) >= 0.8 * v.length;
  if (kind === 'year' || kind === 'date' || kind === 'number')
    return fitsKindOf(kind, v) ? null : `no ${kind === 'number' ? 'number' : kind}`;
  if (kind === 'person' || kind === 'organisation') {
    if (bare || dated)
      return kind === 'person' ? 'a date or number, not a person' : 'a date or number, not an organisation';
    const doc = nlp(v);
    if (kind === 'person' && doc.has('#Place') && !doc.has('#Person') && !doc.has('#Organization'))
      return 'a place, not a person';
    if (kind === 'organisation' && personName(v)) return 'a person, not an organisation';
  }
  if (kind === 'place') {
    if (bare || dated) return 'a date or number, not a place';
    if (personName(v)) return 'a person, not a place';
  }
  return null;
}

/**
 * A person's full name: a first name, then one or two more words, that compromise reads as
 * nothing but a person. A lone word is not enough ("Adelaide" is a city as often as a name), nor
 * a name joined by "&" (a firm of partners).
 */
function personName(v: string): boolean {
  if (!/^\S+(?:\s+\S+){1,2}$/.test(v) || /&|\band\b/.test(v)) return false;
  const doc = nlp(v);
  return doc.has('^#FirstName') && doc.has('#Person') && !doc.has('#Place') && !doc.has('#Organization');
}

/** The features of one answer. */
export function answerFeatures(input: AnswerInput): Features {
  const { question: analysis, value, evidence, passages } = input;
  const q = analysis.short!;
  const first = evidence[0];
  const quote = first?.quote ?? '';
  const page = passages.find((p) => p.source === first?.source);
  const terms = q.terms;
  // An idf over the sentences read; a word on no page weighs as one on a single sentence (else the unknown words would outweigh all).
  const sentences = passages.flatMap((p) => sentenceSpans(p.text).map((s) => new Set(tokenize(s.text))));
  const df = new Map(terms.map((t) => [t, sentences.filter((s) => s.has(t)).length]));
  const weight = (t: string) => Math.log(1 + (sentences.length + 1) / (Math.max(1, df.get(t) ?? 0) + 0.5));
  const total = terms.reduce((a, t) => a + weight(t), 0) || 1;
  const share = (has: Set<string>) => terms.reduce((a, t) => a + (has.has(t) ? weight(t) : 0), 0) / total;
  const sentenceTerms = new Set(tokenize(`${quote} ${page?.title ?? ''}`));
  const pageTerms = new Set(tokenize(`${page?.title ?? ''} ${page?.text ?? ''}`));
  const allTerms = new Set(passages.flatMap((p) => tokenize(`${p.title} ${p.text}`)));
  const allText = ` ${passages
    .map((p) => `${p.title} ${p.text}`)
    .join(' ')
    .toLowerCase()} `;
  const names = analysis.names;
  const absentNames = names.filter((n) => !allText.includes(n)).length;
  const valueTerms = tokenize(value);
  const relation = analysis.relation;
  const rank = Math.max(
    0,
    passages.findIndex((p) => p.source === first?.source),
  );
  const subject = page ? subjectOf(page.title) : '';
  const questionKey = ` ${keyOf(q.text)} `;
  const features = Object.fromEntries(FEATURE_NAMES.map((f) => [f, 0])) as Features;
  features[`kind_${q.kind}` as FeatureName] = 1;
  features.fits_kind = fitsKindOf(q.kind, value);
  features.sentence_cover = share(sentenceTerms);
  features.page_cover = share(pageTerms);
  features.absent_terms = 1 - share(allTerms);
  features.absent_names = Math.min(2, absentNames) / 2;
  // The rarest question word its sentence (with its page's title) lacks, against the rarest of all.
  const heaviest = Math.max(...terms.map(weight), 1e-9);
  features.sentence_missing = terms.reduce((a, t) => (sentenceTerms.has(t) ? a : Math.max(a, weight(t))), 0) / heaviest;
  const sentenceText = ` ${`${quote} ${page?.title ?? ''}`.toLowerCase()} `;
  features.names_missing =
    names.length === 0 ? 0 : names.filter((n) => !sentenceText.includes(n)).length / names.length;
  features.proximity = proximityOf(quote, value, new Set(terms));
  features.relation_words =
    relation.length === 0 ? 1 : relation.filter((r) => sentenceTerms.has(r)).length / relation.length;
  features.value_in_question =
    valueTerms.length === 0 ? 0 : valueTerms.filter((t) => terms.includes(t)).length / valueTerms.length;
  const valueKey = ` ${keyOf(value)} `;
  const pageKeys = passages.map((p) => ` ${keyOf(`${p.title} ${p.text}`)} `);
  const naming = passages.filter(
    (p, i) => p.source !== first?.source && valueKey.trim() !== '' && pageKeys[i]!.includes(valueKey),
  ).length;
  features.sources_agreeing = Math.min(3, naming) / 3;
  let count = 0;
  for (const key of pageKeys)
    for (
      let at = key.indexOf(valueKey);
      at >= 0 && count < 50 && valueKey.trim() !== '';
      at = key.indexOf(valueKey, at + 1)
    )
      count++;
  features.value_repeated = Math.min(1, Math.log(1 + count) / Math.log(51));
  features.value_named = /^\p{Lu}/u.test(value.trim()) ? 1 : 0;
  features.source_rank = 1 / (1 + rank);
  features.subject_named = subject.length >= 3 && questionKey.includes(` ${subject} `) ? 1 : 0;
  features.negation_mismatch = analysis.negated !== NEGATION.test(quote) ? 1 : 0;
  // "lose" asked, "gained" stated: the sentence says another thing than the question asks.
  features.antonym_clash = analysis.opposed.some(
    (o) => !sentenceTerms.has(o.stem) && o.opposites.some((x) => sentenceTerms.has(x)),
  )
    ? 1
    : 0;
  features.replaced_word = replacedWord(analysis.plain, quote) ? 1 : 0;
  features.candidate_share = candidateShare(analysis, passages, value);
  features.value_words = Math.min(6, value.split(/\s+/).filter(Boolean).length) / 6;
  features.rule_high = input.rule === 'high' ? 1 : 0;
  features.rule_medium = input.rule === 'medium' ? 1 : 0;
  return features;
}

/** How near the value stands to the question's words in its sentence: 1 beside them, towards 0 far off or absent (matched word by word, so "Saint Étienne" stands where "Saint-Étienne" is written). */
function proximityOf(sentence: string, value: string, terms: Set<string>): number {
  const words = [...sentence.matchAll(/[\p{L}\p{N}]+/gu)].map((m) => m[0].toLowerCase());
  const own = (value.match(/[\p{L}\p{N}]+/gu) ?? []).map((w) => w.toLowerCase());
  if (own.length === 0) return 0;
  const lo = words.findIndex((_, i) => own.every((w, j) => words[i + j] === w));
  if (lo < 0) return 0;
  const hi = lo + own.length;
  const distances: number[] = [];
  words.forEach((w, i) => {
    const term = tokenize(w)[0];
    if (term === undefined || !terms.has(term) || (i >= lo && i < hi)) return;
    distances.push(i < lo ? lo - i : i - hi + 1);
  });
  if (distances.length === 0) return 0;
  distances.sort((a, b) => a - b);
  return distances.slice(0, 3).reduce((a, d) => a + 1 / (1 + d / 3), 0) / 3;
}
