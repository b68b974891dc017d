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
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import Database from 'better-sqlite3';
import MiniSearch from 'minisearch';
import { startService, type RunningService } from '../test/support/service-process';
import { machine, percentile, ROOT, runMain } from './bench-util';

type Part = 'tune' | 'measure';
const PARTS: Array<Part | 'all'> = ['tune', 'measure', 'all'];
const CONCURRENCY = 4;
export const DATA = path.resolve(ROOT, process.env.REALTEXT_DATA ?? path.join('..', 'shared', 'data'));
const SQUAD_TASK_EVERY = Number(process.env.REALTEXT_SQUAD_TASK_EVERY ?? 1);
const SQUAD_DEEP_EVERY = Number(process.env.REALTEXT_SQUAD_DEEP_EVERY ?? 1);
/** A quick look: only the first N questions of each set (by file order; the figures are then not the bench's). */
const LIMIT = Number(process.env.REALTEXT_LIMIT ?? 0);
const TUNE_DUMP = process.env.REALTEXT_TUNE_DUMP ?? '';
const ONLY = process.env.REALTEXT_ONLY ?? '';
/** The task processor asked (base by default: the figures quoted are base's). */
const PROCESSOR = process.env.REALTEXT_PROCESSOR ?? 'base';
if (!['base', 'core', 'ultra'].includes(PROCESSOR)) throw new Error(`REALTEXT_PROCESSOR must be base, core or ultra, not ${JSON.stringify(PROCESSOR)}`);
/** Which data sets (hotpotqa, squad, squad2; all by default). */
const SETS = new Set((process.env.REALTEXT_SETS ?? 'hotpotqa,squad,squad2').split(',').map((s) => s.trim()));
/** Results of a non-default run go beside the default's, not over them. */
const RESULTS = PROCESSOR === 'base' && SETS.has('hotpotqa') && SETS.has('squad') && SETS.has('squad2') && LIMIT === 0 ? 'realtext' : `realtext-${PROCESSOR}-${[...SETS].join('-')}${LIMIT ? `-${LIMIT}` : ''}`;

export interface Page {
  id: number;
  title: string;
  text: string;
  url: string;
}
export interface Question {
  id: string;
  part: Part;
  question: string;
  answers: string[];
  /** Ids of the gold pages. */
  gold: number[];
  type: string;
  /** The pages the data set gives the question to read: HotpotQA's ten paragraphs (its two gold ones and eight distractors); SQuAD's own paragraph. */
  context: number[];
  /** False: written to have no answer in the text (SQuAD 2.0); right only when answered null. */
  answerable: boolean;
  /** Which kinds of call ask this question (search always). */
  task: boolean;
  deep: boolean;
}
export interface DataSet {
  name: string;
  pages: Page[];
  questions: Question[];
  samples: string;
}

export const partOf = (id: string): Part => (createHash('sha256').update(id).digest()[0]! < 128 ? 'tune' : 'measure');

const readJsonl = <T>(file: string): T[] =>
  fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as T);

const wikiUrl = (title: string) => `https://en.wikipedia.org/wiki/${encodeURIComponent(title.replace(/ /g, '_')).replace(/%2F/g, '/')}`;

export function loadHotpot(dir: string): DataSet {
  const raw = readJsonl<{ title: string; text: string }>(path.join(dir, 'paragraphs.jsonl'));
  const pages = raw.map((p, id) => ({ id, title: p.title, text: p.text, url: wikiUrl(p.title) }));
  const byTitle = new Map(pages.map((p) => [p.title, p.id]));
  const questions = readJsonl<{ id: string; question: string; answer: string; type: string; supporting: string[]; titles: string[] }>(path.join(dir, 'questions.jsonl')).map(
    (q): Question => ({
      id: q.id,
      part: partOf(q.id),
      question: q.question.trim(),
      answers: [q.answer],
      gold: q.supporting.map((t) => {
        const id = byTitle.get(t);
        if (id === undefined) throw new Error(`hotpotqa: no paragraph titled ${JSON.stringify(t)}`);
        return id;
      }),
      type: q.type,
      context: q.titles.flatMap((t) => (byTitle.has(t) ? [byTitle.get(t)!] : [])),
      answerable: true,
      task: true,
      deep: true,
    }),
  );
  return { name: 'hotpotqa', pages, questions, samples: `${questions.length} questions, all of them for every kind of call` };
}

