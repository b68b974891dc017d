/**
 * The reader's answer model: a logistic regression over an answer's named features (features.ts)
 * whose weights `npm run train:reader` fits on the tune parts of the real-text data sets and
 * writes to reader-weights.json. Its probability is the answer's confidence: `high` only above
 * the threshold where the tune parts showed at least 85% of such answers right; below the answer
 * threshold the value is withheld (null), with the reason in words. A value plainly of another
 * kind than the one asked is never the answer, whatever its probability.
 */
import type { ShortKind } from '../question/short-question';
import {
  type AnswerInput,
  answerFeatures,
  FEATURE_NAMES,
  FEATURES,
  type FeatureName,
  type Features,
  wrongKind,
} from './features';
import committed from './reader-weights.json';

/** The weights file as the training script writes it. */
export interface ReaderWeights {
  version: number;
  learner: string;
  /** Feature names, in the order of mean, scale and weights. */
  features: string[];
  /** Each feature is standardised ((x - mean) / scale) before it is weighed. */
  mean: number[];
  scale: number[];
  weights: number[];
  bias: number;
  thresholds: { answer: number; high: number };
  trained: Record<string, unknown>;
}

export interface Verdict {
  /** The model's probability that the value is right. */
  probability: number;
  confidence: 'high' | 'medium' | 'low';
  /** Whether the value is given; false: the answer is null. */
  answered: boolean;
  /** The value judged (given or withheld). */
  value: string;
  features: Features;
  /** The features that weighed most, in words, strongest first. */
  decided: string[];
  /** Why, in one sentence. */
  reason: string;
}

/** The committed weights, checked against the features this engine computes. */
export function loadWeights(raw: unknown = committed): ReaderWeights {
  const w = raw as ReaderWeights;
  const names = FEATURE_NAMES as string[];
  const n = names.length;
  if (!Array.isArray(w.features) || w.features.length !== n || w.features.some((f, i) => f !== names[i]))
    throw new Error(
      `reader weights name features [${(w.features ?? []).join(', ')}], the engine computes [${names.join(', ')}]: run npm run train:reader`,
    );
  for (const key of ['mean', 'scale', 'weights'] as const)
    if (!Array.isArray(w[key]) || w[key].length !== n || w[key].some((x) => !Number.isFinite(x)))
      throw new Error(`reader weights: ${key} must hold ${n} numbers`);
  if (
    !Number.isFinite(w.bias) ||
    !(w.thresholds?.answer >= 0 && w.thresholds.answer <= w.thresholds.high && w.thresholds.high <= 1)
  )
    throw new Error('reader weights: bias and thresholds (0 <= answer <= high <= 1) are required');
  return w;
}

let loaded: ReaderWeights | undefined;
const model = () => (loaded ??= loadWeights());

/** Each feature's pull on the log-odds: weight times its standardised value. */
function contributions(features: Features, w: ReaderWeights): Array<{ name: FeatureName; pull: number }> {
  return (w.features as FeatureName[]).map((name, i) => ({
    name,
    pull: (w.weights[i]! * (features[name] - w.mean[i]!)) / w.scale[i]!,
  }));
}

export function probabilityOf(features: Features, w: ReaderWeights = model()): number {
  const z = w.bias + contributions(features, w).reduce((a, c) => a + c.pull, 0);
  return 1 / (1 + Math.exp(-z));
}

const KIND_NOUN: Record<ShortKind, string> = {
  person: 'person',
  place: 'place',
  organisation: 'organisation',
  date: 'date',
  year: 'year',
  number: 'number',
  thing: 'value',
  yesno: 'answer',
  choice: 'option',
};

/** "the pages name no person who founded Northwind Solar": the question turned into what is missing. */
export function missingAnswer(kind: ShortKind, question: string): string {
  const q = question.trim().replace(/[?.!\s]+$/, '');
  const wh = /^(who|whom|where|when)\b\s*(.*)$/i.exec(q);
  if (wh) {
    const [, word, rest] = wh;
    const noun = word!.toLowerCase() === 'where' ? 'place' : word!.toLowerCase() === 'when' ? 'date' : 'person';
    return `the pages read name no ${noun} ${word!.toLowerCase()} ${rest}`.trim();
  }
  return `the pages read state no ${KIND_NOUN[kind]} that answers "${q}"`;
}

/** Judges one answer: its probability, its confidence, and whether it is given. */
export function judge(input: AnswerInput, weights?: ReaderWeights): Verdict {
  const w = weights ?? model();
  const features = answerFeatures(input);
  const kind = input.question.short!.kind;
  const wrong = wrongKind(kind, input.value);
  const probability = wrong ? 0 : probabilityOf(features, w);
  const pulls = contributions(features, w)
    .map((c, i) => ({ ...c, above: features[c.name] >= w.mean[i]! }))
    .filter((c) => !c.name.startsWith('kind_') && Math.abs(c.pull) >= 0.05)
    .sort((a, b) => Math.abs(b.pull) - Math.abs(a.pull))
    .slice(0, 3);
  // In words: what the feature's value says, and which way it weighed ("for" raises the probability).
  const decided = pulls.map(
    (c) =>
      `${c.above ? FEATURES[c.name].high : FEATURES[c.name].low} (${c.name} ${features[c.name].toFixed(2)}, ${c.pull > 0 ? 'for' : 'against'} ${Math.abs(c.pull).toFixed(2)})`,
  );
  const answered = !wrong && probability >= w.thresholds.answer;
  const confidence = !answered ? 'low' : probability >= w.thresholds.high ? 'high' : 'medium';
  const p = probability.toFixed(2);
  const reason = wrong
    ? `${capital(missingAnswer(kind, input.question.short!.text))}: the closest candidate, "${input.value}", is ${wrong}.`
    : answered
      ? `Judged ${p} likely right (${confidence}): ${decided.join('; ') || 'no feature stood out'}.`
      : `${capital(missingAnswer(kind, input.question.short!.text))}: the closest candidate, "${input.value}", is judged only ${p} likely right (${decided.join('; ') || 'no feature stood out'}).`;
  return { probability, confidence, answered, value: input.value, features, decided, reason };
}

const capital = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
