import { EventSource } from 'eventsource';
import { Webhook } from 'standardwebhooks';
import WebSocket from 'ws';
import { bearer } from '../support/service-process';
import { type E2eContext, json } from './harness';

type View = {
  search_id: string;
  status: string;
  queries: string[];
  depth: string;
  credits: number;
  results: { url: string }[];
  pagesFetched: number;
  pagesTarget: number;
  report: string | null;
  findings: { subquery: string; citations: number[] }[] | null;
  sources: { index: number; url: string }[] | null;
  usage: Record<string, unknown> | null;
  usage_items: unknown[];
  error: string | null;
};
type Frame = { id: string; event: string; data: unknown };

const PUBLIC_TYPES = new Set([
  'SearchRunRequested',
  'SearchRunStarted',
  'SubqueriesPlanned',
  'SerpPageFetched',
  'PageFetched',
  'FindingGraded',
  'ResultsMerged',
  'SearchRunCompleted',
  'SearchRunFailed',
  'SearchRunCancelled',
]);

/** Deep search runs over HTTP: polling, list, cancel, history, SSE and WebSocket resume, webhooks. */
export function deepSuite(ctx: E2eContext): void {
  describe('deep search runs over HTTP', () => {
    const headers = () => ({ ...bearer(ctx.svc.demoKey), 'Content-Type': 'application/json' });
    const start = async (body: Record<string, unknown>): Promise<View> => {
      const response = await fetch(`${ctx.svc.baseUrl}/v1/search`, {
        method: 'POST',
        headers: headers(),
        body: JSON.stringify({ depth: 'deep', ...body }),
      });
      expect(response.status).toBe(202);
      return json(response);
    };
    const get = async (id: string): Promise<View> =>
      json(await fetch(`${ctx.svc.baseUrl}/v1/searches/${id}`, { headers: headers() }));
    const until = async (
      id: string,
      done: (view: View) => boolean,
      timeoutMs = 30_000,
      seen: View[] = [],
    ): Promise<View> => {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const view = await get(id);
        seen.push(view);
        if (done(view)) return view;
        if (Date.now() > deadline) throw new Error(`run ${id} stayed ${view.status}`);
        await new Promise((r) => setTimeout(r, 20));
      }
    };
    const publicHistory = async (id: string) =>
      (
        (await json(await fetch(`${ctx.svc.baseUrl}/v1/searches/${id}/history`, { headers: headers() }))).events as {
          revision: string;
          type: string;
        }[]
      )
        .filter((e) => PUBLIC_TYPES.has(e.type))
        .map((e) => e.revision);

    it('runs to completion with a cited report, sources, findings, credits per query and usage; pagesFetched rises', async () => {
      const queued = await start({
        queries: ['sodium-ion battery cathode', 'Harborview battery plant'],
        prompt: 'What is new in sodium-ion batteries around Harborview?',
      });
      expect(queued).toMatchObject({
        status: expect.stringMatching(/queued|running/),
        depth: 'deep',
        credits: 0,
        report: null,
        findings: null,
        sources: null,
        error: null,
      });
      const seen: View[] = [];
      const done = await until(
        queued.search_id,
        (v) => v.status === 'completed' || v.status === 'failed',
        30_000,
        seen,
      );
      expect(done.status).toBe('completed');
      expect(done.credits).toBe(2);
      expect(done.usage_items).toEqual([{ sku: 'sku_deep_search', quantity: 2, credits: 2 }]);
      expect(done.sources!.length).toBeGreaterThan(0);
      expect(done.findings!.length).toBeGreaterThan(0);
      expect(done.results.length).toBeGreaterThan(0);
      const indexes = new Set(done.sources!.map((s) => s.index));
      const cited = [...done.report!.matchAll(/\[(\d+)\]/g)].map((m) => Number(m[1]));
      expect(cited.length).toBeGreaterThan(0);
      for (const n of cited) expect(indexes.has(n)).toBe(true);
      for (const finding of done.findings!) for (const n of finding.citations) expect(indexes.has(n)).toBe(true);
      expect(done.usage).toMatchObject({
        planner_calls: expect.any(Number),
        grader_calls: expect.any(Number),
        synth_calls: expect.any(Number),
        search_queries: expect.any(Number),
        pages_fetched: expect.any(Number),
      });
      const pages = seen.map((v) => v.pagesFetched);
      for (let i = 1; i < pages.length; i++) expect(pages[i]).toBeGreaterThanOrEqual(pages[i - 1]);
      expect(done.pagesFetched).toBe(done.pagesTarget);
      expect(done.pagesFetched).toBeGreaterThan(0);
      const usage = await json(await fetch(`${ctx.svc.baseUrl}/v1/usage`, { headers: headers() }));
      expect(usage.days.some((d: { sku: string }) => d.sku === 'sku_deep_search')).toBe(true);
    });

    it('lists runs newest first with limit and offset, and keeps other teams’ runs invisible (404)', async () => {
      const a = await start({ queries: ['tram extension'] });
      const b = await start({ queries: ['harbour regatta'] });
      const page = await json(await fetch(`${ctx.svc.baseUrl}/v1/searches?limit=1&offset=0`, { headers: headers() }));
      expect(page).toMatchObject({ limit: 1, offset: 0, total: expect.any(Number) });
      expect(page.searches).toHaveLength(1);
      expect(page.searches[0]).toMatchObject({ id: b.search_id, query: 'harbour regatta', status: expect.any(String) });
      const next = await json(await fetch(`${ctx.svc.baseUrl}/v1/searches?limit=1&offset=1`, { headers: headers() }));
      expect(next.searches[0].id).toBe(a.search_id);
      const bad = await fetch(`${ctx.svc.baseUrl}/v1/searches?limit=101`, { headers: headers() });
      expect(bad.status).toBe(422);

      const other = (await ctx.svc.keys('create', '--team', 'deep-other')).stdout.trim();
      ctx.secrets.push(other);
      for (
        let i = 0;
        i < 50 && (await fetch(`${ctx.svc.baseUrl}/v1/searches`, { headers: bearer(other) })).status !== 200;
        i++
      )
        await new Promise((r) => setTimeout(r, 20));
      for (const route of [
        `/v1/searches/${a.search_id}`,
        `/v1/searches/${a.search_id}/history`,
        `/v1/searches/${a.search_id}/events`,
      ]) {
        const response = await fetch(`${ctx.svc.baseUrl}${route}`, { headers: bearer(other) });
        expect(response.status).toBe(404);
        expect(await json(response)).toEqual({ detail: expect.stringContaining(a.search_id) });
      }
      const cancel = await fetch(`${ctx.svc.baseUrl}/v1/searches/${a.search_id}/cancel`, {
        method: 'POST',
        headers: bearer(other),
      });
      expect(cancel.status).toBe(404);
      expect((await json(await fetch(`${ctx.svc.baseUrl}/v1/searches`, { headers: bearer(other) }))).total).toBe(0);
      await until(b.search_id, (v) => !['queued', 'running'].includes(v.status));
      await until(a.search_id, (v) => !['queued', 'running'].includes(v.status));
    });

    it('SSE: a client that reconnects with Last-Event-ID receives every event exactly once, in order', async () => {
      const run = await start({ queries: ['sodium-ion cathode', 'battery plant', 'tram'], max_fetches: 12 });
      const connect = (lastEventId: string | undefined, stopAfter: number | null) =>
        new Promise<{ frames: Frame[] }>((resolve, reject) => {
          const frames: Frame[] = [];
          let closed = false;
          const source = new EventSource(`${ctx.svc.baseUrl}/v1/searches/${run.search_id}/events`, {
            fetch: (input, init) =>
              fetch(input, {
                ...init,
                headers: {
                  ...(init?.headers as Record<string, string>),
                  ...bearer(ctx.svc.demoKey),
                  ...(lastEventId ? { 'Last-Event-ID': lastEventId } : {}),
                },
              }),
          });
          const names = [
            'run.queued',
            'run.started',
            'plan.created',
            'serp.page',
            'page.fetched',
            'finding.graded',
            'results.updated',
            'run.completed',
            'run.failed',
            'run.cancelled',
          ];
          for (const name of names) {
            source.addEventListener(name, (message) => {
              if (closed) return; // events already buffered when the client hung up
              frames.push({ id: message.lastEventId, event: name, data: JSON.parse(message.data) });
              const terminal = name.startsWith('run.') && name !== 'run.queued' && name !== 'run.started';
              if (terminal || (stopAfter !== null && frames.length >= stopAfter)) {
                closed = true;
                source.close();
                resolve({ frames });
              }
            });
          }
          source.onerror = (error) => {
            source.close();
            if (frames.length) resolve({ frames });
            else reject(new Error(`SSE error: ${String((error as { message?: string }).message ?? error)}`));
          };
        });
      const first = await connect(undefined, 3);
      expect(first.frames[0].event).toBe('run.queued');
      const second = await connect(first.frames[first.frames.length - 1].id, null);
      const ids = [...first.frames, ...second.frames].map((f) => f.id);
      expect(second.frames[second.frames.length - 1].event).toBe('run.completed');
      expect((second.frames[second.frames.length - 1].data as View).report).toContain('[1]');
      expect(ids).toEqual(await publicHistory(run.search_id));
      for (let i = 1; i < ids.length; i++) expect(BigInt(ids[i])).toBeGreaterThan(BigInt(ids[i - 1]));
    });

    it('WebSocket: resuming with resume_from gives every event exactly once, in order', async () => {
      const run = await start({ queries: ['robot picking arm', 'warehouse'], max_fetches: 10 });
      const url = `${ctx.svc.baseUrl.replace('http', 'ws')}/v1/searches/${run.search_id}/ws`;
      const collect = (resumeFrom: string | undefined, stopAfter: number | null) =>
        new Promise<Frame[]>((resolve, reject) => {
          const frames: Frame[] = [];
          const socket = new WebSocket(url, { headers: bearer(ctx.svc.demoKey) });
          socket.on(
            'open',
            () => resumeFrom !== undefined && socket.send(JSON.stringify({ resume_from: Number(resumeFrom) })),
          );
          socket.on('message', (data) => {
            if (stopAfter !== null && frames.length >= stopAfter) return; // already hanging up
            frames.push(JSON.parse(data.toString()) as Frame);
            if (stopAfter !== null && frames.length >= stopAfter) socket.close();
          });
          socket.on('close', () => resolve(frames));
          socket.on('error', reject);
        });
      const first = await collect(undefined, 2);
      const second = await collect(first[first.length - 1].id, null);
      const all = [...first, ...second];
      expect(all[all.length - 1].event).toBe('run.completed');
      expect(all.map((f) => f.id)).toEqual(await publicHistory(run.search_id));
      const refused = await new Promise<number>((resolve) => {
        const socket = new WebSocket(url);
        socket.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
        socket.on('error', () => undefined);
      });
      expect(refused).toBe(401);
    });

    it('delivers the finished run to its webhook, signed per Standard Webhooks with the team’s secret', async () => {
      const run = await start({ queries: ['library renovation'], webhook: `http://127.0.0.1:${ctx.hookPort}/hooks` });
      await until(run.search_id, (v) => v.status === 'completed');
      const deadline = Date.now() + 20_000;
      while (ctx.hooks.filter((h) => h.status < 300).length === 0 && Date.now() < deadline)
        await new Promise((r) => setTimeout(r, 50));
      const accepted = ctx.hooks.filter((h) => h.status < 300);
      expect(accepted).toHaveLength(1);
      const verified = new Webhook(ctx.svc.demoWebhookSecret).verify(
        accepted[0].body,
        accepted[0].headers as Record<string, string>,
      ) as { type: string; data: View };
      expect(verified.type).toBe('search_run.completed');
      expect(verified.data.search_id).toBe(run.search_id);
      // The receiver fails a delivery's first two attempts: one accepted delivery, one webhook-id.
      const attempts = ctx.hooks.filter((h) => JSON.parse(h.body).data?.search_id === run.search_id);
      expect(attempts.map((h) => h.status)).toEqual([500, 500, 204]);
      expect(new Set(attempts.map((h) => h.headers['webhook-id'])).size).toBe(1);
    });
  });
}