/** SQuAD (v1.1, `squad`) or SQuAD 2.0 (`squad2`, with questions written to have no answer). */
export function loadSquad(dir: string, name = 'squad'): DataSet {
  const raw = readJsonl<{ id: number; title: string; text: string }>(path.join(dir, 'paragraphs.jsonl'));
  const pages = raw.map((p, id) => ({ id, title: p.title, text: p.text, url: `${wikiUrl(p.title)}?paragraph=${p.id}` }));
  const byParagraph = new Map(raw.map((p, id) => [p.id, id]));
  const sorted = readJsonl<{ id: string; question: string; answers: string[]; paragraph: number; answerable?: boolean }>(path.join(dir, 'questions.jsonl')).sort((a, b) => a.id.localeCompare(b.id));
  const questions = sorted.map(
    (q, i): Question => ({
      id: q.id,
      part: partOf(q.id),
      question: q.question.trim(),
      answers: q.answers,
      gold: [byParagraph.get(q.paragraph)!],
      type: q.answerable === false ? 'unanswerable' : 'single-hop',
      context: [byParagraph.get(q.paragraph)!],
      answerable: q.answerable !== false && q.answers.length > 0,
      task: SQUAD_TASK_EVERY > 0 && i % SQUAD_TASK_EVERY === 0,
      deep: SQUAD_DEEP_EVERY > 0 && i % SQUAD_DEEP_EVERY === 0,
    }),
  );
  const n = (pick: (q: Question) => boolean) => questions.filter(pick).length;
  const step = (every: number) => (every === 1 ? 'every question' : every > 1 ? `every ${every}th by id order` : 'none');
  return {
    name,
    pages,
    questions,
    samples:
      `${questions.length} questions for search; tasks on ${step(SQUAD_TASK_EVERY)} (${n((q) => q.task)}); ` +
      `deep runs and chat on ${step(SQUAD_DEEP_EVERY)} (${n((q) => q.deep)})`,
  };
}

const escapeHtml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** The data set's paragraphs as a folder of HTML pages, one a paragraph. */
function writePages(set: DataSet): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `wr-realtext-${set.name}-`));
  for (const p of set.pages) {
    const html =
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(p.title)}</title>` +
      `<link rel="canonical" href="${escapeHtml(p.url)}"></head><body><main><h1>${escapeHtml(p.title)}</h1><p>${escapeHtml(p.text)}</p></main></body></html>`;
    fs.writeFileSync(path.join(dir, `p${String(p.id).padStart(4, '0')}.html`), html);
  }
  return dir;
}

/** An address as a key: decoded, no trailing slash, host lower case (the service may encode differently). */
const urlKey = (url: string) => {
  try {
    const u = new URL(url);
    return decodeURIComponent(`${u.host.toLowerCase()}${u.pathname.replace(/\/$/, '')}${u.search}`);
  } catch {
    return url;
  }
};

// ---- scoring (HotpotQA's) ----------------------------------------------------------------------

const PUNCTUATION = /[!"#$%&'()*+,\-./:;<=>?@[\\\]^_`{|}~]/g;
export const normalizeAnswer = (s: string) =>
  s
    .toLowerCase()
    .replace(PUNCTUATION, '')
    .replace(/\b(a|an|the)\b/g, ' ')
    .split(/\s+/)
    .filter(Boolean)
    .join(' ');

