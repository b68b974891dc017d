/**
 * The answer model as train:reader fits it: logistic regression on the rows' standardised
 * features, each row judged with the fitted weights, the figures of a part, and the two
 * thresholds (withhold below `answer`, high confidence from `high`) set on the tune rows.
 */
import LogisticRegression from 'ml-logistic-regression';
import { Matrix } from 'ml-matrix';
import { judged, promptAnswer } from '../libs/language/src/research/extractive.research-model';
import { FEATURE_NAMES } from '../libs/language/src/research/answer/features';
import { analyse } from '../libs/language/src/research/question/analysis';
import type { ReaderWeights } from '../libs/language/src/research/answer/answer-model';
import { RIGHT_F1, type Row } from './reader-rows';
import { scoreValue } from './reading';

export const STEPS = 4000;
const HIGH_PRECISION = 0.9;
const MIN_HIGH = 10;

export const round = (x: number, digits = 6) => Math.round(x * 10 ** digits) / 10 ** digits;

/** Rows by (data set, setting), in the order met: the groups every mean over settings is taken across. */
export function bySetting(rows: Row[]): Map<string, Row[]> {
  const groups = new Map<string, Row[]>();
  for (const r of rows) {
    const key = `${r.set}.${r.setting}`;
    const group = groups.get(key);
    if (group) group.push(r);
    else groups.set(key, [r]);
  }
  return groups;
}

export function fitModel(rows: Row[]): Pick<ReaderWeights, 'mean' | 'scale' | 'weights' | 'bias'> {
  const xs = rows.map((r) => r.features!);
  const n = xs.length;
  const k = FEATURE_NAMES.length;
  const mean = Array.from({ length: k }, (_, j) => xs.reduce((a, x) => a + x[j]!, 0) / n);
  const scale = Array.from(
    { length: k },
    (_, j) => Math.sqrt(xs.reduce((a, x) => a + (x[j]! - mean[j]!) ** 2, 0) / n) || 1,
  );
  const X = new Matrix(xs.map((x) => [1, ...x.map((v, j) => (v - mean[j]!) / scale[j]!)]));
  const Y = Matrix.columnVector(rows.map((r) => (r.right ? 1 : 0)));
  // The gradient is summed over rows: the step is scaled by their number.
  const lr = new LogisticRegression({ numSteps: STEPS, learningRate: 0.5 / n });
  lr.train(X, Y);
  // One-vs-all: classifiers[0] scores "not class 0", which for two classes is P(right).
  const w = lr.classifiers[0]!.weights.to1DArray();
  return {
    mean: mean.map((m) => round(m)),
    scale: scale.map((s) => round(s)),
    bias: round(w[0]!),
    weights: w.slice(1).map((x) => round(x)),
  };
}

/** Each row judged with the model: the value given or withheld, its confidence. */
export function judgeRows(rows: Row[], w: ReaderWeights) {
  return rows.map((r) => {
    if (!r.graded || r.value === null) return { r, value: null as string | null, confidence: 'low', p: 0 };
    const f = judged(analyse(r.q.question), r.graded.finding, r.graded.passages, w);
    const answer = f ? promptAnswer(r.q.question, [f]) : null;
    return {
      r,
      value: answer?.value ?? null,
      confidence: answer?.confidence ?? 'low',
      p: f?.verdict?.probability ?? 0,
    };
  });
}

export function figures(judgedRows: ReturnType<typeof judgeRows>) {
  const n = judgedRows.length;
  const answerable = judgedRows.filter((j) => j.r.q.answerable);
  const unanswerable = judgedRows.filter((j) => !j.r.q.answerable);
  const scored = judgedRows.map((j) => ({ ...j, ...scoreValue(j.r.q, j.value) }));
  const high = scored.filter((j) => j.value !== null && j.confidence === 'high');
  const mean = (xs: number[]) => (xs.length ? xs.reduce((a, x) => a + x, 0) / xs.length : 0);
  return {
    n,
    em: mean(scored.map((s) => s.em)),
    f1: mean(scored.map((s) => s.f1)),
    answered: scored.filter((s) => s.value !== null).length,
    high: high.length,
    high_right: high.filter((h) => h.r.q.answerable && h.f1 >= RIGHT_F1).length,
    answerable: answerable.length,
    answerable_f1: mean(scored.filter((s) => s.r.q.answerable).map((s) => s.f1)),
    answerable_high_share: answerable.length ? high.filter((h) => h.r.q.answerable).length / answerable.length : 0,
    unanswerable: unanswerable.length,
    unanswerable_null: unanswerable.length
      ? scored.filter((s) => !s.r.q.answerable && s.value === null).length / unanswerable.length
      : 0,
    unanswerable_high: unanswerable.length ? high.filter((h) => !h.r.q.answerable).length / unanswerable.length : 0,
  };
}

/**
 * The threshold below which a value is withheld, from the mean over (set, setting) groups of the
 * SQuAD 2.0 score on the tune rows: the highest threshold scoring within one question of the
 * smallest group of the best. The score is flat near its best (a refit moving one question moves
 * the best threshold by a step), and where answering and withholding score alike a null is the
 * honest answer. `curve` receives each threshold's score.
 */
export function answerThreshold(
  rows: Row[],
  p: (r: Row) => number,
  curve?: (t: number, score: number) => void,
): { t: number; score: number; best: { t: number; score: number }; tolerance: number } {
  const groups = bySetting(rows);
  const scores: Array<{ t: number; score: number }> = [];
  for (let t = 0; t <= 0.9; t = round(t + 0.01, 2)) {
    let score = 0;
    for (const list of groups.values()) {
      let s = 0;
      for (const r of list) {
        const given = r.value !== null && r.features !== null && p(r) >= t;
        s += given ? (r.q.answerable ? r.f1 : 0) : r.q.answerable ? 0 : 1;
      }
      score += s / list.length;
    }
    const mean = score / Math.max(1, groups.size);
    scores.push({ t, score: mean });
    curve?.(t, mean);
  }
  const best = scores.reduce((a, b) => (b.score > a.score + 1e-9 ? b : a));
  const smallest = Math.min(...[...groups.values()].map((g) => g.length));
  const tolerance = 1 / smallest / Math.max(1, groups.size);
  const chosen = scores.filter((s) => s.score >= best.score - tolerance - 1e-12).reduce((a, b) => (b.t > a.t ? b : a));
  return { ...chosen, best, tolerance };
}

/** The lowest probability above which at least HIGH_PRECISION of the tune answers are right (MIN_HIGH answers at least). */
export function highThreshold(rows: Row[], p: (r: Row) => number, floor: number): number {
  const ranked = rows.filter((r) => r.features !== null && p(r) >= floor).sort((a, b) => p(b) - p(a));
  let right = 0;
  let chosen = 1;
  ranked.forEach((r, i) => {
    right += r.right ? 1 : 0;
    if (i + 1 >= MIN_HIGH && right / (i + 1) >= HIGH_PRECISION) chosen = p(r);
  });
  return round(Math.max(chosen, floor), 4);
}
