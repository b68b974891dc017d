/**
 * The candidates of one question over one set of pages, scored once: the short answer reads them
 * to choose its value, and the answer model reads them again to weigh that value against the
 * others (its `candidate_share`). Kept per analysis (a WeakMap: gone with the question).
 */
import type { ResearchPassage } from '@app/research';
import type { QuestionAnalysis } from './analysis';
import { candidateWeights } from './candidate-model';
import { keyOf } from './names';
import { type Entry, scoredCandidates } from './scoring';

const memo = new WeakMap<
  QuestionAnalysis,
  { passages: readonly ResearchPassage[]; weights: object; entries: Entry[] }
>();

const samePages = (a: readonly ResearchPassage[], b: readonly ResearchPassage[]) =>
  a.length === b.length && a.every((p, i) => p === b[i] || (p.source === b[i]!.source && p.text === b[i]!.text));

/** scoredCandidates with the committed weights, made once per question and pages. */
export function rankedCandidates(a: QuestionAnalysis, passages: readonly ResearchPassage[]): Entry[] {
  const weights = candidateWeights();
  const hit = memo.get(a);
  if (hit && hit.weights === weights && samePages(hit.passages, passages)) return hit.entries;
  const entries = scoredCandidates(a, [...passages], weights);
  memo.set(a, { passages: [...passages], weights, entries });
  return entries;
}

/** The value's share of the candidate model's probability over the question's candidates (0 when it is none of them). */
export function candidateShare(a: QuestionAnalysis, passages: readonly ResearchPassage[], value: string): number {
  const entries = rankedCandidates(a, passages);
  const key = keyOf(value);
  const total = entries.reduce((s, e) => s + e.score, 0);
  const own = entries.find((e) => keyOf(e.value) === key);
  return own && total > 0 ? own.score / total : 0;
}
