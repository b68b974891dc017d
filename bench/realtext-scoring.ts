/**
 * How `bench:realtext` grades an answer, a report and a reply: HotpotQA's normalisation, exact
 * match and token F1, SQuAD 2.0's rule for questions written to have no answer, and whether a
 * text holds the gold.
 */
import type { Question } from './realtext-data';

const PUNCTUATION = /[!"#$%&'()*+,\-./:;<=>?@[\\\]^_`{|}~]/g;
export const normalizeAnswer = (s: string) =>
  s
    .toLowerCase()
    .replace(PUNCTUATION, '')
    .replace(/\b(a|an|the)\b/g, ' ')
    .split(/\s+/)
    .filter(Boolean)
    .join(' ');

export function f1(prediction: string, gold: string): number {
  const p = normalizeAnswer(prediction);
  const g = normalizeAnswer(gold);
  const special = ['yes', 'no', 'noanswer'];
  if ((special.includes(p) || special.includes(g)) && p !== g) return 0;
  const pt = p.split(' ').filter(Boolean);
  const gt = g.split(' ').filter(Boolean);
  const counts = new Map<string, number>();
  for (const t of gt) counts.set(t, (counts.get(t) ?? 0) + 1);
  let same = 0;
  for (const t of pt) {
    const c = counts.get(t) ?? 0;
    if (c > 0) {
      same++;
      counts.set(t, c - 1);
    }
  }
  if (same === 0) return 0;
  const precision = same / pt.length;
  const recall = same / gt.length;
  return (2 * precision * recall) / (precision + recall);
}

export const exactMatch = (prediction: string, gold: string) =>
  normalizeAnswer(prediction) === normalizeAnswer(gold) ? 1 : 0;
export const best = (answers: string[], score: (gold: string) => number) => Math.max(0, ...answers.map(score));

/**
 * A value scored as SQuAD 2.0 and HotpotQA score it: against the best of the gold answers
 * (normalised exact match, token F1); no value (null or empty) scores 1 on a question written to
 * have no answer and 0 on any other, and any value on such a question scores 0.
 */
export function scoreAnswer(
  q: Pick<Question, 'answers' | 'answerable'>,
  value: string | null | undefined,
): { em: number; f1: number } {
  const given = value !== null && value !== undefined && value.trim() !== '';
  if (!q.answerable) return given ? { em: 0, f1: 0 } : { em: 1, f1: 1 };
  if (!given) return { em: 0, f1: 0 };
  return { em: best(q.answers, (g) => exactMatch(value, g)), f1: best(q.answers, (g) => f1(value, g)) };
}

/** Report or reply text without citation markers and markdown emphasis. */
const plain = (text: string) => text.replace(/\[\d+(?:\s*[,–-]\s*\d+)*\]/g, ' ').replace(/[*_`#>]/g, ' ');
/** The normalised gold as whole words inside the normalised text. */
export const containsGold = (text: string, gold: string) => {
  const g = normalizeAnswer(gold);
  return g.length > 0 && ` ${normalizeAnswer(plain(text))} `.includes(` ${g} `);
};
export const firstSentence = (text: string) =>
  plain(text)
    .trim()
    .split(/(?<=[.!?])\s+(?=[\p{Lu}\p{N}"“(])/u)[0] ?? '';
/** A report or reply before its `## Sources` list. */
export const withoutSources = (text: string) => text.split(/\n#+\s*Sources\b/)[0] ?? text;
/** The first paragraph of prose: after the `# title`, before anything else. */
export const firstParagraph = (report: string) =>
  report
    .split(/\n\s*\n/)
    .map((b) => b.trim())
    .filter(Boolean)
    .find((b) => !b.startsWith('#')) ?? '';