export function f1(prediction: string, gold: string): number {
  const p = normalizeAnswer(prediction);
  const g = normalizeAnswer(gold);
  const special = ['yes', 'no', 'noanswer'];
  if ((special.includes(p) || special.includes(g)) && p !== g) return 0;
  const pt = p.split(' ').filter(Boolean);
  const gt = g.split(' ').filter(Boolean);
  const counts = new Map<string, number>();
  for (const t of gt) counts.set(t, (counts.get(t) ?? 0) + 1);
  let same = 0;
  for (const t of pt) {
    const c = counts.get(t) ?? 0;
    if (c > 0) {
      same++;
      counts.set(t, c - 1);
    }
  }
  if (same === 0) return 0;
  const precision = same / pt.length;
  const recall = same / gt.length;
  return (2 * precision * recall) / (precision + recall);
}

export const exactMatch = (prediction: string, gold: string) => (normalizeAnswer(prediction) === normalizeAnswer(gold) ? 1 : 0);
const best = (answers: string[], score: (gold: string) => number) => Math.max(0, ...answers.map(score));

/**
 * A value scored as SQuAD 2.0 and HotpotQA score it: against the best of the gold answers
 * (normalised exact match, token F1); no value (null or empty) scores 1 on a question written to
 * have no answer and 0 on any other, and any value on such a question scores 0.
 */
export function scoreAnswer(q: Pick<Question, 'answers' | 'answerable'>, value: string | null | undefined): { em: number; f1: number } {
  const given = value !== null && value !== undefined && value.trim() !== '';
  if (!q.answerable) return given ? { em: 0, f1: 0 } : { em: 1, f1: 1 };
  if (!given) return { em: 0, f1: 0 };
  return { em: best(q.answers, (g) => exactMatch(value, g)), f1: best(q.answers, (g) => f1(value, g)) };
}

