/**
 * `npm run train:reader`: fits the reader's two models on the tune parts and writes their weights
 * where the engine loads them:
 *  1. the candidate weights (libs/language/src/research/question/candidate-weights.json): a
 *     conditional logit over each tune question's candidates (train-candidates.ts); kept only when
 *     the reader's tune answers then score better (mean F1 over sets and settings) than with the
 *     hand-set weights, else the hand-set ones are written back, and the file says which and why;
 *  2. the answer model (libs/language/src/research/answer/reader-weights.json), on the values the
 *     rules give with the candidate weights kept.
 *
 * Data: the real-text sets under REALTEXT_DATA (default ../shared/data): HotpotQA, SQuAD (Super
 * Bowl) and SQuAD 2.0, each question read in process as bench:reader reads it, over the pages its
 * data set gives it and over FTS5's top pages (reading.ts). Each value the candidate rules give
 * (gradeRules, before any judging) is a row: its named features (features.ts), labelled right when
 * its token F1 against the gold is >= 0.8 (a value for a question written to have no answer is
 * wrong). Only the tune parts are learned from (first byte of sha256(question id) < 128, the split
 * every real-text bench uses); the measure parts are only scored.
 *
 * Learner: logistic regression (ml-logistic-regression, mljs: full-batch gradient ascent from zero
 * weights, so the same rows give the same weights), on features standardised by the tune rows'
 * mean and deviation, with a constant column for the bias. Its probability is the confidence.
 * Thresholds, on the tune parts only: `answer`, below which the value is withheld, maximises the
 * mean over data sets and settings of the SQuAD 2.0 score (a null right where there is no answer);
 * `high` is the lowest probability above which at least 90% of tune answers are right (the
 * target is 85%, the margin is for text not tuned on). The calibration table shows the tune part
 * out of fold (5 folds by question id): a model's probabilities on its own rows are too sure.
 *
 * Rerun: npm run train:reader   (the same data and code give a byte-identical file;
 *        npm run train:reader -- --check retrains and only compares with the committed file)
 * Output: the tune and measure figures of every set and setting, a calibration table, and the
 * weights file.
 */
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import learnerPackage from 'ml-logistic-regression/package.json';
import { FEATURE_NAMES } from '../libs/language/src/research/answer/features';
import { loadWeights, probabilityOf, type ReaderWeights } from '../libs/language/src/research/answer/answer-model';
import {
  ALL_CANDIDATE_FEATURES,
  HAND_SET,
  loadCandidateWeights,
  useCandidateWeights,
} from '../libs/language/src/research/question/candidate-model';
import { ROOT, runMain } from './bench-util';
import { answerThreshold, bySetting, figures, fitModel, highThreshold, judgeRows, round, STEPS } from './reader-fit';
import { RIGHT_F1, type Row, rowsOf } from './reader-rows';
import { candidateGroups, fitCandidates } from './train-candidates';
import { DATA, fts5 } from './realtext.bench';
import { loadSets, scoreValue, SETTINGS, SEARCH_PAGES, BRIDGE_PAGES } from './reading';

/** Folds of the tune rows for the out-of-fold probabilities the thresholds are set on. */
const FOLDS = 5;
const WEIGHTS_FILE = path.join(ROOT, 'libs', 'language', 'src', 'research', 'answer', 'reader-weights.json');
const CANDIDATE_FILE = path.join(ROOT, 'libs', 'language', 'src', 'research', 'question', 'candidate-weights.json');
const HAND_WEIGHTS = HAND_SET;

