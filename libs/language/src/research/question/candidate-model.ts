/**
 * The candidate scorer's model: every candidate carries a vector of named features, each the
 * logarithm of one factor of its score, and its score is exp(w · x), the weights read from
 * candidate-weights.json. With every weight 1 the score is the product of the factors as the
 * rules wrote them (the file's `hand-set` weights); `npm run train:reader` fits others.
 *
 * Of one sentence stating the candidate (its best one counts):
 *  - overlap: the question's words the sentence holds, by weight, of all of them;
 *  - rank: the rank of its page among the pages read (1 / (1 + 0.15 rank));
 *  - other_instance: the sentence names another instance of a series the question asks one of;
 *  - proximity: how near the question's words stand to the candidate (0.5 to 1.5);
 *  - kind_fit: the candidate is a name of the kind asked (compromise), or of another;
 *  - noun_fit: the pages describe it as the noun the question asks for;
 *  - commonness: a noun phrase every page repeats loses (a thing asked for only);
 *  - off_subject: a count, year or date on a page that never names the entity the question asks
 *    about directly, where other pages read do (subject.ts): a value of another entity;
 *  - phrase_shape, asked_head, left_terms, right_terms, same_clause, capitalised, value_length:
 *    its own words and the words beside it (candidates/shape.ts), learned only: the rules as
 *    written weigh them 0.
 * Of the candidate:
 *  - agreement: further sources stating it, as much as their sentences are about the question;
 *  - own_page: its own page says what the question says of it;
 *  - not_shared: a question asking what two named things share, and not every page of them states it;
 *  - links_named: the pages of two things the question names both state it.
 */
import committed from './candidate-weights.json';
import { SHAPE_FEATURES, type ShapeFeature } from './candidates/shape';

export const SENTENCE_FEATURES = [
  'overlap',
  'rank',
  'other_instance',
  'proximity',
  'kind_fit',
  'noun_fit',
  'commonness',
  'off_subject',
  ...SHAPE_FEATURES,
] as const;
export const CANDIDATE_FEATURES = ['agreement', 'own_page', 'not_shared', 'links_named'] as const;
export const ALL_CANDIDATE_FEATURES = [...SENTENCE_FEATURES, ...CANDIDATE_FEATURES] as const;
export type SentenceFeature = (typeof SENTENCE_FEATURES)[number];
export type CandidateFeature = (typeof ALL_CANDIDATE_FEATURES)[number];
export type SentenceVector = Record<SentenceFeature, number>;
export type CandidateVector = Record<CandidateFeature, number>;

export interface CandidateWeights {
  version: number;
  source: string;
  features: string[];
  weights: number[];
}

/** The committed weights, checked against the features the scorer computes. */
export function loadCandidateWeights(raw: unknown = committed): Record<CandidateFeature, number> {
  const w = raw as CandidateWeights;
  const names = ALL_CANDIDATE_FEATURES as readonly string[];
  if (!Array.isArray(w.features) || w.features.length !== names.length || w.features.some((f, i) => f !== names[i]))
    throw new Error(
      `candidate weights name [${(w.features ?? []).join(', ')}], the scorer computes [${names.join(', ')}]`,
    );
  if (!Array.isArray(w.weights) || w.weights.length !== names.length || w.weights.some((x) => !Number.isFinite(x)))
    throw new Error(`candidate weights must hold ${names.length} numbers`);
  return Object.fromEntries(names.map((n, i) => [n, w.weights[i]!])) as Record<CandidateFeature, number>;
}

/** Features the rules as written never weighed: their hand-set weight is 0, every other factor's 1. */
export const LEARNED_ONLY: ReadonlySet<CandidateFeature> = new Set<CandidateFeature>(
  SHAPE_FEATURES as readonly ShapeFeature[],
);
/** The weights of the rules as written: every factor 1, the learned-only features 0. */
export const HAND_SET = Object.fromEntries(
  ALL_CANDIDATE_FEATURES.map((f) => [f, LEARNED_ONLY.has(f) ? 0 : 1]),
) as Record<CandidateFeature, number>;

let loaded: Record<CandidateFeature, number> | undefined;
export const candidateWeights = () => (loaded ??= loadCandidateWeights());
/** Weighs candidates with `w` from now on in this process (train:reader measures the weights it fits; nothing else calls it). */
export const useCandidateWeights = (w: Record<CandidateFeature, number>): void => {
  loaded = w;
};

/** exp(w · x) over the features `x` holds. */
export function weighed(x: Partial<CandidateVector>, w: Record<CandidateFeature, number> = candidateWeights()): number {
  let z = 0;
  for (const [name, value] of Object.entries(x) as Array<[CandidateFeature, number]>)
    if (value !== 0) z += w[name] * value;
  return Math.exp(z);
}
