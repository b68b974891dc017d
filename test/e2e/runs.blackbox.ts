import { EventSource } from 'eventsource';
import { Webhook } from 'standardwebhooks';
import WebSocket from 'ws';
import { bearer } from '../support/service-process';
import { type E2eContext, json } from './harness';

type Frame = { id: string; event: string; data: Record<string, unknown> };
type View = Record<string, unknown> & { status: string | { status: string } };

/** How one run kind is reached over HTTP: the black-box suite below is the same for every kind. */
export interface RunKindRoutes {
  name: string;
  idField: string;
  /** Creates a run (202) and returns its view. */
  create(ctx: E2eContext, extra?: Record<string, unknown>): Promise<View>;
  view: (id: string) => string;
  list: string;
  listKey: string;
  cancel: (id: string) => string;
  sse: (id: string) => string;
  ws: (id: string) => string;
  history: (id: string) => string;
  /** The JSON page of recorded events, where the kind has one. */
  recorded?: (id: string) => string;
  webhookType: string;
}

const headers = (ctx: E2eContext) => ({ ...bearer(ctx.svc.demoKey), 'Content-Type': 'application/json' });

export const SEARCH_ROUTES: RunKindRoutes = {
  name: 'deep search',
  idField: 'search_id',
  async create(ctx, extra = {}) {
    const response = await fetch(`${ctx.svc.baseUrl}/v1/search`, {
      method: 'POST',
      headers: headers(ctx),
      body: JSON.stringify({
        depth: 'deep',
        queries: ['sodium-ion battery', 'tram extension'],
        max_fetches: 6,
        ...extra,
      }),
    });
    expect(response.status).toBe(202);
    return json(response);
  },
  view: (id) => `/v1/searches/${id}`,
  list: '/v1/searches',
  listKey: 'searches',
  cancel: (id) => `/v1/searches/${id}/cancel`,
  sse: (id) => `/v1/searches/${id}/events`,
  ws: (id) => `/v1/searches/${id}/ws`,
  history: (id) => `/v1/searches/${id}/history`,
  webhookType: 'search_run',
};

export const TASK_ROUTES: RunKindRoutes = {
  name: 'task',
  idField: 'task_id',
  async create(ctx, extra = {}) {
    const response = await fetch(`${ctx.svc.baseUrl}/v1/tasks/runs`, {
      method: 'POST',
      headers: headers(ctx),
      body: JSON.stringify({ task: 'Who founded Acme Robotics and when?', processor: 'core', ...extra }),
    });
    expect(response.status).toBe(202);
    return json(response);
  },
  view: (id) => `/v1/tasks/runs/${id}`,
  list: '/v1/tasks',
  listKey: 'tasks',
  cancel: (id) => `/v1/tasks/${id}/cancel`,
  sse: (id) => `/v1/tasks/runs/${id}/events`,
  ws: (id) => `/v1/tasks/runs/${id}/ws`,
  history: (id) => `/v1/tasks/${id}/history`,
  recorded: (id) => `/v1/tasks/${id}/events`,
  webhookType: 'task_run',
};

export const FINDALL_ROUTES: RunKindRoutes = {
  name: 'FindAll',
  idField: 'findall_id',
  async create(ctx, extra = {}) {
    const response = await fetch(`${ctx.svc.baseUrl}/v1/findall/runs`, {
      method: 'POST',
      headers: headers(ctx),
      body: JSON.stringify({ query: 'robotics companies headquartered in Pittsburgh', limit: 5, ...extra }),
    });
    expect(response.status).toBe(202);
    return json(response);
  },
  view: (id) => `/v1/findall/runs/${id}`,
  list: '/v1/findall/runs',
  listKey: 'runs',
  cancel: (id) => `/v1/findall/runs/${id}/cancel`,
  sse: (id) => `/v1/findall/runs/${id}/events`,
  ws: (id) => `/v1/findall/runs/${id}/ws`,
  history: (id) => `/v1/findall/runs/${id}/history`,
  webhookType: 'findall_run',
};

/** The public event names a run's SSE stream carries (shared with the fault suites that follow runs). */
export const PUBLIC_NAMES = [
  'run.queued',
  'run.started',
  'plan.created',
  'serp.page',
  'page.fetched',
  'finding.graded',
  'results.updated',
  'entity.found',
  'run.completed',
  'run.failed',
  'run.cancelled',
];
export const TERMINAL = new Set(['run.completed', 'run.failed', 'run.cancelled']);
/** A run's status as a word (a FindAll run's is an object once it ended). */
const statusOf = (view: View): string =>
  typeof view.status === 'string' ? view.status : (view.status as { status: string }).status;

