/**
 * Features of a candidate's own words and of the words beside it in its sentence, which the
 * rules as written did not weigh (their hand-set weight is 0) and `npm run train:reader` learns
 * (candidate-model.ts). Its sentence is tagged once (compromise, in context: "bytes" is a noun in
 * "measured in bytes"); each feature is a number in [0, 1]:
 *  - phrase_shape: it reads as an answer phrase: it ends in a noun, a number or a name and starts
 *    with no conjunction, preposition, adverb or interjection ("However", "rows of", "over the
 *    following" are pieces of a sentence, not answers);
 *  - asked_head: it holds the noun the question asks for ("what century": "12th century");
 *  - left_terms, right_terms: the question's words, by weight, among the three words before it,
 *    and after it;
 *  - same_clause: the question's words its sentence holds, by weight, that stand in its clause
 *    (between the same commas, semicolons, colons or brackets);
 *  - capitalised: it starts with a capital where its sentence does not start;
 *  - value_length: its words, up to six, over six.
 */
import { nlp } from '../../../lazy-parsers';
import { tagged } from './tagged';
import { spanOf, type Word } from './words';
import { tokenize } from '@app/text';

interface Term {
  start: number;
  end: number;
  tags: string[];
  text: string;
}

export const SHAPE_FEATURES = [
  'phrase_shape',
  'asked_head',
  'left_terms',
  'right_terms',
  'same_clause',
  'capitalised',
  'value_length',
] as const;
export type ShapeFeature = (typeof SHAPE_FEATURES)[number];

const HEAD = new Set(['Noun', 'Value', 'ProperNoun', 'Acronym', 'Date', 'Possessive']);
const NOT_FIRST = new Set(['Conjunction', 'Preposition', 'Adverb', 'Expression', 'Pronoun']);
const NOT_LAST = new Set(['Preposition', 'Determiner', 'Conjunction', 'Adverb']);
/** Words either side of a candidate that count as beside it. */
const BESIDE = 3;

function termsOf(text: string, doc = nlp(text)): Term[] {
  const json = doc.json({ offset: true, terms: { offset: true } }) as Array<{
    terms: Array<{ text: string; tags?: string[]; offset?: { start: number; length: number } }>;
  }>;
  return json.flatMap((s) =>
    s.terms
      .filter((t) => t.offset)
      .map((t) => ({
        start: t.offset!.start,
        end: t.offset!.start + t.offset!.length,
        tags: t.tags ?? [],
        text: t.text,
      })),
  );
}

const has = (t: Term, set: Set<string>) => t.tags.some((g) => set.has(g));

function shapeOf(terms: Term[]): number {
  if (terms.length === 0) return 0;
  const first = terms[0]!;
  const last = terms[terms.length - 1]!;
  const head = has(last, HEAD) || /^\p{Lu}/u.test(last.text);
  return head && !has(first, NOT_FIRST) && !has(last, NOT_LAST) ? 1 : 0;
}

/** The shape features of the candidates of one sentence: the sentence is tagged once, on the first candidate. */
export function sentenceShape(
  sentence: string,
  words: Word[],
  questionTerms: Set<string>,
  weight: (t: string) => number,
  total: number,
  askedNoun: string | undefined,
): (candidate: string) => Record<ShapeFeature, number> {
  let terms: Term[] | undefined;
  const clauseOf = (at: number) => {
    const before = sentence.slice(0, at).search(/[,;:()][^,;:()]*$/);
    return before < 0 ? 0 : before + 1;
  };
  const share = (list: Word[]) => {
    const seen = new Set(list.map((w) => w.term).filter((t): t is string => t !== undefined && questionTerms.has(t)));
    let sum = 0;
    for (const t of seen) sum += weight(t);
    return sum / total;
  };
  return (candidate) => {
    const at = sentence.indexOf(candidate);
    const end = at + candidate.length;
    terms ??= termsOf(sentence, tagged(sentence));
    const own = at >= 0 ? terms.filter((t) => t.end > at && t.start < end) : termsOf(candidate);
    const { first, last } = at >= 0 ? spanOf(words, at, candidate.length) : { first: -1, last: -1 };
    const clause = at >= 0 ? clauseOf(at) : 0;
    const after = at >= 0 ? sentence.slice(end).search(/[,;:()]/) : -1;
    const clauseEnd = at < 0 ? 0 : after < 0 ? sentence.length : end + after;
    return {
      phrase_shape: shapeOf(own),
      asked_head: askedNoun !== undefined && tokenize(candidate).includes(askedNoun) ? 1 : 0,
      left_terms: first > 0 ? share(words.slice(Math.max(0, first - BESIDE), first)) : 0,
      right_terms: last >= 0 ? share(words.slice(last + 1, last + 1 + BESIDE)) : 0,
      same_clause:
        at >= 0
          ? share(words.filter((w) => w.start >= clause && w.end <= clauseEnd && (w.end <= at || w.start >= end)))
          : 0,
      capitalised: at > 0 && /^\p{Lu}/u.test(candidate) ? 1 : 0,
      value_length: Math.min(6, candidate.split(/\s+/).filter(Boolean).length) / 6,
    };
  };
}
