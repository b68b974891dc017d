/** Numbers as pages write them: the candidates of "how many" and "what was the score", what a number counts, and a number that is a name. */
import { tokenize } from '@app/text';
import type { ResearchPassage } from '@app/research';
import { keyOf, subjectOf } from '../names';
import { type CandidateCues, countedNoun } from './cues';
import { KIND_FIT } from './fit';
import { isYear } from './dates';

/** A number as written with what belongs to it: "$1.2 billion", "5½", "31–24", "11:28", "six"; not an ordinal ("50th"). */
const NUMBER = new RegExp(
  String.raw`(?:[$€£]\s?)?\b\d[\d,]*(?:\.\d+)?[½¼¾]?(?:\s?[–-]\s?\d[\d,]*(?![\d,]*\s?[–-]))?(?::\d\d)?(?:\s(?:million|billion|trillion|thousand)\b|\s?%|\s(?:percent|per cent)\b)?(?![\p{L}\p{N}])|\b(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|twenty|thirty|forty|fifty|dozen|hundred)\b(?:\s(?:million|billion|thousand)\b)?`,
  'giu',
);

/**
 * Whether a number is a name in the passages: a page is about it ("17 (Corvane album)") or a
 * page quotes it whole ('from his album "17"'). Such a number counts nothing.
 */
export function numberNamed(passages: ResearchPassage[]): (value: string) => boolean {
  const subjects = new Set(passages.map((p) => subjectOf(p.title)));
  return (value) => {
    const key = keyOf(value);
    return subjects.has(key) || passages.some((p) => p.text.includes(`"${value}"`) || p.text.includes(`“${value}”`));
  };
}

/** Nothing but a number ("Two", "1.5 million"): no thing a noun names. */
export const BARE_NUMBER = new RegExp(`^(?:${NUMBER.source})$`, 'iu');

/** A number the counted noun follows in its clause ("five solo tackles") counts it. */
const countsNoun = (counted: Set<string>, after: string) =>
  counted.size > 0 &&
  tokenize(
    after
      .split(/[,;.()]/)[0]!
      .split(/\s+/)
      .slice(0, 4)
      .join(' '),
  ).some((t) => counted.has(t));

/** Whether `value`, where `sentence` states it, is followed by what a "how many" question counts; undefined when the question names nothing counted. */
export function countsAsked(
  question: string | { counted: Set<string> },
  value: string,
  sentence: string,
): boolean | undefined {
  const counted = typeof question === 'string' ? countedNoun(question) : question.counted;
  if (counted.size === 0) return undefined;
  const at = sentence.indexOf(value);
  if (at < 0) return false;
  // Or a label names it: "Students: 5,800".
  const label = /([\p{L}-]+)\s*[:\t]\s*$/u.exec(sentence.slice(Math.max(0, at - 40), at))?.[1];
  return (
    (label !== undefined && tokenize(label).some((t) => counted.has(t))) ||
    countsNoun(counted, sentence.slice(at + value.length, at + value.length + 40))
  );
}

/**
 * The numbers a sentence states, years left out; a question about money prefers an amount of
 * money, one about a score a score ("31–24"), one about a time of the clock a time.
 */
export function numbersIn(text: string, cues: CandidateCues): Array<{ text: string; fit: number }> {
  const { money, score, clock, counted } = cues;
  return [...text.matchAll(NUMBER)]
    .map((m) => ({
      n: m[0].trim().replace(/[,.]+$/, ''),
      after: text.slice(m.index! + m[0].length, m.index! + m[0].length + 40),
    }))
    .filter(({ n }) => !isYear(n))
    .map(({ n, after }) => {
      const fits =
        (money && /^[$€£]|\b(?:million|billion)\b/.test(n)) ||
        (score && /\d\s?[–-]\s?\d/.test(n)) ||
        (clock && /:\d\d$/.test(n));
      const counts = countsNoun(counted, after);
      return { text: n, fit: fits ? KIND_FIT * KIND_FIT : counts ? KIND_FIT : 1 };
    });
}