async function main(): Promise<void> {
  const sets = loadSets();
  if (sets.length === 0) {
    process.stdout.write(
      `train:reader: no data under ${DATA}: set REALTEXT_DATA to the folder that holds hotpotqa-dev/, squad-superbowl/ and squad2-dev/. Nothing trained.\n`,
    );
    return;
  }
  const began = performance.now();
  const indexes = sets.map((set) => fts5(set.pages, Math.max(...Object.values(SEARCH_PAGES), BRIDGE_PAGES)));
  const searchOf = (i: number) => (text: string, limit: number) => indexes[i]!.search(text).slice(0, limit);
  // 1. The candidate weights: fitted on each tune question's candidates over its first pages.
  const groups = sets.flatMap((set, i) =>
    SETTINGS.flatMap((setting) =>
      candidateGroups(set, setting, (qi) => {
        const q = set.questions[qi]!;
        const ids = setting === 'given' ? q.context : searchOf(i)(q.question, SEARCH_PAGES[set.name] ?? 8);
        return ids.map((id, n) => ({
          source: n + 1,
          url: set.pages[id]!.url,
          title: set.pages[id]!.title,
          text: set.pages[id]!.text,
        }));
      }),
    ),
  );
  const fittedCandidates = fitCandidates(groups);
  process.stderr.write(
    `[train:reader] candidate weights fitted on ${groups.length} tune questions at ${((performance.now() - began) / 1000).toFixed(0)} s\n`,
  );
  // 2. The reader read with each set of candidate weights; the one whose tune answers score
  // better (mean F1 over data sets and settings, before any judging) is kept.
  const readAll = (label: string): Row[] => {
    const out: Row[] = [];
    sets.forEach((set, i) => {
      for (const setting of SETTINGS) out.push(...rowsOf(set, setting, searchOf(i)));
      process.stderr.write(
        `[train:reader] ${label}: ${set.name} read at ${((performance.now() - began) / 1000).toFixed(0)} s\n`,
      );
    });
    return out;
  };
  const tuneF1 = (list: Row[]) => {
    const groupsOf = bySetting(list.filter((r) => r.q.part === 'tune'));
    return (
      [...groupsOf.values()].reduce(
        (a, g) => a + g.reduce((s, r) => s + scoreValue(r.q, r.value).f1, 0) / g.length,
        0,
      ) / Math.max(1, groupsOf.size)
    );
  };
  useCandidateWeights(HAND_WEIGHTS);
  const handRows = readAll('hand-set candidate weights');
  useCandidateWeights(fittedCandidates.weights);
  const fittedRows = readAll('fitted candidate weights');
  const handF1 = tuneF1(handRows);
  const fittedF1 = tuneF1(fittedRows);
  const keepFitted = fittedF1 > handF1;
  const rows = keepFitted ? fittedRows : handRows;
  useCandidateWeights(keepFitted ? fittedCandidates.weights : HAND_WEIGHTS);
  const candidateFile = {
    version: 1,
    source: keepFitted
      ? `fitted by train:reader (conditional logit on ${groups.length} tune questions' candidates); tune mean F1 before judging ${fittedF1.toFixed(4)}, hand-set ${handF1.toFixed(4)}`
      : `hand-set: every factor as the rules wrote it (weight 1 each, the learned-only features 0); the fitted weights scored tune mean F1 ${fittedF1.toFixed(4)}, not above the hand-set ${handF1.toFixed(4)}`,
    features: [...ALL_CANDIDATE_FEATURES],
    weights: ALL_CANDIDATE_FEATURES.map((f) => (keepFitted ? fittedCandidates.weights[f] : HAND_SET[f])),
  };
  for (const index of indexes) index.close();
  const learn = rows.filter((r) => r.q.part === 'tune' && r.features !== null);
  // TRAIN_READER_DUMP=<file>: the tune rows as JSON lines, to study the features (never the measure rows).
  if (process.env.TRAIN_READER_DUMP)
    fs.writeFileSync(
      process.env.TRAIN_READER_DUMP,
      learn
        .map((r) =>
          JSON.stringify({
            set: r.set,
            setting: r.setting,
            question: r.q.question,
            value: r.value,
            quote: r.graded?.finding.evidence[0]?.quote ?? null,
            answerable: r.q.answerable,
            right: r.right,
            f1: r.f1,
            features: Object.fromEntries(FEATURE_NAMES.map((f, i) => [f, r.features![i]])),
          }),
        )
        .join('\n') + '\n',
    );
  const fitted = fitModel(learn);
  const draft: ReaderWeights = {
    version: 1,
    learner: '',
    features: [...FEATURE_NAMES],
    ...fitted,
    thresholds: { answer: 0, high: 1 },
    trained: {},
  };
  const vector = (r: Row) => Object.fromEntries(FEATURE_NAMES.map((f, i) => [f, r.features![i]!])) as never;
  const probability = new Map(rows.filter((r) => r.features).map((r) => [r, probabilityOf(vector(r), draft)]));
  // Out-of-fold probabilities: each tune row judged by a model fitted without its fold (folds by
  // question id, so a question's given and searched reads stay together), as text not learned from
  // would be. The calibration table shows them. (Setting the thresholds on them instead answered
  // more: the answer threshold fell to 0.08 and SQuAD 2.0's tune F1 from 0.346 to 0.296, so the
  // thresholds stay on the model's own probabilities.)
  const foldOf = (r: Row) => createHash('sha256').update(`fold:${r.q.id}`).digest()[0]! % FOLDS;
  const outOfFold = new Map<Row, number>();
  for (let k = 0; k < FOLDS; k++) {
    const part = fitModel(learn.filter((r) => foldOf(r) !== k));
    const model: ReaderWeights = { ...draft, ...part };
    for (const r of learn) if (foldOf(r) === k) outOfFold.set(r, probabilityOf(vector(r), model));
  }
  const p = (r: Row) => probability.get(r) ?? 0;
  const oof = (r: Row) => outOfFold.get(r) ?? 0;
  const tuneRows = rows.filter((r) => r.q.part === 'tune');
  const withhold = answerThreshold(tuneRows, p, (t, score) =>
    process.stderr.write(`[train:reader] answer threshold ${t.toFixed(2)}: tune score ${score.toFixed(4)}\n`),
  );
  const answer = withhold.t;
  const high = highThreshold(tuneRows, p, answer);
  const weights: ReaderWeights = {
    version: 1,
    learner: `logistic regression (ml-logistic-regression ${learnerPackage.version}), ${STEPS} full-batch steps from zero, features standardised`,
    features: [...FEATURE_NAMES],
    ...fitted,
    thresholds: { answer, high },
    trained: {
      data: sets.map((s) => s.name),
      settings: SETTINGS,
      split: 'tune = first byte of sha256(question id) < 128; only tune rows are learned from',
      label: `token F1 >= ${RIGHT_F1} against the gold (a value for a question with no answer is wrong)`,
      rows: learn.length,
      right: learn.filter((r) => r.right).length,
    },
  };
  loadWeights(weights);
  loadCandidateWeights(candidateFile);
  const text = JSON.stringify(weights, null, 2) + '\n';
  const candidateText = JSON.stringify(candidateFile, null, 2) + '\n';
  const candidateSame = fs.existsSync(CANDIDATE_FILE) && fs.readFileSync(CANDIDATE_FILE, 'utf8') === candidateText;
  if (!process.argv.includes('--check')) fs.writeFileSync(CANDIDATE_FILE, candidateText);
  // --check: retrain and compare with the committed file, writing nothing (the same inputs must give the same file).
  const check = process.argv.includes('--check');
  const same = fs.existsSync(WEIGHTS_FILE) && fs.readFileSync(WEIGHTS_FILE, 'utf8') === text && candidateSame;
  if (!check) fs.writeFileSync(WEIGHTS_FILE, text);

  const out: string[] = [
    `train:reader — data ${DATA}; ${learn.length} tune rows (${weights.trained.right} right) of ${rows.length} reads; ${((performance.now() - began) / 1000).toFixed(0)} s`,
    `candidate weights: ${candidateFile.source}; fitted: ${ALL_CANDIDATE_FEATURES.map((f) => `${f} ${fittedCandidates.weights[f]}`).join(', ')}; top candidate right on ${(100 * fittedCandidates.topRight.fitted).toFixed(1)}% of the learned questions (hand-set ${(100 * fittedCandidates.topRight.hand).toFixed(1)}%)`,
    `thresholds: answer ${answer}, high ${high} (answer: the highest threshold whose tune score ${withhold.score.toFixed(4)} is within ${withhold.tolerance.toFixed(4)}, one question of the smallest group, of the best ${withhold.best.score.toFixed(4)} at ${withhold.best.t})`,
    '',
    'weights (per standard deviation of the feature):',
    ...FEATURE_NAMES.map(
      (f, i) => `  ${f.padEnd(20)} ${fitted.weights[i]! >= 0 ? ' ' : ''}${fitted.weights[i]!.toFixed(3)}`,
    ),
    `  ${'bias'.padEnd(20)} ${fitted.bias.toFixed(3)}`,
    '',
    `${'set, setting, part'.padEnd(26)} ${'n'.padStart(4)}  EM     F1     given  high (right)   ans.F1  ans.high  unans.null  unans.high`,
  ];
  const judgedAll = judgeRows(rows, weights);
  const fmt = (x: number) => x.toFixed(3);
  for (const set of sets)
    for (const setting of SETTINGS)
      for (const part of ['tune', 'measure'] as const) {
        const t = figures(
          judgedAll.filter((j) => j.r.set === set.name && j.r.setting === setting && j.r.q.part === part),
        );
        out.push(
          `${`${set.name}, ${setting}, ${part}`.padEnd(26)} ${String(t.n).padStart(4)}  ${fmt(t.em)}  ${fmt(t.f1)}  ${String(t.answered).padStart(5)}  ${`${t.high} (${t.high_right})`.padStart(11)}   ${fmt(t.answerable_f1)}   ${fmt(t.answerable_high_share)}` +
            (t.unanswerable ? `       ${fmt(t.unanswerable_null)}       ${fmt(t.unanswerable_high)}` : ''),
        );
      }
  out.push(
    '',
    'calibration (answers judged, all sets and settings): probability bin, tune (out of fold) predicted / right (n), measure predicted / right (n)',
  );
  for (let lo = 0; lo < 1; lo = round(lo + 0.2, 1)) {
    // The tune part judged out of fold (as the thresholds were set), the measure part by the model written.
    const cell = (part: string) => {
      const q = part === 'tune' ? oof : p;
      const inBin = rows.filter((r) => r.q.part === part && r.features && q(r) >= lo && (q(r) < lo + 0.2 || lo >= 0.8));
      const mean = inBin.length ? inBin.reduce((a, r) => a + q(r), 0) / inBin.length : 0;
      return `${fmt(mean)} / ${fmt(inBin.length ? inBin.filter((r) => r.right).length / inBin.length : 0)} (${inBin.length})`;
    };
    out.push(`  ${lo.toFixed(1)}-${(lo + 0.2).toFixed(1)}   ${cell('tune').padEnd(24)} ${cell('measure')}`);
  }
  out.push(
    '',
    check
      ? `--check: the weights trained ${same ? 'are byte for byte' : 'DIFFER from'} the committed ${path.relative(process.cwd(), WEIGHTS_FILE)} and ${path.relative(process.cwd(), CANDIDATE_FILE)}`
      : `written: ${path.relative(process.cwd(), WEIGHTS_FILE)}, ${path.relative(process.cwd(), CANDIDATE_FILE)}${same ? ' (unchanged)' : ''}`,
  );
  process.stdout.write(out.join('\n') + '\n');
  if (check && !same) process.exitCode = 1;
}

if (require.main === module) runMain(main);
