/**
 * The rows train:reader learns from: each question of a real-text set as the candidate rules
 * answered it (before any judging), with the named features of that value and how it scores
 * against the gold.
 */
import { gradeRules, promptAnswer } from '../libs/language/src/research/extractive.research-model';
import { answerFeatures, FEATURE_NAMES, wrongKind } from '../libs/language/src/research/answer/features';
import { analyse } from '../libs/language/src/research/question/analysis';
import type { DataSet, Question } from './realtext.bench';
import { type Graded, readQuestion, scoreValue, type Setting } from './reading';

/** A value whose token F1 against the gold reaches this counts as right. */
export const RIGHT_F1 = 0.8;

/** One question as the rules answered it: its value (or none), the features of that value, and how it scores. */
export interface Row {
  set: string;
  setting: Setting;
  q: Question;
  graded: Graded | null;
  value: string | null;
  features: number[] | null;
  /** The value as it scores (F1), and whether it counts as right. */
  f1: number;
  right: boolean;
}

export function rowsOf(set: DataSet, setting: Setting, search: (text: string, limit: number) => number[]): Row[] {
  return set.questions.map((q) => {
    const graded = readQuestion(set, q, setting, search, gradeRules);
    // The finding the task's answer is read from: the last one for the question (a regrade after a bridge).
    const last = graded.findLast((g) => g.finding.evidence.length > 0) ?? null;
    const value = last ? (promptAnswer(q.question, [last.finding])?.value ?? null) : null;
    const question = analyse(q.question);
    const vetoed = value === null || !question.short || wrongKind(question.short.kind, value) !== null;
    const features =
      vetoed || !last
        ? null
        : answerFeatures({
            question,
            value: value!,
            rule: last.finding.confidence,
            evidence: last.finding.evidence,
            passages: last.passages,
          });
    const { f1 } = scoreValue(q, value);
    return {
      set: set.name,
      setting,
      q,
      graded: last,
      value,
      features: features ? FEATURE_NAMES.map((f) => features[f]) : null,
      f1: value === null ? 0 : f1,
      right: value !== null && q.answerable && f1 >= RIGHT_F1,
    };
  });
}