/** Report or reply text without citation markers and markdown emphasis. */
const plain = (text: string) => text.replace(/\[\d+(?:\s*[,–-]\s*\d+)*\]/g, ' ').replace(/[*_`#>]/g, ' ');
/** The normalised gold as whole words inside the normalised text. */
export const containsGold = (text: string, gold: string) => {
  const g = normalizeAnswer(gold);
  return g.length > 0 && ` ${normalizeAnswer(plain(text))} `.includes(` ${g} `);
};
const firstSentence = (text: string) => plain(text).trim().split(/(?<=[.!?])\s+(?=[\p{Lu}\p{N}"“(])/u)[0] ?? '';
/** A report or reply before its `## Sources` list. */
const withoutSources = (text: string) => text.split(/\n#+\s*Sources\b/)[0] ?? text;
/** The first paragraph of prose: after the `# title`, before anything else. */
const firstParagraph = (report: string) =>
  report
    .split(/\n\s*\n/)
    .map((b) => b.trim())
    .filter(Boolean)
    .find((b) => !b.startsWith('#')) ?? '';

// ---- peers ---------------------------------------------------------------------------------------

export interface Searcher {
  name: string;
  search(question: string): number[];
}

export function fts5(pages: Page[], limit = 10): Searcher & { close(): void } {
  const db = new Database(':memory:');
  db.exec(`CREATE VIRTUAL TABLE pages USING fts5(title, text, tokenize='porter unicode61')`);
  const insert = db.prepare('INSERT INTO pages(rowid, title, text) VALUES (?, ?, ?)');
  db.transaction(() => {
    for (const p of pages) insert.run(p.id + 1, p.title, p.text);
  })();
  const query = db.prepare('SELECT rowid FROM pages WHERE pages MATCH ? ORDER BY bm25(pages) LIMIT ?');
  return {
    name: 'fts5',
    search(question) {
      const words = (question.match(/[\p{L}\p{N}]+/gu) ?? []).filter((w) => w.length > 1);
      if (words.length === 0) return [];
      const match = words.map((w) => `"${w.replace(/"/g, '""')}"`).join(' OR ');
      return (query.all(match, limit) as Array<{ rowid: number }>).map((r) => r.rowid - 1);
    },
    close: () => db.close(),
  };
}

function minisearch(pages: Page[]): Searcher {
  const index = new MiniSearch<Page>({ fields: ['title', 'text'] });
  index.addAll(pages);
  return { name: 'minisearch', search: (question) => index.search(question).slice(0, 10).map((r) => r.id as number) };
}

// ---- the service ---------------------------------------------------------------------------------

async function api<T>(svc: RunningService, method: string, route: string, body?: unknown): Promise<{ status: number; json: T; ms: number }> {
  const started = performance.now();
  const response = await fetch(`${svc.baseUrl}${route}`, {
    method,
    headers: { Authorization: `Bearer ${svc.demoKey}`, 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = (await response.json()) as T;
  return { status: response.status, json, ms: performance.now() - started };
}

const ANSWER_SCHEMA = {
  type: 'json',
  json_schema: { type: 'object', properties: { answer: { type: 'string', description: 'the answer to the task' } }, required: ['answer'] },
};

interface TaskView {
  run_id?: string;
  status: string;
  output?: Record<string, unknown> | { content?: Record<string, unknown>; basis?: Basis[] } | null;
  basis?: Basis[] | null;
}
interface Basis {
  field: string;
  confidence?: string;
}

async function runTask(svc: RunningService, question: string): Promise<{ answer: string; confidence: string | null; ms: number; status: string }> {
  const started = performance.now();
  let { status, json } = await api<TaskView>(svc, 'POST', '/v1/tasks', { task: question, processor: PROCESSOR, output_schema: ANSWER_SCHEMA, wait_seconds: 120 });
  if (status !== 200 && status !== 202) throw new Error(`task refused: ${status} ${JSON.stringify(json).slice(0, 300)}`);
  const deadline = Date.now() + 120_000;
  while (!['completed', 'failed', 'cancelled'].includes(json.status) && json.run_id && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 100));
    ({ json } = await api<TaskView>(svc, 'GET', `/v1/tasks/runs/${json.run_id}`));
  }
  const output = (json.output ?? {}) as Record<string, unknown>;
  const content = (typeof output.content === 'object' && output.content !== null ? output.content : output) as Record<string, unknown>;
  const basis = (json.basis ?? (Array.isArray(output.basis) ? (output.basis as Basis[]) : [])) ?? [];
  const answer = content.answer;
  return {
    answer: typeof answer === 'string' ? answer : answer === null || answer === undefined ? '' : JSON.stringify(answer),
    confidence: basis.find((b) => b.field === 'answer')?.confidence ?? null,
    ms: performance.now() - started,
    status: json.status,
  };
}

interface RunView {
  status: string;
  report: string | null;
  sources: Array<{ index: number; url: string }> | null;
}

async function deepRun(svc: RunningService, question: string): Promise<{ view: RunView; ms: number }> {
  const started = performance.now();
  const created = await api<{ search_id: string }>(svc, 'POST', '/v1/search', { depth: 'deep', queries: [question], prompt: question });
  if (created.status !== 202) throw new Error(`deep run refused: ${created.status} ${JSON.stringify(created.json).slice(0, 300)}`);
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    const { json } = await api<RunView>(svc, 'GET', `/v1/searches/${created.json.search_id}`);
    if (['completed', 'failed', 'cancelled'].includes(json.status)) return { view: json, ms: performance.now() - started };
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`deep run ${created.json.search_id} did not end in 120 s`);
}

async function chat(svc: RunningService, question: string): Promise<{ reply: string; ms: number }> {
  const { status, json, ms } = await api<{ choices?: Array<{ message?: { content?: string | null } }> }>(svc, 'POST', '/v1/chat/completions', {
    model: 'base',
    messages: [{ role: 'user', content: question }],
  });
  if (status !== 200 && status !== 201) throw new Error(`chat refused: ${status} ${JSON.stringify(json).slice(0, 300)}`);
  return { reply: json.choices?.[0]?.message?.content ?? '', ms };
}

/** Runs `work` over `items`, `CONCURRENCY` at a time. */
async function pool<T>(items: T[], work: (item: T) => Promise<void>): Promise<void> {
  const queue = [...items];
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      for (let item = queue.shift(); item !== undefined; item = queue.shift()) await work(item);
    }),
  );
}

