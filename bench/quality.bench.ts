/**
 * `npm run bench:quality`: research and search quality on a web written for it
 * (bench/fixtures/quality: made-up organisations, the people who lead them, directories that list
 * many of them, distractor pages; SPEC.md there says how it was written). The pages are served as a
 * local index folder (LOCAL_INDEX_DIR), the engine is the embedded extractive one.
 *
 * Two builds side by side in one run: "before" is the baseline commit (QUALITY_BASELINE, default
 * the commit this work started from, built from `git archive` into a temp folder), "after" is this
 * checkout's dist. For each, on the tuned-on and the held-out third of the fixture apart:
 *  - single-hop questions: the answer in the report's first paragraph, anywhere in the report, a
 *    gold page cited;
 *  - two-page questions (the answer page never names the asked-about organisation): the same;
 *  - duplicate sentences per report (the same sentence, citation markers and case removed, twice);
 *  - search MRR@10 (POST /v1/search, default depth) on descriptive, exact-name and typo queries.
 * The whole fixture's figures follow (what the issue's targets are set on).
 * A report "contains" an answer when any accepted spelling appears in it (case-insensitive,
 * thousands separators ignored; yes/no as a whole word). Misses of the tuned-on part are printed
 * (the held-out part's are not: it stays unseen), results go to bench/results/quality.json.
 * Rerun: npm run bench:quality   (QUALITY_BASELINE=<git ref> to compare with another build;
 *        QUALITY_BASELINE=none for this build only)
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { startService, type RunningService } from '../test/support/service-process';
import { baselineDist, machine, ROOT, runMain } from './bench-util';

type Split = 'tune' | 'held_out';
interface Question {
  id: string;
  split: Split;
  hops: number;
  type: string;
  question: string;
  answers: string[];
  gold: string[];
}
interface SearchCase {
  id: string;
  split: Split;
  kind: 'descriptive' | 'exact' | 'typo';
  query: string;
  gold: string;
}
interface RunView {
  status: string;
  report: string | null;
  sources: Array<{ index: number; url: string }> | null;
  error?: unknown;
}

const FIXTURE = path.join(ROOT, 'bench', 'fixtures', 'quality');
/** The commit before answer-first reports, answer typing, follow-up research and the ranking priors. */
const DEFAULT_BASELINE = '533b752';

function loadFixture(): { questions: Question[]; searches: SearchCase[] } {
  const questions: Question[] = [];
  const searches: SearchCase[] = [];
  for (const file of fs
    .readdirSync(FIXTURE)
    .filter((f) => /^questions-.*\.json$/.test(f))
    .sort()) {
    const data = JSON.parse(fs.readFileSync(path.join(FIXTURE, file), 'utf8')) as {
      questions: Question[];
      searches: SearchCase[];
    };
    questions.push(...data.questions);
    searches.push(...data.searches);
  }
  return { questions, searches };
}

/** The baseline's standalone entry point, compiled once per commit into the temp folder. */
function baselineMain(ref: string): { main: string; sha: string } {
  const { dist, sha } = baselineDist(ref, 'quality');
  return { main: path.join(dist, 'apps', 'standalone', 'src', 'main.js'), sha };
}

