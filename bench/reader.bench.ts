/**
 * `npm run bench:reader`: the extractive reader alone (no service, no HTTP), on the same real text
 * as `bench:realtext` (REALTEXT_DATA, default `../shared/data`), to tell reading from search:
 *  - given: each question read over the pages its data set gives it: HotpotQA's ten paragraphs
 *    (its two gold ones and eight distractors, the "distractor" setting), SQuAD's own paragraph
 *    (the reading-comprehension setting). Search cannot be at fault here.
 *  - search: over SQLite FTS5's top pages for the question (the `bench:realtext` peer: title and
 *    text, porter unicode61, the question's words joined with OR, bm25), HotpotQA's top 8 and one
 *    bridge name followed (its top 3, graded again as the service's research does), SQuAD's top 6.
 *    It tracks the service's task answers closely; `bench:realtext` gives those through the API.
 * Each question: gradeExtractive, then promptAnswer, the task path's own functions; scored with
 * HotpotQA's normalisation (exact match, token F1; right: F1 >= 0.8), the share answered `high`
 * and how many of those are right, and how many got no value (null). SQuAD 2.0 (`squad2`) scores
 * a null right on a question written to have no answer (see reading.ts's scoreValue); its lines
 * add the answerable questions' F1 and the share of unanswerable ones answered null and `high`.
 * The split is bench:realtext's (tune: first byte of sha256(id) < 128). Both parts are printed;
 * the tuned part also by the kind of answer asked (short-question.ts's reading of the question),
 * the measured part only as totals.
 * Rerun: npm run bench:reader   (REALTEXT_DATA=<folder> for another copy of the data)
 * Output: the table, and bench/results/reader.json (the same figures).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { gradeExtractive, promptAnswer } from '../libs/language/src/research/extractive.research-model';
import { analyseShortQuestion } from '../libs/language/src/research/question/short-question';
import { machine, runMain } from './bench-util';
import { DATA, type DataSet, fts5 } from './realtext.bench';
import { BRIDGE_PAGES, loadSets, readQuestion, scoreValue, SEARCH_PAGES, type Setting } from './reading';

interface Outcome {
  part: 'tune' | 'measure';
  kind: string;
  answerable: boolean;
  em: number;
  f1: number;
  high: boolean;
  none: boolean;
}

function measure(set: DataSet, setting: Setting, search: (text: string, limit: number) => number[]): Outcome[] {
  return set.questions.map((q) => {
    const graded = readQuestion(set, q, setting, search, gradeExtractive);
    const answer = promptAnswer(
      q.question,
      graded.map((g) => g.finding),
    );
    const value = answer?.value ?? null;
    return {
      part: q.part,
      kind: analyseShortQuestion(q.question)?.kind ?? 'other',
      answerable: q.answerable,
      ...scoreValue(q, value),
      high: answer?.confidence === 'high',
      none: value === null,
    };
  });
}

const fmt = (x: number) => x.toFixed(3);

function totals(outcomes: Outcome[]) {
  const n = outcomes.length;
  const high = outcomes.filter((o) => o.high);
  const sum = (list: Outcome[], pick: (o: Outcome) => number) => list.reduce((s, o) => s + pick(o), 0);
  const answerable = outcomes.filter((o) => o.answerable);
  const unanswerable = outcomes.filter((o) => !o.answerable);
  return {
    n,
    em: n ? sum(outcomes, (o) => o.em) / n : 0,
    f1: n ? sum(outcomes, (o) => o.f1) / n : 0,
    high: high.length,
    high_share: n ? high.length / n : 0,
    high_right: high.filter((o) => o.answerable && o.f1 >= 0.8).length,
    none: outcomes.filter((o) => o.none).length,
    answerable: answerable.length,
    answerable_f1: answerable.length ? sum(answerable, (o) => o.f1) / answerable.length : 0,
    answerable_high_share: answerable.length ? answerable.filter((o) => o.high).length / answerable.length : 0,
    unanswerable: unanswerable.length,
    unanswerable_null: unanswerable.length ? unanswerable.filter((o) => o.none).length / unanswerable.length : 0,
    unanswerable_high: unanswerable.length ? unanswerable.filter((o) => o.high).length / unanswerable.length : 0,
  };
}

const line = (label: string, t: ReturnType<typeof totals>) =>
  `${label.padEnd(22)} ${String(t.n).padStart(4)}  ${fmt(t.em)}  ${fmt(t.f1)}  ${`${t.high} (${t.high_share.toFixed(2)})`.padStart(10)}  ${String(t.high_right).padStart(5)}  ${String(t.none).padStart(4)}` +
  (t.unanswerable
    ? `  ${fmt(t.answerable_f1).padStart(7)}  ${fmt(t.unanswerable_null).padStart(8)}  ${fmt(t.unanswerable_high).padStart(8)}`
    : '');

async function main(): Promise<void> {
  const sets = loadSets();
  if (sets.length === 0) {
    process.stdout.write(
      `reader: no data under ${DATA}: set REALTEXT_DATA to the folder that holds hotpotqa-dev/ and squad-superbowl/. Nothing measured.\n`,
    );
    return;
  }
  const m = machine();
  const out = [
    `reader — ${new Date().toISOString()}`,
    `machine: ${m.cpus} cores (${m.cpu_model}), ${m.memory_gib} GiB, node ${m.node}, ${m.platform}`,
    `data: ${DATA}; the extractive reader of this checkout, called in process (gradeExtractive, promptAnswer)`,
    `split: tune = first byte of sha256(question id) < 128, measure = the rest`,
    'rerun: npm run bench:reader',
  ];
  const json: Record<string, unknown> = {};
  for (const set of sets) {
    const index = fts5(set.pages, Math.max(...Object.values(SEARCH_PAGES), BRIDGE_PAGES));
    const search = (text: string, limit: number) => index.search(text).slice(0, limit);
    for (const setting of ['given', 'search'] as const) {
      const began = performance.now();
      const outcomes = measure(set, setting, search);
      const seconds = (performance.now() - began) / 1000;
      const what =
        setting === 'given'
          ? set.name === 'hotpotqa'
            ? "the question's ten paragraphs (two gold, eight distractors)"
            : set.name === 'fixture'
              ? "the question's gold pages"
              : "the question's own paragraph"
          : `FTS5's top ${SEARCH_PAGES[set.name]}${set.name === 'hotpotqa' || set.name === 'fixture' ? `, one bridge name followed (its top ${BRIDGE_PAGES})` : ''}`;
      const tune = outcomes.filter((o) => o.part === 'tune');
      const kinds = [...new Set(tune.map((o) => o.kind))].sort();
      out.push(
        '',
        `## ${set.name}, ${setting}: ${what}; ${seconds.toFixed(1)} s`,
        '',
        `${'part'.padEnd(22)} ${'n'.padStart(4)}  ${'EM'.padEnd(5)}  ${'F1'.padEnd(5)}  ${'high'.padStart(10)}  right  null${set.questions.some((q) => !q.answerable) ? '  ans. F1  unans. null  unans. high' : ''}`,
        line('tune', totals(tune)),
        line('measure', totals(outcomes.filter((o) => o.part === 'measure'))),
        line('all', totals(outcomes)),
        ...kinds.map((k) => line(`  tune, ${k}`, totals(tune.filter((o) => o.kind === k)))),
      );
      json[`${set.name}.${setting}`] = {
        pages: what,
        seconds,
        tune: totals(tune),
        measure: totals(outcomes.filter((o) => o.part === 'measure')),
        all: totals(outcomes),
        tune_by_kind: Object.fromEntries(kinds.map((k) => [k, totals(tune.filter((o) => o.kind === k))])),
      };
    }
    index.close();
  }
  process.stdout.write(out.join('\n') + '\n');
  const dir = path.resolve(__dirname, '..', '..', 'bench', 'results');
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(
    path.join(dir, 'reader.json'),
    JSON.stringify({ name: 'reader', at: new Date().toISOString(), machine: m, data: DATA, figures: json }, null, 2) +
      '\n',
  );
  fs.writeFileSync(path.join(dir, 'reader.md'), out.join('\n') + '\n');
  process.stdout.write('\nwritten: bench/results/reader.json, bench/results/reader.md\n');
}

if (require.main === module) runMain(main);