// ---- one data set --------------------------------------------------------------------------------

interface Outcome {
  id: string;
  part: Part;
  type: string;
  answerable: boolean;
  question: string;
  gold: string[];
  search: Record<string, { all: boolean; any: boolean; top: number[] }>;
  task?: { answer: string; em: number; f1: number; confidence: string | null; status: string };
  deep?: { firstParagraph: string; contains: boolean; f1: number; bothSources: boolean; status: string };
  chat?: { reply: string; contains: boolean; f1: number };
  errors: string[];
}

async function measureSet(set: DataSet): Promise<{ outcomes: Outcome[]; times: Record<string, number[]>; unknownUrls: number; seconds: number }> {
  const started = performance.now();
  const folder = writePages(set);
  const times: Record<string, number[]> = { service: [], fts5: [], minisearch: [], task: [], deep: [], chat: [] };
  const peers = [fts5(set.pages), minisearch(set.pages)];
  const byKey = new Map(set.pages.map((p) => [urlKey(p.url), p.id]));
  let unknownUrls = 0;
  const outcomes = new Map<string, Outcome>();
  const svc = await startService('standalone', { LOCAL_INDEX_DIR: folder, LOG_LEVEL: 'warn', RATE_LIMIT_RPS: '0' }, { readyTimeoutMs: 120_000 });
  const hits = (top: number[], gold: number[]) => ({ all: gold.every((g) => top.includes(g)), any: gold.some((g) => top.includes(g)), top });
  try {
    for (const q of set.questions) {
      const o: Outcome = { id: q.id, part: q.part, type: q.type, answerable: q.answerable, question: q.question, gold: q.answers, search: {}, errors: [] };
      for (const peer of peers) {
        const t = performance.now();
        const top = peer.search(q.question);
        times[peer.name]!.push(performance.now() - t);
        o.search[peer.name] = hits(top, q.gold);
      }
      outcomes.set(q.id, o);
    }
    await pool(set.questions, async (q) => {
      const o = outcomes.get(q.id)!;
      const { status, json, ms } = await api<{ results: Array<{ url: string }> }>(svc, 'POST', '/v1/search', { queries: [q.question], limit: 10 });
      if (status !== 200) throw new Error(`search refused: ${status} ${JSON.stringify(json).slice(0, 300)}`);
      times.service!.push(ms);
      const top = json.results.slice(0, 10).map((r) => {
        const id = byKey.get(urlKey(r.url));
        if (id === undefined) unknownUrls++;
        return id ?? -1;
      });
      o.search.service = hits(top, q.gold);
    });
    process.stderr.write(`[realtext] ${set.name}: searches done at ${((performance.now() - started) / 1000).toFixed(0)} s\n`);
    await pool(
      set.questions.filter((q) => q.task),
      async (q) => {
        const o = outcomes.get(q.id)!;
        try {
          const r = await runTask(svc, q.question);
          times.task!.push(r.ms);
          o.task = { answer: r.answer, ...scoreAnswer(q, r.answer), confidence: r.confidence, status: r.status };
        } catch (error) {
          o.errors.push(`task: ${(error as Error).message}`);
        }
      },
    );
    process.stderr.write(`[realtext] ${set.name}: tasks done at ${((performance.now() - started) / 1000).toFixed(0)} s\n`);
    const goldUrls = (q: Question) => q.gold.map((g) => urlKey(set.pages[g]!.url));
    await pool(
      set.questions.filter((q) => q.deep),
      async (q) => {
        const o = outcomes.get(q.id)!;
        try {
          const { view, ms } = await deepRun(svc, q.question);
          times.deep!.push(ms);
          const para = firstParagraph(view.report ?? '');
          const sources = new Set((view.sources ?? []).map((s) => urlKey(s.url)));
          o.deep = {
            firstParagraph: para,
            contains: q.answers.some((g) => containsGold(para, g)),
            f1: best(q.answers, (g) => f1(firstSentence(para), g)),
            bothSources: goldUrls(q).every((u) => sources.has(u)),
            status: view.status,
          };
        } catch (error) {
          o.errors.push(`deep: ${(error as Error).message}`);
        }
      },
    );
    process.stderr.write(`[realtext] ${set.name}: deep runs done at ${((performance.now() - started) / 1000).toFixed(0)} s\n`);
    await pool(
      set.questions.filter((q) => q.deep),
      async (q) => {
        const o = outcomes.get(q.id)!;
        try {
          const { reply, ms } = await chat(svc, q.question);
          times.chat!.push(ms);
          o.chat = { reply, contains: q.answers.some((g) => containsGold(withoutSources(reply), g)), f1: best(q.answers, (g) => f1(firstSentence(firstParagraph(reply)), g)) };
        } catch (error) {
          o.errors.push(`chat: ${(error as Error).message}`);
        }
      },
    );
  } finally {
    await svc.stop();
    for (const peer of peers) if ('close' in peer) (peer as { close(): void }).close();
    fs.rmSync(folder, { recursive: true, force: true });
  }
  const seconds = (performance.now() - started) / 1000;
  process.stderr.write(`[realtext] ${set.name}: done in ${seconds.toFixed(0)} s\n`);
  return { outcomes: [...outcomes.values()].sort((a, b) => a.id.localeCompare(b.id)), times, unknownUrls, seconds };
}