/**
 * One black-box suite for every run kind (DESIGN.md 3b): create, view, list, a 409 on cancelling a
 * finished run, SSE resume with Last-Event-ID, WebSocket resume_from, the recorded events page,
 * history, the signed webhook, and another team's 404.
 */
export function runSuite(ctx: E2eContext, kind: RunKindRoutes): void {
  describe(`${kind.name} runs: the shared run machinery over HTTP`, () => {
    const get = async (path: string, key = ctx.svc.demoKey) =>
      fetch(`${ctx.svc.baseUrl}${path}`, { headers: bearer(key) });
    const finished = async (id: string): Promise<View> => {
      const deadline = Date.now() + 30_000;
      for (;;) {
        const view = (await json(await get(kind.view(id)))) as View;
        if (!['queued', 'running'].includes(statusOf(view))) return view;
        if (Date.now() > deadline) throw new Error(`${kind.name} run ${id} stayed ${statusOf(view)}`);
        await new Promise((r) => setTimeout(r, 25));
      }
    };
    const idOf = (view: View) => String(view[kind.idField]);
    const history = async (id: string) =>
      (await json(await get(kind.history(id)))).events as { revision: string; type: string }[];

    it('creates, completes, lists newest first, and keeps its history', async () => {
      const first = await kind.create(ctx);
      const second = await kind.create(ctx);
      // The view after a create is at least as new as the create; it may already show the end.
      expect(['queued', 'running', 'completed']).toContain(statusOf(first));
      expect(statusOf(await finished(idOf(first)))).toBe('completed');
      expect(statusOf(await finished(idOf(second)))).toBe('completed');
      const page = await json(await get(`${kind.list}?limit=2&offset=0`));
      const ids = (page[kind.listKey] as Record<string, unknown>[]).map((item) => item.id ?? item[kind.idField]);
      expect(ids).toEqual([idOf(second), idOf(first)]);
      const events = await history(idOf(first));
      expect(events[0]!.type).toMatch(/Requested$/);
      expect(events.map((e) => e.type)).toEqual(
        expect.arrayContaining([
          expect.stringMatching(/Started$/),
          'CreditsCharged',
          expect.stringMatching(/Completed$/),
        ]),
      );
      expect(events.every((e, i) => i === 0 || BigInt(e.revision) > BigInt(events[i - 1]!.revision))).toBe(true);
    });

    it('cancelling a finished run is a 409 and changes nothing', async () => {
      const run = await kind.create(ctx);
      const done = await finished(idOf(run));
      const response = await fetch(`${ctx.svc.baseUrl}${kind.cancel(idOf(run))}`, {
        method: 'POST',
        headers: bearer(ctx.svc.demoKey),
      });
      expect(response.status).toBe(409);
      expect(await json(response)).toEqual({ detail: expect.stringContaining('completed') });
      expect(statusOf((await json(await get(kind.view(idOf(run))))) as View)).toBe(statusOf(done));
    });

    it('SSE: reconnecting with Last-Event-ID gets every event exactly once, in order, ending with the full view', async () => {
      const run = await kind.create(ctx);
      const id = idOf(run);
      const connect = (lastEventId: string | undefined, stopAfter: number | null) =>
        new Promise<Frame[]>((resolve, reject) => {
          const frames: Frame[] = [];
          let closed = false;
          const source = new EventSource(`${ctx.svc.baseUrl}${kind.sse(id)}`, {
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
          for (const name of PUBLIC_NAMES) {
            source.addEventListener(name, (message) => {
              if (closed) return;
              frames.push({ id: message.lastEventId, event: name, data: JSON.parse(message.data) });
              if (TERMINAL.has(name) || (stopAfter !== null && frames.length >= stopAfter)) {
                closed = true;
                source.close();
                resolve(frames);
              }
            });
          }
          source.onerror = (error) => {
            source.close();
            if (frames.length) resolve(frames);
            else reject(new Error(`SSE error: ${String((error as { message?: string }).message ?? error)}`));
          };
        });
      const first = await connect(undefined, 2);
      const second = await connect(first[first.length - 1]!.id, null);
      const all = [...first, ...second];
      expect(all[0]!.event).toBe('run.queued');
      expect(all[all.length - 1]!.event).toBe('run.completed');
      expect(all[all.length - 1]!.data[kind.idField]).toBe(id);
      const ids = all.map((f) => f.id);
      expect(new Set(ids).size).toBe(ids.length);
      for (let i = 1; i < ids.length; i++) expect(BigInt(ids[i]!)).toBeGreaterThan(BigInt(ids[i - 1]!));
      if (kind.recorded) {
        const recorded = await json(await get(`${kind.recorded(id)}?limit=100`));
        expect(recorded.events.map((e: Frame) => e.id)).toEqual(ids);
        expect(recorded.total).toBe(ids.length);
        const page = await json(await get(`${kind.recorded(id)}?limit=2&offset=1`));
        expect(page.events.map((e: Frame) => e.id)).toEqual(ids.slice(1, 3));
      }
    });

    it('WebSocket: resume_from gives every later event exactly once', async () => {
      const run = await kind.create(ctx);
      const id = idOf(run);
      await finished(id);
      const url = `${ctx.svc.baseUrl.replace('http', 'ws')}${kind.ws(id)}`;
      const collect = (resumeFrom?: string) =>
        new Promise<Frame[]>((resolve, reject) => {
          const frames: Frame[] = [];
          const socket = new WebSocket(url, { headers: bearer(ctx.svc.demoKey) });
          socket.on(
            'open',
            () => resumeFrom !== undefined && socket.send(JSON.stringify({ resume_from: Number(resumeFrom) })),
          );
          socket.on('message', (data) => frames.push(JSON.parse(data.toString()) as Frame));
          socket.on('close', () => resolve(frames));
          socket.on('error', reject);
        });
      const all = await collect();
      expect(all[all.length - 1]!.event).toBe('run.completed');
      const resumed = await collect(all[1]!.id);
      expect(resumed.map((f) => f.id)).toEqual(all.slice(2).map((f) => f.id));
    });

    it('delivers the finished run to its webhook, signed with the team’s secret, under one webhook-id', async () => {
      const run = await kind.create(ctx, { webhook: `http://127.0.0.1:${ctx.hookPort}/hooks/${kind.webhookType}` });
      const id = idOf(run);
      await finished(id);
      const mine = () =>
        ctx.hooks.filter((h) => (JSON.parse(h.body) as { data?: Record<string, unknown> }).data?.[kind.idField] === id);
      const deadline = Date.now() + 20_000;
      while (!mine().some((h) => h.status < 300) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      const attempts = mine();
      expect(attempts.map((h) => h.status)).toEqual([500, 500, 204]);
      const verified = new Webhook(ctx.svc.demoWebhookSecret).verify(
        attempts[2]!.body,
        attempts[2]!.headers as Record<string, string>,
      ) as { type: string; data: View };
      expect(verified.type).toBe(`${kind.webhookType}.completed`);
      expect(statusOf(verified.data)).toBe('completed');
      expect(new Set(attempts.map((h) => h.headers['webhook-id'])).size).toBe(1);
    });

    it('another team’s key gets 404 for the run and every route under it', async () => {
      const run = await kind.create(ctx);
      const id = idOf(run);
      await finished(id);
      const other = (await ctx.svc.keys('create', '--team', `stranger-${kind.listKey}`)).stdout.trim();
      expect(other).toMatch(/^wr_/);
      ctx.secrets.push(other);
      for (let i = 0; i < 50 && (await get(kind.list, other)).status !== 200; i++)
        await new Promise((r) => setTimeout(r, 20));
      const routes = [kind.view(id), kind.history(id), kind.sse(id), ...(kind.recorded ? [kind.recorded(id)] : [])];
      for (const route of routes) {
        const response = await get(route, other);
        expect(response.status).toBe(404);
        expect(await json(response)).toEqual({ detail: expect.stringContaining(id) });
      }
      expect(
        (await fetch(`${ctx.svc.baseUrl}${kind.cancel(id)}`, { method: 'POST', headers: bearer(other) })).status,
      ).toBe(404);
      const ws = await new Promise<number>((resolve) => {
        const socket = new WebSocket(`${ctx.svc.baseUrl.replace('http', 'ws')}${kind.ws(id)}`, {
          headers: bearer(other),
        });
        socket.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
        socket.on('error', () => undefined);
      });
      expect(ws).toBe(404);
      expect((await json(await get(kind.list, other))).total).toBe(0);
    });
  });
}
