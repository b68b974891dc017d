/**
 * One data set measured by `bench:realtext`: its paragraphs written as a local index's pages, a
 * service started over them, and every question asked of the peers, the service's search, tasks,
 * deep runs and chat, each outcome scored.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { startService } from '../test/support/service-process';
import type { DataSet, Part, Question } from './realtext-data';
import { fts5, minisearch } from './realtext-peers';
import { best, containsGold, f1, firstParagraph, firstSentence, scoreAnswer, withoutSources } from './realtext-scoring';
import { api, chat, deepRun, pool, runTask } from './realtext-service';

const escapeHtml = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

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

export interface Outcome {
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

export async function measureSet(
  set: DataSet,
  processor: string,
): Promise<{ outcomes: Outcome[]; times: Record<string, number[]>; unknownUrls: number; seconds: number }> {
  const started = performance.now();
  const folder = writePages(set);
  const times: Record<string, number[]> = { service: [], fts5: [], minisearch: [], task: [], deep: [], chat: [] };
  const peers = [fts5(set.pages), minisearch(set.pages)];
  const byKey = new Map(set.pages.map((p) => [urlKey(p.url), p.id]));
  let unknownUrls = 0;
  const outcomes = new Map<string, Outcome>();
  const svc = await startService(
    'standalone',
    { LOCAL_INDEX_DIR: folder, LOG_LEVEL: 'warn', RATE_LIMIT_RPS: '0' },
    { readyTimeoutMs: 120_000 },
  );
  const hits = (top: number[], gold: number[]) => ({
    all: gold.every((g) => top.includes(g)),
    any: gold.some((g) => top.includes(g)),
    top,
  });
  try {
    for (const q of set.questions) {
      const o: Outcome = {
        id: q.id,
        part: q.part,
        type: q.type,
        answerable: q.answerable,
        question: q.question,
        gold: q.answers,
        search: {},
        errors: [],
      };
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
      const { status, json, ms } = await api<{ results: Array<{ url: string }> }>(svc, 'POST', '/v1/search', {
        queries: [q.question],
        limit: 10,
      });
      if (status !== 200) throw new Error(`search refused: ${status} ${JSON.stringify(json).slice(0, 300)}`);
      times.service!.push(ms);
      const top = json.results.slice(0, 10).map((r) => {
        const id = byKey.get(urlKey(r.url));
        if (id === undefined) unknownUrls++;
        return id ?? -1;
      });
      o.search.service = hits(top, q.gold);
    });
    process.stderr.write(
      `[realtext] ${set.name}: searches done at ${((performance.now() - started) / 1000).toFixed(0)} s\n`,
    );
    await pool(
      set.questions.filter((q) => q.task),
      async (q) => {
        const o = outcomes.get(q.id)!;
        try {
          const r = await runTask(svc, q.question, processor);
          times.task!.push(r.ms);
          o.task = { answer: r.answer, ...scoreAnswer(q, r.answer), confidence: r.confidence, status: r.status };
        } catch (error) {
          o.errors.push(`task: ${(error as Error).message}`);
        }
      },
    );
    process.stderr.write(
      `[realtext] ${set.name}: tasks done at ${((performance.now() - started) / 1000).toFixed(0)} s\n`,
    );
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
    process.stderr.write(
      `[realtext] ${set.name}: deep runs done at ${((performance.now() - started) / 1000).toFixed(0)} s\n`,
    );
    await pool(
      set.questions.filter((q) => q.deep),
      async (q) => {
        const o = outcomes.get(q.id)!;
        try {
          const { reply, ms } = await chat(svc, q.question);
          times.chat!.push(ms);
          o.chat = {
            reply,
            contains: q.answers.some((g) => containsGold(withoutSources(reply), g)),
            f1: best(q.answers, (g) => f1(firstSentence(firstParagraph(reply)), g)),
          };
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
