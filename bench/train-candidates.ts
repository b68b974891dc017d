/**
 * The candidate weights of the reader (libs/language/src/research/question/candidate-model.ts),
 * fitted for `npm run train:reader` on the tune parts only.
 *
 * Each tune question read over its pages gives its candidates (scoredCandidates, with the
 * hand-set weights: every factor as the rules wrote it), each a vector of named features (the
 * logarithms of the score's factors, and the learned-only features of its words, candidates/shape.ts);
 * a candidate is right when its token F1 against the gold is >= 0.8. The learner is a conditional
 * logit: P(candidate) = exp(w · x) / the sum over the question's candidates, fitted by full-batch
 * gradient ascent (Adam's steps: the features' scales differ tenfold) on the log-probability of the
 * right candidates of each question that has one, with an L2 pull towards 0, from 0, a fixed number
 * of steps: the same rows give the same weights. Only the learned-only features are fitted: the
 * rules' factors keep weight 1. Fitting them too (on the same rows) doubled the weight of the
 * question's words in a sentence and overturned what real text rarely shows and the rules hold
 * (a sentence about another instance of a series, what two named things share, the noun asked):
 * out of fold on the tune questions, the top candidate's F1 rose from 0.484 (hand-set) to 0.516
 * fitting all and to 0.508 fitting the learned-only ones (PULL). No library offers a conditional logit (a softmax over each
 * question's own candidates); it is a dozen lines here.
 */
import { analyse } from '../libs/language/src/research/question/analysis';
import {
  ALL_CANDIDATE_FEATURES,
  type CandidateFeature,
  HAND_SET,
  LEARNED_ONLY,
} from '../libs/language/src/research/question/candidate-model';
import { scoredCandidates } from '../libs/language/src/research/question/scoring';
import type { DataSet } from './realtext.bench';
import { type Setting } from './reading';
import { scoreAnswer } from './realtext.bench';

const STEPS = 600;
/** Adam's step size and its two moment decays. */
const RATE = 0.1;
const BETA1 = 0.9;
const BETA2 = 0.999;
/**
 * The L2 pull towards 0 of the learned-only features: strong, so that they order candidates the
 * rules' factors leave close (those of one sentence) and do not overturn the rules (out of fold
 * on the tune questions the top candidate's F1 is 0.508 at this pull, 0.509 at 0.05, where the
 * weights grew fivefold and overturned seven of the rules' own cases).
 */
const PULL = 0.5;
/** Candidates of a question learned from at most (the best under the hand-set weights). */
const PER_QUESTION = 30;

export interface CandidateGroup {
  set: string;
  xs: number[][];
  right: boolean[];
}

const HAND = HAND_SET;

/** Each tune question's candidates as feature vectors, with which are right (questions with none right are left out: they teach no ranking). */
export function candidateGroups(
  set: DataSet,
  setting: Setting,
  pagesOf: (questionIndex: number) => Array<{ source: number; url: string; title: string; text: string }>,
): CandidateGroup[] {
  const groups: CandidateGroup[] = [];
  set.questions.forEach((q, i) => {
    if (q.part !== 'tune' || !q.answerable) return;
    const entries = scoredCandidates(analyse(q.question), pagesOf(i), HAND).slice(0, PER_QUESTION);
    const right = entries.map((e) => scoreAnswer(q, e.value).f1 >= 0.8);
    if (!right.some(Boolean) || entries.length < 2) return;
    groups.push({
      set: `${set.name}.${setting}`,
      xs: entries.map((e) => ALL_CANDIDATE_FEATURES.map((f) => e.x[f] ?? 0)),
      right,
    });
  });
  return groups;
}

/** Fits the weights; returns them with the share of groups whose top candidate is right, before and after. */
export function fitCandidates(groups: CandidateGroup[]): {
  weights: Record<CandidateFeature, number>;
  topRight: { hand: number; fitted: number };
} {
  const k = ALL_CANDIDATE_FEATURES.length;
  const hand = ALL_CANDIDATE_FEATURES.map((f) => HAND[f]);
  // Only the learned-only features are fitted; the rules' factors keep their weight (1).
  const fitted = ALL_CANDIDATE_FEATURES.map((f) => LEARNED_ONLY.has(f));
  const w = [...hand];
  const first = new Array<number>(k).fill(0);
  const second = new Array<number>(k).fill(0);
  for (let step = 1; step <= STEPS; step++) {
    const grad = w.map((x, j) => -2 * PULL * (x - hand[j]!) * groups.length);
    for (const g of groups) {
      const z = g.xs.map((x) => x.reduce((a, v, j) => a + v * w[j]!, 0));
      const m = Math.max(...z);
      const e = z.map((v) => Math.exp(v - m));
      const all = e.reduce((a, v) => a + v, 0);
      const good = e.reduce((a, v, j) => a + (g.right[j] ? v : 0), 0);
      for (let j = 0; j < k; j++) {
        let eAll = 0;
        let eGood = 0;
        g.xs.forEach((x, c) => {
          eAll += (e[c]! / all) * x[j]!;
          if (g.right[c]) eGood += (e[c]! / good) * x[j]!;
        });
        grad[j]! += eGood - eAll;
      }
    }
    for (let j = 0; j < k; j++) {
      if (!fitted[j]) continue;
      const g = grad[j]! / groups.length;
      first[j] = BETA1 * first[j]! + (1 - BETA1) * g;
      second[j] = BETA2 * second[j]! + (1 - BETA2) * g * g;
      w[j]! += (RATE * (first[j]! / (1 - BETA1 ** step))) / (Math.sqrt(second[j]! / (1 - BETA2 ** step)) + 1e-8);
    }
  }
  const topRight = (weights: number[]) =>
    groups.filter((g) => {
      const z = g.xs.map((x) => x.reduce((a, v, j) => a + v * weights[j]!, 0));
      return g.right[z.indexOf(Math.max(...z))];
    }).length / Math.max(1, groups.length);
  const rounded = w.map((x) => Math.round(x * 1e4) / 1e4);
  return {
    weights: Object.fromEntries(ALL_CANDIDATE_FEATURES.map((f, j) => [f, rounded[j]!])) as Record<
      CandidateFeature,
      number
    >,
    topRight: { hand: topRight(hand), fitted: topRight(rounded) },
  };
}
