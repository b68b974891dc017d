// train:reader's answer threshold (bench/reader-fit.ts): chosen on the tune rows' SQuAD 2.0-style
// score, the highest threshold within one question of the smallest (set, setting) group of the
// best, so a flat best does not move the threshold a step when one question changes.
import { answerThreshold } from '../../../bench/reader-fit';
import type { Row } from '../../../bench/reader-rows';

/** A tune row: a value of probability `p` scoring `f1`, or a question written to have no answer. */
const row = (set: string, p: number, f1: number, answerable = true): Row & { p: number } =>
  ({
    set,
    setting: 'given',
    q: { answerable } as Row['q'],
    graded: null,
    value: 'a value',
    features: [p],
    f1,
    right: f1 >= 0.8,
    p,
  }) as Row & { p: number };

const probability = (r: Row) => (r as Row & { p: number }).p;

describe('answerThreshold', () => {
  it('takes the highest threshold that loses at most one question of the smallest group against the best', () => {
    // One group of ten (a question is 0.1 of its score): six right values from 0.505 up, four
    // values given to questions with no answer from 0.105 to 0.255.
    const rows = [
      ...Array.from({ length: 6 }, (_, i) => row('a', 0.505 + i * 0.05, 1)),
      ...Array.from({ length: 4 }, (_, i) => row('a', 0.105 + i * 0.05, 0, false)),
    ];
    const chosen = answerThreshold(rows, probability);
    // Every wrong value withheld, every right one given: 0.26 to 0.50 score 1.
    expect(chosen.best).toEqual({ t: 0.26, score: 1 });
    expect(chosen.tolerance).toBeCloseTo(0.1, 9);
    // 0.51 to 0.55 withhold one right value (0.9); 0.56 two (0.8).
    expect(chosen.t).toBe(0.55);
    expect(chosen.score).toBeCloseTo(0.9, 9);
  });

  it('on a flat score, the highest threshold within one question of the smallest group, not the best alone', () => {
    // Two groups of 20 (one question is 1/40 of the mean). Group a has a right value at 0.405;
    // both have a value given to a question with no answer at 0.305.
    const right = (set: string, n: number) => Array.from({ length: n }, (_, i) => row(set, 0.605 + i * 0.01, 1));
    const rows = [
      ...right('a', 18),
      row('a', 0.405, 1),
      row('a', 0.305, 0, false),
      ...right('b', 19),
      row('b', 0.305, 0, false),
    ];
    const curve: Array<[number, number]> = [];
    const chosen = answerThreshold(rows, probability, (t, score) => curve.push([t, score]));
    expect(curve).toHaveLength(91);
    expect(chosen.tolerance).toBeCloseTo(1 / 40, 9);
    // 0.31 to 0.40: both wrong values withheld, every right one given.
    expect(chosen.best).toEqual({ t: 0.31, score: 1 });
    // 0.41 to 0.60 lose the right value at 0.405 (one question of a group): still taken; 0.61 loses two.
    expect(chosen.t).toBe(0.6);
    expect(chosen.score).toBeCloseTo(0.975, 9);
    for (const [t, score] of curve) if (t > chosen.t) expect(score).toBeLessThan(chosen.best.score - chosen.tolerance);
  });
});
