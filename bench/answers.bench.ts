/**
 * `npm run bench:answers`: the one quality gate for ranking and answering. It runs every answer
 * and ranking bench of this checkout (fixture quality, tasks, FindAll, the reader in process,
 * HotpotQA, SQuAD and SQuAD 2.0 through the service, and the index's ranking on Cranfield), reads the figures each writes to
 * bench/results, and compares every line with the committed baseline, bench/answers-baseline.json.
 * A line lower than its baseline (higher, for a line where lower is better) fails the bench.
 *
 * A change that must lower a line updates the baseline in the same commit and says why:
 *   npm run bench:answers -- --update "why the line moved"
 * writes the figures measured to the baseline with that reason and the commit measured.
 *
 * ANSWERS_BENCHES=quality,tasks,findall,reader,realtext,cranfield picks the benches run (default all); the
 * comparison then covers their lines only. ANSWERS_REUSE=1 compares the result files already in
 * bench/results without running anything. The real-text benches need the data sets
 * (REALTEXT_DATA, default ../shared/data); without them their lines are reported as not measured.
 * Speed lines (milliseconds) are not compared: bench:platform and the others watch those.
 * Rerun: npm run bench:answers
 */
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ROOT, runMain } from './bench-util';

const BASELINE = path.join(ROOT, 'bench', 'answers-baseline.json');
const RESULTS = path.join(ROOT, 'bench', 'results');
const ALL = ['quality', 'tasks', 'findall', 'reader', 'realtext', 'cranfield'] as const;
type Bench = (typeof ALL)[number];
/** Differences below this are float noise (the benches are deterministic). */
const EPS = 1e-6;

/** One compared figure: its value and which way is better. */
export interface Line {
  value: number;
  lowerIsBetter?: true;
}

interface Baseline {
  commit: string;
  at: string;
  why: string;
  lines: Record<string, Line>;
}

const read = (file: string): any => (fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, 'utf8')) : null);
const finite = (x: unknown): x is number => typeof x === 'number' && Number.isFinite(x);

/** The quality lines of one bench's result file (no speed lines). */
export function linesOf(bench: Bench, result: any): Record<string, Line> {
  const out: Record<string, Line> = {};
  if (!result) return out;
  const put = (key: string, value: unknown, lowerIsBetter = false) => {
    if (finite(value)) out[key] = lowerIsBetter ? { value, lowerIsBetter: true } : { value };
  };
  if (bench === 'quality')
    for (const c of result.columns ?? [])
      if (c.label === 'after')
        for (const [k, v] of Object.entries(c.figures ?? {})) put(`quality.${c.split}.${k}`, v, /duplicate/.test(k));
  if (bench === 'tasks' || bench === 'findall')
    for (const r of result.rows ?? []) if (r.unit === 'share') put(`${bench}.${r.metric}`, r.value);
  if (bench === 'reader')
    for (const [setting, f] of Object.entries<any>(result.figures ?? {}))
      for (const part of ['tune', 'measure'])
        for (const k of ['em', 'f1', 'answerable_f1', 'unanswerable_null'] as const)
          if (f[part] && (k === 'em' || k === 'f1' || f[part].unanswerable))
            put(`reader.${setting}.${part}.${k}`, f[part][k]);
  if (bench === 'cranfield') {
    const local = result.figures?.['local index'];
    if (local) {
      put('cranfield.nDCG@10', local.ndcg);
      put('cranfield.P@10', local.precision);
      put('cranfield.recall@10', local.recall);
    }
  }
  if (bench === 'realtext')
    for (const set of ['hotpotqa', 'squad', 'squad2'])
      for (const c of result[set]?.columns ?? [])
        if (c.part !== 'all')
          for (const [k, v] of Object.entries<any>(c.figures ?? {}))
            if (!/: (?:fts5|minisearch)$/.test(k))
              put(`realtext.${set}.${c.part}.${k}`, v?.value, /lower is better/.test(k));
  return out;
}

function run(bench: Bench): void {
  process.stderr.write(`[answers] running bench:${bench}…\n`);
  execFileSync(process.execPath, [path.join(ROOT, 'dist', 'bench', `${bench}.bench.js`)], {
    cwd: ROOT,
    stdio: ['ignore', 'ignore', 'inherit'],
    env: { ...process.env, ...(bench === 'quality' ? { QUALITY_BASELINE: 'none' } : {}) },
  });
}