// ---- figures -------------------------------------------------------------------------------------

const mean = (xs: number[]) => (xs.length ? xs.reduce((s, x) => s + x, 0) / xs.length : NaN);
const shareOf = <T>(xs: T[], pick: (x: T) => boolean) => (xs.length ? xs.filter(pick).length / xs.length : NaN);

function figures(outcomes: Outcome[], part: Part | 'all'): Array<[string, number, string]> {
  const sel = outcomes.filter((o) => part === 'all' || o.part === part);
  const rows: Array<[string, number, string]> = [];
  for (const engine of ['service', 'fts5', 'minisearch']) {
    rows.push([`search recall@10, every gold page: ${engine}`, shareOf(sel, (o) => o.search[engine]?.all ?? false), `${sel.length}`]);
    rows.push([`search recall@10, any gold page: ${engine}`, shareOf(sel, (o) => o.search[engine]?.any ?? false), `${sel.length}`]);
  }
  const tasks = sel.filter((o) => o.task).map((o) => o.task!);
  const asked = sel.filter((o) => o.task || o.errors.some((e) => e.startsWith('task'))).length;
  rows.push(['task: an answer given (not null or empty)', shareOf(tasks, (t) => t.answer.trim() !== ''), `${tasks.filter((t) => t.answer.trim() !== '').length}/${tasks.length}`]);
  rows.push(['task: exact match', mean(tasks.map((t) => t.em)), `${tasks.length}/${asked}`]);
  rows.push(['task: token F1', mean(tasks.map((t) => t.f1)), `${tasks.length}/${asked}`]);
  const answerable = sel.filter((o) => o.task && o.answerable).map((o) => o.task!);
  const high = answerable.filter((t) => t.confidence === 'high');
  rows.push(['task: share answered with high confidence', shareOf(answerable, (t) => t.confidence === 'high'), `${high.length}/${answerable.length}`]);
  rows.push(['task: high-confidence answers right (F1 >= 0.8)', shareOf(high, (t) => t.f1 >= 0.8), `${high.filter((t) => t.f1 >= 0.8).length}/${high.length}`]);
  const unanswerable = sel.filter((o) => o.task && !o.answerable).map((o) => o.task!);
  if (outcomes.some((o) => !o.answerable)) {
    // SQuAD 2.0: questions written to have no answer in the text are right only when answered null.
    rows.push(['task: answerable questions, token F1', mean(answerable.map((t) => t.f1)), `${answerable.length}`]);
    rows.push(['task: unanswerable questions answered null', shareOf(unanswerable, (t) => t.answer.trim() === ''), `${unanswerable.filter((t) => t.answer.trim() === '').length}/${unanswerable.length}`]);
    rows.push(['task: unanswerable questions marked high (lower is better)', shareOf(unanswerable, (t) => t.confidence === 'high'), `${unanswerable.filter((t) => t.confidence === 'high').length}/${unanswerable.length}`]);
    const gaps = sel.filter((o) => o.deep && !o.answerable).map((o) => o.deep!);
    rows.push(['deep: unanswerable, first paragraph says no source answered', shareOf(gaps, (d) => d.firstParagraph.startsWith('No source answered')), `${gaps.length}`]);
  }
  // Whether a report or a reply holds the gold: asked of the questions that have one.
  const deeps = sel.filter((o) => o.deep && o.answerable).map((o) => o.deep!);
  rows.push(['deep: first paragraph contains gold', shareOf(deeps, (d) => d.contains), `${deeps.length}`]);
  rows.push(['deep: F1 of its first sentence', mean(deeps.map((d) => d.f1)), `${deeps.length}`]);
  rows.push(['deep: every gold page among sources', shareOf(deeps, (d) => d.bothSources), `${deeps.length}`]);
  const chats = sel.filter((o) => o.chat && o.answerable).map((o) => o.chat!);
  rows.push(['chat: reply contains gold', shareOf(chats, (c) => c.contains), `${chats.length}`]);
  rows.push(['chat: F1 of its first sentence', mean(chats.map((c) => c.f1)), `${chats.length}`]);
  return rows;
}