const normalise = (text: string) =>
  text
    .toLowerCase()
    .replace(/\[\d+(?:\s*,\s*\d+)*\]/g, ' ')
    .replace(/(\d),(?=\d{3}\b)/g, '$1')
    .replace(/[*_`]/g, '')
    .replace(/\s+/g, ' ');

export function containsAnswer(text: string, answers: string[]): boolean {
  const haystack = normalise(text);
  return answers.some((answer) => {
    const needle = normalise(answer).trim();
    if (!needle) return false;
    if (/^(yes|no)$/.test(needle)) return new RegExp(`\\b${needle}\\b`).test(haystack);
    return haystack.includes(needle);
  });
}

/** The first paragraph of prose: after the `# title`, before anything else. */
export function firstParagraph(report: string): string {
  const blocks = report
    .split(/\n\s*\n/)
    .map((b) => b.trim())
    .filter(Boolean);
  return blocks.find((b) => !b.startsWith('#')) ?? '';
}

/** Sentences written twice in one report (citations and case ignored), the sources list left out. */
export function duplicateSentences(report: string): number {
  const body = report.split(/\n## Sources\b/)[0] ?? report;
  const seen = new Map<string, number>();
  for (const line of body.split('\n')) {
    if (/^\s*#/.test(line) || !line.trim()) continue;
    for (const sentence of line.split(/(?<=[.!?])\s+(?=[\p{Lu}\p{N}"“(])/u)) {
      const key = sentence
        .replace(/\[\d+(?:\s*,\s*\d+)*\]/g, '')
        .toLowerCase()
        .replace(/[^\p{L}\p{N}]+/gu, ' ')
        .trim();
      if (key.length < 12) continue;
      seen.set(key, (seen.get(key) ?? 0) + 1);
    }
  }
  return [...seen.values()].reduce((sum, n) => sum + (n - 1), 0);
}

const citedUrls = (view: RunView): Set<string> => {
  const cited = new Set([...(view.report ?? '').matchAll(/\[(\d+)\]/g)].map((m) => Number(m[1])));
  return new Set((view.sources ?? []).filter((s) => cited.has(s.index)).map((s) => s.url.replace(/\/$/, '')));
};

async function api<T>(
  svc: RunningService,
  method: string,
  route: string,
  body?: unknown,
): Promise<{ status: number; json: T }> {
  const response = await fetch(`${svc.baseUrl}${route}`, {
    method,
    headers: { Authorization: `Bearer ${svc.demoKey}`, 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, json: (await response.json()) as T };
}

async function deepRun(svc: RunningService, question: string): Promise<RunView> {
  const started = await api<{ search_id: string }>(svc, 'POST', '/v1/search', {
    depth: 'deep',
    queries: [question],
    prompt: question,
  });
  if (started.status !== 202) throw new Error(`deep run refused: ${started.status} ${JSON.stringify(started.json)}`);
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    const { json } = await api<RunView>(svc, 'GET', `/v1/searches/${started.json.search_id}`);
    if (['completed', 'failed', 'cancelled'].includes(json.status)) return json;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`deep run ${started.json.search_id} did not end in 60 s`);
}

interface QuestionOutcome {
  id: string;
  split: Split;
  hops: number;
  first: boolean;
  anywhere: boolean;
  cited: boolean;
  duplicates: number;
  firstParagraph: string;
}
interface SearchOutcome {
  id: string;
  split: Split;
  kind: SearchCase['kind'];
  rank: number | null;
  top: string[];
}

async function measure(
  svc: RunningService,
  questions: Question[],
  searches: SearchCase[],
): Promise<{ questions: QuestionOutcome[]; searches: SearchOutcome[] }> {
  const outcomes: QuestionOutcome[] = [];
  const queue = [...questions];
  // A few runs at once, as several users would: the per-team limit queues the rest.
  await Promise.all(
    Array.from({ length: 4 }, async () => {
      for (let q = queue.shift(); q; q = queue.shift()) {
        const view = await deepRun(svc, q.question);
        const report = view.status === 'completed' ? (view.report ?? '') : '';
        const cited = citedUrls(view);
        outcomes.push({
          id: q.id,
          split: q.split,
          hops: q.hops,
          first: containsAnswer(firstParagraph(report), q.answers),
          anywhere: containsAnswer(report, q.answers),
          cited: q.gold.some((g) => cited.has(g.replace(/\/$/, ''))),
          duplicates: duplicateSentences(report),
          firstParagraph: firstParagraph(report).slice(0, 300),
        });
      }
    }),
  );
  const searchOutcomes: SearchOutcome[] = [];
  for (const s of searches) {
    const { status, json } = await api<{ results: Array<{ url: string }> }>(svc, 'POST', '/v1/search', {
      queries: [s.query],
      limit: 10,
    });
    if (status !== 200) throw new Error(`search refused: ${status} ${JSON.stringify(json)}`);
    const urls = json.results.map((r) => r.url.replace(/\/$/, ''));
    const at = urls.indexOf(s.gold.replace(/\/$/, ''));
    searchOutcomes.push({
      id: s.id,
      split: s.split,
      kind: s.kind,
      rank: at < 0 ? null : at + 1,
      top: urls.slice(0, 3),
    });
  }
  return { questions: outcomes.sort((a, b) => a.id.localeCompare(b.id)), searches: searchOutcomes };
}

type Figures = Record<string, number>;

function figures(m: { questions: QuestionOutcome[]; searches: SearchOutcome[] }, split: Split | 'all'): Figures {
  const share = (items: QuestionOutcome[], pick: (o: QuestionOutcome) => boolean) =>
    items.length ? items.filter(pick).length / items.length : NaN;
  const inSplit = (o: { split: Split }) => split === 'all' || o.split === split;
  const single = m.questions.filter((o) => inSplit(o) && o.hops === 1);
  const multi = m.questions.filter((o) => inSplit(o) && o.hops > 1);
  const all = m.questions.filter(inSplit);
  const mrr = (kind: SearchCase['kind']) => {
    const items = m.searches.filter((s) => inSplit(s) && s.kind === kind);
    return items.length ? items.reduce((sum, s) => sum + (s.rank ? 1 / s.rank : 0), 0) / items.length : NaN;
  };
  return {
    'single-hop: answer in first paragraph': share(single, (o) => o.first),
    'single-hop: answer in report': share(single, (o) => o.anywhere),
    'single-hop: gold page cited': share(single, (o) => o.cited),
    'two-page: answer in first paragraph': share(multi, (o) => o.first),
    'two-page: answer in report': share(multi, (o) => o.anywhere),
    'two-page: a gold page cited': share(multi, (o) => o.cited),
    'duplicate sentences per report': all.length ? all.reduce((s, o) => s + o.duplicates, 0) / all.length : NaN,
    'search MRR@10: descriptive': mrr('descriptive'),
    'search MRR@10: exact name': mrr('exact'),
    'search MRR@10: name with a typo': mrr('typo'),
  };
}

const TARGETS: Record<string, string> = {
  'single-hop: answer in first paragraph': '>= 0.90',
  'two-page: answer in report': '>= 0.70',
  'duplicate sentences per report': '0',
  'search MRR@10: descriptive': '>= 0.90',
  'search MRR@10: exact name': 'unchanged',
};

async function main(): Promise<void> {
  const { questions, searches } = loadFixture();
  if (questions.length === 0) throw new Error(`no questions under ${FIXTURE}`);
  const ref = process.env.QUALITY_BASELINE ?? DEFAULT_BASELINE;
  const builds: Array<{ label: string; main?: string; sha?: string }> = [];
  if (ref !== 'none') {
    try {
      builds.push({ label: 'before', ...baselineMain(ref) });
    } catch (error) {
      process.stderr.write(
        `[quality] no baseline (${(error as Error).message.split('\n')[0]}): "before" is left out\n`,
      );
    }
  }
  builds.push({ label: 'after' });

  const env = { LOCAL_INDEX_DIR: path.join(FIXTURE, 'pages'), LOG_LEVEL: 'warn', RATE_LIMIT_RPS: '0' };
  const measured: Record<string, { questions: QuestionOutcome[]; searches: SearchOutcome[] }> = {};
  for (const build of builds) {
    const started = performance.now();
    const svc = await startService('standalone', env, { main: build.main });
    try {
      measured[build.label] = await measure(svc, questions, searches);
    } finally {
      await svc.stop();
    }
    process.stderr.write(
      `[quality] ${build.label}: ${questions.length} deep runs and ${searches.length} searches in ${((performance.now() - started) / 1000).toFixed(1)} s\n`,
    );
  }

  const labels = builds.map((b) => b.label);
  // Tuned-on and held-out apart, then the whole fixture (what the targets are set on).
  const columns = (['tune', 'held_out', 'all'] as const).flatMap((split) =>
    labels.map((label) => ({ split, label, figures: figures(measured[label]!, split) })),
  );
  const metrics = Object.keys(columns[0]!.figures);
  const width = Math.max(...metrics.map((m) => m.length));
  const m = machine();
  const count = (split: Split, pick: (q: Question) => boolean) =>
    questions.filter((q) => q.split === split && pick(q)).length;
  const lines = [
    `quality — ${new Date().toISOString()}`,
    `machine: ${m.cpus} cores (${m.cpu_model}), ${m.memory_gib} GiB, node ${m.node}, ${m.platform}`,
    `fixture: ${questions.length} questions (${questions.filter((q) => q.hops === 1).length} single-hop, ${questions.filter((q) => q.hops > 1).length} two-page), ${searches.length} searches; ` +
      `tuned on: ${count('tune', (q) => q.hops === 1)}+${count('tune', (q) => q.hops > 1)} questions, ${searches.filter((s) => s.split === 'tune').length} searches; ` +
      `held out: ${count('held_out', (q) => q.hops === 1)}+${count('held_out', (q) => q.hops > 1)} questions, ${searches.filter((s) => s.split === 'held_out').length} searches`,
    `builds: ${builds.map((b) => `${b.label} = ${b.sha ? b.sha.slice(0, 12) : 'this checkout'}`).join(', ')}`,
    '',
    `${'metric'.padEnd(width)}  ${columns.map((c) => `${c.label} ${c.split === 'tune' ? 'tuned' : c.split === 'held_out' ? 'held-out' : 'all'}`.padStart(16)).join('  ')}  target`,
    `${'-'.repeat(width)}  ${columns.map(() => '-'.repeat(16)).join('  ')}  ------`,
    ...metrics.map(
      (metric) =>
        `${metric.padEnd(width)}  ${columns.map((c) => fmt(c.figures[metric]!).padStart(16)).join('  ')}  ${TARGETS[metric] ?? ''}`,
    ),
  ];
  const after = measured.after!;
  const misses = after.questions.filter((o) => o.split === 'tune' && (!o.first || !o.anywhere));
  const searchMisses = after.searches.filter((s) => s.split === 'tune' && s.rank !== 1);
  lines.push(
    '',
    `after, tuned-on part: ${misses.length} questions without the answer in the first paragraph or report, ${searchMisses.length} searches whose gold is not first`,
  );
  for (const o of misses)
    lines.push(`  ${o.id}${o.anywhere ? ' (in report)' : ''}: ${o.firstParagraph.replace(/\s+/g, ' ').slice(0, 200)}`);
  for (const s of searchMisses) lines.push(`  ${s.id} rank ${s.rank ?? '-'}: ${s.top.join(' ')}`);
  process.stdout.write(lines.join('\n') + '\n');

  const dir = path.join(ROOT, 'bench', 'results');
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, 'quality.json');
  fs.writeFileSync(
    file,
    JSON.stringify(
      {
        name: 'quality',
        at: new Date().toISOString(),
        machine: m,
        builds: builds.map(({ label, sha }) => ({ label, sha: sha ?? 'checkout' })),
        columns,
        rerun: 'npm run bench:quality',
      },
      null,
      2,
    ) + '\n',
  );
  process.stdout.write(`\nwritten: ${path.relative(process.cwd(), file)}\n`);
}

const fmt = (v: number) => (Number.isNaN(v) ? '-' : v.toFixed(2));

if (require.main === module) runMain(main);
