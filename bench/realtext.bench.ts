/**
 * `npm run bench:realtext`: search and answers on real text written outside this project, read
 * from REALTEXT_DATA (default `../shared/data` beside the repository; see its README): the 100
 * "hard" HotpotQA dev questions over their 989 Wikipedia paragraphs, and SQuAD v1.1's "Super Bowl
 * 50" article (54 paragraphs, 810 questions). Nothing of the data is copied into the project: when
 * the folder is absent the bench says so and exits 0.
 *
 * Each data set's paragraphs become the pages of a local index (LOCAL_INDEX_DIR, a temp folder;
 * one HTML page a paragraph, its `<title>` the paragraph's title and its canonical address
 * `https://en.wikipedia.org/wiki/<Title_with_underscores>`; SQuAD's paragraphs share one title, so
 * each gets `?paragraph=<index>` after it: the index drops a `#fragment` but keeps a query). One
 * service per data set (standalone, extractive engine, embedded defaults), asked through the
 * public HTTP API, 4 calls at a time:
 *  - search recall@10 (POST /v1/search, default depth, `queries: [question]`, limit 10): every
 *    gold page in the top 10, any gold page in the top 10; beside two peers on the same pages in
 *    the same run: SQLite FTS5 (better-sqlite3; table (title, text), tokenize 'porter unicode61',
 *    the question's words longer than one character, each quoted, joined with OR, ranked by
 *    bm25()) and MiniSearch with its defaults over title and text (the question as the query).
 *    Gold pages: HotpotQA's `supporting` titles; SQuAD: the question's paragraph.
 *  - task answers (POST /v1/tasks, processor base, wait_seconds 120, output_schema one string
 *    field `answer`): exact match and token F1 with HotpotQA's normalisation (lower case, ASCII
 *    punctuation and the articles a/an/the removed, whitespace collapsed; a yes/no answer that
 *    differs from the gold one scores 0); SQuAD: the best over its gold answers. Also the share
 *    of answers whose basis entry for `answer` says confidence `high`, and how many of those are
 *    right (token F1 >= 0.8).
 *  - deep runs (POST /v1/search depth deep, polled): the report's first paragraph "contains the
 *    gold" (the normalised gold as whole words inside the normalised paragraph, citation markers
 *    removed) and token F1 against that paragraph's first sentence; HotpotQA: both gold pages
 *    among the run's `sources`.
 *  - chat (POST /v1/chat/completions, model base, not streamed): "contains the gold" on the whole
 *    reply before its `## Sources` list (page titles there would count as answers), token F1 against the first sentence of its first paragraph of prose (the `# heading`
 *    it opens with skipped). The service answers 201 here (API.md says 200): both are taken.
 *  - p50 wall time of each kind of call.
 * The split, fixed once: a question is in the TUNE part when the first byte of sha256(question id)
 * is below 128, else in the MEASURE part (about half and half). Tune on the tune part; quote the
 * measure part. Both are printed apart, then all.
 * Samples: every question of both sets for every kind of call (the whole run takes about two
 * minutes on 2 cores). REALTEXT_SQUAD_TASK_EVERY=<n> / REALTEXT_SQUAD_DEEP_EVERY=<n> ask SQuAD's
 * tasks / deep runs and chat on every nth question by id order only (0 skips them).
 * Output: the table below with a few of the tune part's misses of each kind, bench/results/realtext.md
 * (the same) and bench/results/realtext.json (every figure, and the tune part's answers question by
 * question, texts cut to 160 characters). The measure part's answers are neither printed nor written:
 * it stays unseen.
 * Rerun: npm run bench:realtext   (REALTEXT_DATA=<folder> for another copy of the data;
 *        REALTEXT_LIMIT=<n> asks only each set's first n questions, a quick look;
 *        REALTEXT_TUNE_DUMP=<path> writes the tuned part's outcomes, question by question, to <path>.<set>.json;
 *        REALTEXT_ONLY=<text> asks only the tuned part's questions that contain <text>, to study one;
 *        REALTEXT_PROCESSOR=core|ultra asks the tasks on that processor instead of base;
 *        REALTEXT_SETS=hotpotqa or squad measures one set; any of these writes its results
 *        beside the default run's, as bench/results/realtext-<processor>-<sets>.*)
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { machine, percentile, ROOT, runMain } from './bench-util';
import { DATA, type DataSet, loadHotpot, loadSquad, type Part } from './realtext-data';
import { compact, figures, fmt, misses } from './realtext-figures';
import { measureSet } from './realtext-measure';
import { CONCURRENCY } from './realtext-service';

export { DATA, type DataSet, loadHotpot, loadSquad, type Page, partOf, type Question } from './realtext-data';
export { containsGold, exactMatch, f1, normalizeAnswer, scoreAnswer } from './realtext-scoring';
export { fts5, type Searcher } from './realtext-peers';

const PARTS: Array<Part | 'all'> = ['tune', 'measure', 'all'];
/** A quick look: only the first N questions of each set (by file order; the figures are then not the bench's). */
const LIMIT = Number(process.env.REALTEXT_LIMIT ?? 0);
const TUNE_DUMP = process.env.REALTEXT_TUNE_DUMP ?? '';
const ONLY = process.env.REALTEXT_ONLY ?? '';
/** The task processor asked (base by default: the figures quoted are base's). */
const PROCESSOR = process.env.REALTEXT_PROCESSOR ?? 'base';
if (!['base', 'core', 'ultra'].includes(PROCESSOR))
  throw new Error(`REALTEXT_PROCESSOR must be base, core or ultra, not ${JSON.stringify(PROCESSOR)}`);
