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
 * and how many of those are right, and how many got no value (null).
 * The split is bench:realtext's (tune: first byte of sha256(id) < 128). Both parts are printed;
 * the tuned part also by the kind of answer asked (short-question.ts's reading of the question),
 * the measured part only as totals.
 * Rerun: npm run bench:reader   (REALTEXT_DATA=<folder> for another copy of the data)
 * Output: the table, and bench/results/reader.json (the same figures).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { MAX_PASSAGES, type ResearchPassage } from '@app/research';
import type { Finding } from '@app/domain';
import { extractiveFollowUps, gradeExtractive, type PromptAnswer, promptAnswer } from '../libs/language/src/research/extractive.research-model';
import { analyseShortQuestion } from '../libs/language/src/research/question/short-question';
import { machine, runMain } from './bench-util';
import { DATA, type DataSet, exactMatch, f1, fts5, loadHotpot, loadSquad, type Question } from './realtext.bench';

type Setting = 'given' | 'search';
interface Outcome {
  part: Question['part'];
  kind: string;
  em: number;
  f1: number;
  high: boolean;
  none: boolean;
}

/** Pages read per question in the search setting, and a bridge name's pages. */
const SEARCH_PAGES: Record<string, number> = { hotpotqa: 8, squad: 6 };
const BRIDGE_PAGES = 3;

function passage(set: DataSet, id: number, source: number): ResearchPassage {
  const page = set.pages[id]!;
  return { source, url: page.url, title: page.title, text: page.text };
}

const words = (text: string) => new Set((text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).filter((w) => w.length > 1));

/** One question read: its first finding, then (searching HotpotQA) a bridge name's pages read and the question graded again over them. */
function read(set: DataSet, q: Question, setting: Setting, search: (text: string, limit: number) => number[]): PromptAnswer | null {
  const ids = setting === 'given' ? q.context : search(q.question, SEARCH_PAGES[set.name] ?? 8);
  const passages = ids.map((id, i) => passage(set, id, i + 1));
  const findings: Finding[] = [];
  const first = gradeExtractive(q.question, passages);
  if (first) findings.push(first);
  if (setting === 'search' && set.name === 'hotpotqa') {
    const follow = extractiveFollowUps(q.question, passages, 1);
    const have = new Set(ids);
    const bridged = new Set<number>();
    for (const f of follow)
      for (const id of search(f.subquery, BRIDGE_PAGES)) {
        if (have.has(id)) continue;
        have.add(id);
        const p = passage(set, id, passages.length + 1);
        passages.push(p);
        bridged.add(p.source);
      }
    if (bridged.size > 0) {
      // The pipeline's regrade: the bridge's pages and the sentences that named them first, then
      // the pages sharing most of the question's words; accepted only when it rests on a bridge's page.
      const kept = new Set([...bridged, ...follow.flatMap((f) => (f.via ? [f.via.source] : []))]);
      const terms = words(q.question);
      const shared = (p: ResearchPassage) => [...words(`${p.title} ${p.text}`)].filter((w) => terms.has(w)).length;
      const over = [...passages]
        .sort((a, b) => Number(kept.has(b.source)) - Number(kept.has(a.source)) || shared(b) - shared(a) || a.source - b.source)
        .slice(0, MAX_PASSAGES)
        .sort((a, b) => a.source - b.source);
      const again = gradeExtractive(q.question, over);
      if (again && bridged.has(again.evidence[0]!.source)) findings.push(again);
    }
  }
  return promptAnswer(q.question, findings);
}

function measure(set: DataSet, setting: Setting, search: (text: string, limit: number) => number[]): Outcome[] {
  return set.questions.map((q) => {
    const answer = read(set, q, setting, search);
    const value = answer?.value ?? '';
    const scoreF1 = answer ? Math.max(...q.answers.map((g) => f1(value, g))) : 0;
    return {
      part: q.part,
      kind: analyseShortQuestion(q.question)?.kind ?? 'other',
      em: answer ? Math.max(...q.answers.map((g) => exactMatch(value, g))) : 0,
      f1: scoreF1,
      high: answer?.confidence === 'high',
      none: answer === null,
    };
  });
}

const fmt = (x: number) => x.toFixed(3);

function totals(outcomes: Outcome[]) {
  const n = outcomes.length;
  const high = outcomes.filter((o) => o.high);
  const sum = (pick: (o: Outcome) => number) => outcomes.reduce((s, o) => s + pick(o), 0);
  return {
    n,
    em: n ? sum((o) => o.em) / n : 0,
    f1: n ? sum((o) => o.f1) / n : 0,
    high: high.length,
    high_share: n ? high.length / n : 0,
    high_right: high.filter((o) => o.f1 >= 0.8).length,
    none: outcomes.filter((o) => o.none).length,
  };
}

const line = (label: string, t: ReturnType<typeof totals>) =>
  `${label.padEnd(22)} ${String(t.n).padStart(4)}  ${fmt(t.em)}  ${fmt(t.f1)}  ${`${t.high} (${t.high_share.toFixed(2)})`.padStart(10)}  ${String(t.high_right).padStart(5)}  ${String(t.none).padStart(4)}`;

async function main(): Promise<void> {
  const sets: DataSet[] = [];
  for (const [dir, load] of [
    ['hotpotqa-dev', loadHotpot],
    ['squad-superbowl', loadSquad],
  ] as const) {
    const folder = path.join(DATA, dir);
    if (fs.existsSync(path.join(folder, 'questions.jsonl'))) sets.push(load(folder));
    else process.stderr.write(`[reader] no ${folder}: left out\n`);
  }
  if (sets.length === 0) {
    process.stdout.write(`reader: no data under ${DATA}: set REALTEXT_DATA to the folder that holds hotpotqa-dev/ and squad-superbowl/. Nothing measured.\n`);
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
            : "the question's own paragraph"
          : `FTS5's top ${SEARCH_PAGES[set.name]}${set.name === 'hotpotqa' ? `, one bridge name followed (its top ${BRIDGE_PAGES})` : ''}`;
      const tune = outcomes.filter((o) => o.part === 'tune');
      const kinds = [...new Set(tune.map((o) => o.kind))].sort();
      out.push(
        '',
        `## ${set.name}, ${setting}: ${what}; ${seconds.toFixed(1)} s`,
        '',
        `${'part'.padEnd(22)} ${'n'.padStart(4)}  ${'EM'.padEnd(5)}  ${'F1'.padEnd(5)}  ${'high'.padStart(10)}  right  null`,
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
  fs.writeFileSync(path.join(dir, 'reader.json'), JSON.stringify({ name: 'reader', at: new Date().toISOString(), machine: m, data: DATA, figures: json }, null, 2) + '\n');
  fs.writeFileSync(path.join(dir, 'reader.md'), out.join('\n') + '\n');
  process.stdout.write('\nwritten: bench/results/reader.json, bench/results/reader.md\n');
}

if (require.main === module) runMain(main);