const cut = (text: string, n = 300) => {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > n ? `${flat.slice(0, n)}…` : flat;
};

/**
 * An outcome for the JSON file: each engine's search as the ranks (1..10, null when absent) of the
 * gold pages, texts cut to 160 characters, the chat's first paragraph only where it differs from
 * the deep run's.
 */
const compact = (o: Outcome, gold: number[]) => {
  const chatFirst = o.chat ? firstParagraph(o.chat.reply) : undefined;
  return {
    id: o.id,
    type: o.type,
    question: o.question,
    gold: o.gold,
    search_gold_ranks: Object.fromEntries(Object.entries(o.search).map(([engine, r]) => [engine, gold.map((g) => (r.top.includes(g) ? r.top.indexOf(g) + 1 : null))])),
    task: o.task,
    deep: o.deep && { ...o.deep, firstParagraph: cut(o.deep.firstParagraph, 160) },
    chat: o.chat && { contains: o.chat.contains, f1: o.chat.f1, firstParagraph: chatFirst === o.deep?.firstParagraph ? '(as the deep run)' : cut(chatFirst ?? '', 160) },
    errors: o.errors.length ? o.errors : undefined,
  };
};

/** A few of the tune part's misses of each kind (the measure part's stay unseen). */
function misses(outcomes: Outcome[], each = 4): string[] {
  const tune = outcomes.filter((o) => o.part === 'tune');
  const show = (title: string, picked: Outcome[], line: (o: Outcome) => string) =>
    picked.length ? [`  ${title} (${picked.length}; first ${Math.min(each, picked.length)}):`, ...picked.slice(0, each).map((o) => `    ${cut(o.question, 120)} | gold ${JSON.stringify(o.gold[0])} | ${line(o)}`)] : [];
  return [
    '',
    'tune part, misses:',
    ...show('search, a gold page not in the service top 10 (FTS5 has them all)', tune.filter((o) => !o.search.service?.all && o.search.fts5?.all), (o) => `service top 3: ${o.search.service!.top.slice(0, 3).join(', ')}`),
    ...show('task, F1 < 0.8', tune.filter((o) => o.task && o.task.f1 < 0.8), (o) => `answer ${JSON.stringify(cut(o.task!.answer, 80))} (${o.task!.confidence ?? 'no'} confidence)`),
    ...show('deep, first paragraph without the gold', tune.filter((o) => o.deep && !o.deep.contains), (o) => cut(o.deep!.firstParagraph, 140)),
    ...show('chat, reply without the gold', tune.filter((o) => o.chat && !o.chat.contains), (o) => cut(firstParagraph(o.chat!.reply), 140)),
  ];
}