/** Which data sets (hotpotqa, squad, squad2; all by default). */
const SETS = new Set((process.env.REALTEXT_SETS ?? 'hotpotqa,squad,squad2').split(',').map((s) => s.trim()));
/** Results of a non-default run go beside the default's, not over them. */
const RESULTS =
  PROCESSOR === 'base' && SETS.has('hotpotqa') && SETS.has('squad') && SETS.has('squad2') && LIMIT === 0
    ? 'realtext'
    : `realtext-${PROCESSOR}-${[...SETS].join('-')}${LIMIT ? `-${LIMIT}` : ''}`;

async function main(): Promise<void> {
  const hotpotDir = path.join(DATA, 'hotpotqa-dev');
  const squadDir = path.join(DATA, 'squad-superbowl');
  if (
    !fs.existsSync(path.join(hotpotDir, 'questions.jsonl')) &&
    !fs.existsSync(path.join(squadDir, 'questions.jsonl'))
  ) {
    process.stdout.write(
      `realtext: no data under ${DATA} (hotpotqa-dev/, squad-superbowl/): set REALTEXT_DATA to the folder that holds them. Nothing measured.\n`,
    );
    return;
  }
  const sets: DataSet[] = [];
  if (!SETS.has('hotpotqa')) process.stderr.write('[realtext] REALTEXT_SETS leaves HotpotQA out\n');
  else if (fs.existsSync(path.join(hotpotDir, 'questions.jsonl'))) sets.push(loadHotpot(hotpotDir));
  else process.stderr.write(`[realtext] no ${hotpotDir}: HotpotQA left out\n`);
  if (!SETS.has('squad')) process.stderr.write('[realtext] REALTEXT_SETS leaves SQuAD out\n');
  else if (fs.existsSync(path.join(squadDir, 'questions.jsonl'))) sets.push(loadSquad(squadDir));
  else process.stderr.write(`[realtext] no ${squadDir}: SQuAD left out\n`);
  const squad2Dir = path.join(DATA, 'squad2-dev');
  if (!SETS.has('squad2')) process.stderr.write('[realtext] REALTEXT_SETS leaves SQuAD 2.0 out\n');
  else if (fs.existsSync(path.join(squad2Dir, 'questions.jsonl'))) sets.push(loadSquad(squad2Dir, 'squad2'));
  else process.stderr.write(`[realtext] no ${squad2Dir}: SQuAD 2.0 left out\n`);

  const began = performance.now();
  const m = machine();
  const lines = [
    `realtext — ${new Date().toISOString()}`,
    `machine: ${m.cpus} cores (${m.cpu_model}), ${m.memory_gib} GiB, node ${m.node}, ${m.platform}`,
    `data: ${DATA}; build: this checkout (standalone, extractive engine, embedded defaults), ${CONCURRENCY} calls at a time; tasks on processor ${PROCESSOR}`,
    `split: tune = first byte of sha256(question id) < 128, measure = the rest`,
    `rerun: npm run bench:realtext`,
  ];
  const json: Record<string, unknown> = {};
  if (LIMIT > 0) {
    for (const set of sets) set.questions = set.questions.slice(0, LIMIT);
    lines.push(`REALTEXT_LIMIT=${LIMIT}: only the first ${LIMIT} questions of each set`);
  }
  if (ONLY) {
    // One question to study: of the tuned part only (the measured part is never looked at alone).
    for (const set of sets) set.questions = set.questions.filter((q) => q.part === 'tune' && q.question.includes(ONLY));
    lines.push(`REALTEXT_ONLY: only the tuned part's questions containing ${JSON.stringify(ONLY)}`);
  }
  for (const set of sets) {
    const { outcomes, times, unknownUrls, seconds } = await measureSet(set, PROCESSOR);
    // The tuned part's answers one by one, to study; the measured part is only ever counted.
    if (TUNE_DUMP)
      fs.writeFileSync(
        `${TUNE_DUMP}.${set.name}.json`,
        JSON.stringify(
          outcomes.filter((o) => o.part === 'tune'),
          null,
          1,
        ),
      );
    const columns = PARTS.map((part) => ({ part, rows: figures(outcomes, part) }));
    const count = (part: Part) => set.questions.filter((q) => q.part === part).length;
    const width = Math.max(...columns[0]!.rows.map((r) => r[0].length));
    lines.push(
      '',
      `## ${set.name}: ${set.pages.length} pages; ${set.samples}; tune ${count('tune')} / measure ${count('measure')} questions; ${seconds.toFixed(0)} s`,
      '',
      `${'metric'.padEnd(width)}  ${PARTS.map((p) => `${p} (value n)`.padStart(18)).join('  ')}`,
      `${'-'.repeat(width)}  ${PARTS.map(() => '-'.repeat(18)).join('  ')}`,
      ...columns[0]!.rows.map(
        (_, i) =>
          `${columns[0]!.rows[i]![0].padEnd(width)}  ${columns.map((c) => `${fmt(c.rows[i]![1])} ${c.rows[i]![2]}`.padStart(18)).join('  ')}`,
      ),
      '',
      `p50 per call (ms, all questions): ${Object.entries(times)
        .map(
          ([k, v]) =>
            `${k} ${fmt(
              percentile(
                [...v].sort((a, b) => a - b),
                50,
              ),
            )} (n ${v.length})`,
        )
        .join(', ')}`,
    );
    if (unknownUrls) lines.push(`note: ${unknownUrls} search results had an address that is none of the pages`);
    lines.push(...misses(outcomes));
    const errors = outcomes.flatMap((o) => o.errors.map((e) => `${o.id} ${e}`));
    if (errors.length) lines.push(`errors (${errors.length}): ${errors.slice(0, 5).join(' | ')}`);
    json[set.name] = {
      pages: set.pages.length,
      samples: set.samples,
      seconds,
      unknownUrls,
      columns: columns.map((c) => ({
        part: c.part,
        figures: Object.fromEntries(c.rows.map(([k, v, n]) => [k, { value: v, n }])),
      })),
      p50_ms: Object.fromEntries(
        Object.entries(times).map(([k, v]) => [
          k,
          percentile(
            [...v].sort((a, b) => a - b),
            50,
          ),
        ]),
      ),
      tune_outcomes: outcomes
        .filter((o) => o.part === 'tune')
        .map((o) => compact(o, set.questions.find((q) => q.id === o.id)!.gold)),
    };
  }
  const total = (performance.now() - began) / 1000;
  lines.push('', `run time: ${total.toFixed(0)} s`);
  const table = lines.join('\n') + '\n';
  process.stdout.write(table);
  const dir = path.join(ROOT, 'bench', 'results');
  fs.mkdirSync(dir, { recursive: true });
  // One line per tune question, so the file reads (and diffs) question by question.
  const onePerLine = (key: string, value: unknown) =>
    key === 'tune_outcomes' && Array.isArray(value)
      ? `\u0000[\n${value.map((o) => `      ${JSON.stringify(o)}`).join(',\n')}\n    ]\u0000`
      : value;
  const body = JSON.stringify(
    {
      name: 'realtext',
      at: new Date().toISOString(),
      machine: m,
      data: DATA,
      seconds: total,
      rerun: 'npm run bench:realtext',
      ...json,
    },
    onePerLine,
    2,
  ).replace(/"\\u0000([^]*?)\\u0000"/g, (_, inner: string) => JSON.parse(`"${inner}"`) as string);
  fs.writeFileSync(path.join(dir, `${RESULTS}.json`), body + '\n');
  fs.writeFileSync(path.join(dir, `${RESULTS}.md`), '```\n' + table + '```\n');
  process.stdout.write(`\nwritten: bench/results/${RESULTS}.json, bench/results/${RESULTS}.md\n`);
}

if (require.main === module) runMain(main);
