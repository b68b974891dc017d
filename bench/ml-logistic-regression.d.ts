/** The part of ml-logistic-regression (mljs, no types of its own) that train-reader.ts uses. */
declare module 'ml-logistic-regression' {
  import type { Matrix } from 'ml-matrix';
  export default class LogisticRegression {
    constructor(options?: { numSteps?: number; learningRate?: number });
    classifiers: Array<{ weights: Matrix; testScores(features: Matrix): number[] }>;
    train(features: Matrix, target: Matrix): void;
  }
}