async function main(): Promise<void> {
  const picked = (process.env.ANSWERS_BENCHES ?? ALL.join(',')).split(',').map((s) => s.trim()) as Bench[];
  for (const b of picked) if (!ALL.includes(b)) throw new Error(`ANSWERS_BENCHES: ${b} is none of ${ALL.join(', ')}`);
  const update = process.argv.indexOf('--update');
  const why = update >= 0 ? (process.argv[update + 1] ?? '').trim() : '';
  if (update >= 0 && !why)
    throw new Error('--update needs the reason the lines moved: npm run bench:answers -- --update "why"');
  const began = Date.now();
  if (process.env.ANSWERS_REUSE !== '1') for (const b of picked) run(b);
  const measured: Record<string, Line> = {};
  for (const b of picked) Object.assign(measured, linesOf(b, read(path.join(RESULTS, `${b}.json`))));
  const baseline = read(BASELINE) as Baseline | null;
  const commit = (() => {
    try {
      return execFileSync('git', ['rev-parse', 'HEAD'], { cwd: ROOT, encoding: 'utf8' }).trim();
    } catch {
      return 'unknown';
    }
  })();
  const rows: string[] = [];
  const worse: string[] = [];
  const keys = [
    ...new Set([
      ...Object.keys(baseline?.lines ?? {}).filter((k) => picked.some((b) => k.startsWith(`${b}.`))),
      ...Object.keys(measured),
    ]),
  ].sort();
  for (const key of keys) {
    const was = baseline?.lines[key];
    const now = measured[key];
    const delta = was && now ? now.value - was.value : NaN;
    const lower = (was ?? now)?.lowerIsBetter === true;
    const regressed = was && now && (lower ? delta > EPS : delta < -EPS);
    const verdict = !now
      ? 'not measured'
      : !was
        ? 'new'
        : regressed
          ? 'LOWER'
          : Math.abs(delta) <= EPS
            ? 'same'
            : 'better';
    if (regressed) worse.push(key);
    rows.push(
      `${key.padEnd(96)} ${was ? was.value.toFixed(3) : '   -  '}  ${now ? now.value.toFixed(3) : '   -  '}  ${Number.isNaN(delta) ? '      ' : `${delta >= 0 ? '+' : ''}${delta.toFixed(3)}`}  ${verdict}`,
    );
  }
  const head = [
    `answers — ${new Date().toISOString()}; benches ${picked.join(', ')}; ${((Date.now() - began) / 1000).toFixed(0)} s`,
    `baseline: ${baseline ? `${path.relative(ROOT, BASELINE)} (commit ${baseline.commit.slice(0, 12)}, ${baseline.why})` : 'none yet'}`,
    'rerun: npm run bench:answers   (update the baseline: npm run bench:answers -- --update "why")',
    '',
    `${'line'.padEnd(96)} base   now    delta   verdict`,
  ];
  process.stdout.write([...head, ...rows, ''].join('\n'));
  if (update >= 0) {
    // Lines of the benches not run this time keep their baseline.
    const kept = Object.fromEntries(
      Object.entries(baseline?.lines ?? {}).filter(([k]) => !picked.some((b) => k.startsWith(`${b}.`))),
    );
    const next: Baseline = { commit, at: new Date().toISOString(), why, lines: { ...kept, ...measured } };
    fs.writeFileSync(BASELINE, JSON.stringify(next, null, 2) + '\n');
    process.stdout.write(
      `baseline updated: ${path.relative(ROOT, BASELINE)} (${Object.keys(next.lines).length} lines; ${worse.length} lower than before: ${worse.join('; ') || 'none'})\n`,
    );
    return;
  }
  if (!baseline) {
    process.stdout.write('no baseline yet: npm run bench:answers -- --update "first baseline" writes one\n');
    return;
  }
  if (worse.length) throw new Error(`FAILED: ${worse.length} line(s) lower than the baseline: ${worse.join('; ')}`);
  process.stdout.write(`passed: no line lower than the baseline (${keys.length} lines)\n`);
}

if (require.main === module) runMain(main);