const fmt = (v: number) => (Number.isNaN(v) ? '-' : v.toFixed(2));

async function main(): Promise<void> {
  const hotpotDir = path.join(DATA, 'hotpotqa-dev');
  const squadDir = path.join(DATA, 'squad-superbowl');
  if (!fs.existsSync(path.join(hotpotDir, 'questions.jsonl')) && !fs.existsSync(path.join(squadDir, 'questions.jsonl'))) {
    process.stdout.write(`realtext: no data under ${DATA} (hotpotqa-dev/, squad-superbowl/): set REALTEXT_DATA to the folder that holds them. Nothing measured.\n`);
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
    const { outcomes, times, unknownUrls, seconds } = await measureSet(set);
    // The tuned part's answers one by one, to study; the measured part is only ever counted.
    if (TUNE_DUMP) fs.writeFileSync(`${TUNE_DUMP}.${set.name}.json`, JSON.stringify(outcomes.filter((o) => o.part === 'tune'), null, 1));
    const columns = PARTS.map((part) => ({ part, rows: figures(outcomes, part) }));
    const count = (part: Part) => set.questions.filter((q) => q.part === part).length;
    const width = Math.max(...columns[0]!.rows.map((r) => r[0].length));
    lines.push(
      '',
      `## ${set.name}: ${set.pages.length} pages; ${set.samples}; tune ${count('tune')} / measure ${count('measure')} questions; ${seconds.toFixed(0)} s`,
      '',
      `${'metric'.padEnd(width)}  ${PARTS.map((p) => `${p} (value n)`.padStart(18)).join('  ')}`,
      `${'-'.repeat(width)}  ${PARTS.map(() => '-'.repeat(18)).join('  ')}`,
      ...columns[0]!.rows.map((_, i) => `${columns[0]!.rows[i]![0].padEnd(width)}  ${columns.map((c) => `${fmt(c.rows[i]![1])} ${c.rows[i]![2]}`.padStart(18)).join('  ')}`),
      '',
      `p50 per call (ms, all questions): ${Object.entries(times)
        .map(([k, v]) => `${k} ${fmt(percentile([...v].sort((a, b) => a - b), 50))} (n ${v.length})`)
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
      columns: columns.map((c) => ({ part: c.part, figures: Object.fromEntries(c.rows.map(([k, v, n]) => [k, { value: v, n }])) })),
      p50_ms: Object.fromEntries(Object.entries(times).map(([k, v]) => [k, percentile([...v].sort((a, b) => a - b), 50)])),
      tune_outcomes: outcomes.filter((o) => o.part === 'tune').map((o) => compact(o, set.questions.find((q) => q.id === o.id)!.gold)),
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
    key === 'tune_outcomes' && Array.isArray(value) ? `\u0000[\n${value.map((o) => `      ${JSON.stringify(o)}`).join(',\n')}\n    ]\u0000` : value;
  const body = JSON.stringify({ name: 'realtext', at: new Date().toISOString(), machine: m, data: DATA, seconds: total, rerun: 'npm run bench:realtext', ...json }, onePerLine, 2).replace(
    /"\\u0000([^]*?)\\u0000"/g,
    (_, inner: string) => JSON.parse(`"${inner}"`) as string,
  );
  fs.writeFileSync(path.join(dir, `${RESULTS}.json`), body + '\n');
  fs.writeFileSync(path.join(dir, `${RESULTS}.md`), '```\n' + table + '```\n');
  process.stdout.write(`\nwritten: bench/results/${RESULTS}.json, bench/results/${RESULTS}.md\n`);
}

if (require.main === module) runMain(main);
