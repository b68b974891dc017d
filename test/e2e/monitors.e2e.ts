import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { Webhook } from 'standardwebhooks';
import { ReplayServer } from '../support/replay-server';
import { bearer, type RunningService, startService } from '../support/service-process';
import { json } from './harness';

jest.setTimeout(120_000);

type Row = { url: string; title: string; date?: string };
type MonitorEvent = {
  event_id: string;
  status: string;
  mode: string;
  results_count: number;
  results: Row[];
  added: Row[];
  removed: Row[];
  matched: boolean | null;
  error: string | null;
  slots_covered: number;
};

/** A SearXNG stand-in whose answer the test sets between runs. */
async function changingSearch(): Promise<{ server: ReplayServer; set(rows: Row[]): void }> {
  let rows: Row[] = [];
  const server = await ReplayServer.start({
    routes: [
      {
        path: '/search',
        respond: (req) => ({
          body: {
            query: req.query.q,
            number_of_results: rows.length,
            results: rows.map((r, i) => ({
              url: r.url,
              title: r.title,
              content: `${r.title}.`,
              publishedDate: r.date ?? null,
              engine: 'stub',
              engines: ['stub'],
              score: 10 - i,
              category: 'general',
            })),
            answers: [],
            corrections: [],
            infoboxes: [],
            suggestions: [],
            unresponsive_engines: [],
          },
        }),
      },
    ],
  });
  return { server, set: (next) => (rows = next) };
}

const row = (n: number, title = `Battery story ${n}`): Row => ({ url: `https://news.example.test/story-${n}`, title });

describe('monitors over HTTP (standalone, a search whose answers change, a settable clock)', () => {
  let svc: RunningService;
  let search: Awaited<ReturnType<typeof changingSearch>>;
  let clockFile: string;
  let receiver: http.Server;
  const hooks: { headers: http.IncomingHttpHeaders; body: string; status: number; at: number }[] = [];
  /** Per webhook-id: the statuses to answer, in order (then 204). */
  const script = new Map<string, number[]>();
  let defaultScript: number[] = [];
  const setClock = (iso: string) => fs.writeFileSync(clockFile, iso);
  const T0 = Date.parse('2026-06-01T00:00:00.000Z');
  const at = (hours: number) => new Date(T0 + hours * 3_600_000).toISOString();

  beforeAll(async () => {
    search = await changingSearch();
    clockFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'wr-clock-')), 'now');
    setClock(at(0));
    receiver = http.createServer((req, res) => {
      let body = '';
      req.on('data', (chunk) => (body += chunk));
      req.on('end', () => {
        const id = String(req.headers['webhook-id']);
        if (!script.has(id)) script.set(id, [...defaultScript]);
        const status = script.get(id)!.shift() ?? 204;
        hooks.push({ headers: req.headers, body, status, at: Date.now() });
        res.writeHead(status).end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    svc = await startService('standalone', {
      SEARCH_PROVIDER: 'searxng',
      SEARXNG_URL: search.server.url,
      SEARXNG_RPS: '0',
      MONITOR_CLOCK_FILE: clockFile,
      MONITOR_TICK_MS: '50',
      FETCH_ALLOW_HOSTS: `127.0.0.1:${(receiver.address() as AddressInfo).port}`,
    });
  }, 60_000);
  afterAll(async () => {
    await svc?.stop();
    await search?.server.close();
    receiver?.close();
  });

  const headers = () => ({ ...bearer(svc.demoKey), 'Content-Type': 'application/json' });
  const call = (method: string, route: string, body?: unknown) =>
    fetch(`${svc.baseUrl}${route}`, {
      method,
      headers: headers(),
      ...(body !== undefined && { body: JSON.stringify(body) }),
    });
  const create = async (body: Record<string, unknown>) => {
    const response = await call('POST', '/v1/monitors', body);
    expect(response.status).toBe(201);
    return json(response);
  };
  const runNow = async (id: string): Promise<MonitorEvent> => {
    const response = await call('POST', `/v1/monitors/${id}/run`);
    expect(response.status).toBe(202);
    return json(response);
  };
  const hookUrl = () => `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;

  it('creates with every default, never returns the secret, and does not run on creation', async () => {
    const monitor = await create({
      query: 'battery news',
      webhook_secret: `whsec_${randomBytes(24).toString('base64')}`,
    });
    expect(monitor).toMatchObject({
      query: 'battery news',
      cadence: 'daily',
      cron: null,
      mode: 'diff',
      filter_prompt: null,
      notify_on: ['change', 'match', 'error'],
      webhook: null,
      webhook_max_attempts: 3,
      webhook_backoff_seconds: 30,
      webhook_secret_set: true,
      country: 'us',
      language: 'en',
      status: 'active',
      metadata: {},
      runs: 0,
      lastRunAt: null,
      last_result: null,
      last_webhook_status: null,
      last_webhook_at: null,
      last_webhook_error: null,
    });
    expect(monitor).not.toHaveProperty('webhook_secret');
    expect(monitor.nextRunAt).toBe(new Date(Date.parse(monitor.createdAt) + 86_400_000).toISOString());
    const bad = await call('POST', '/v1/monitors', {
      query: 'x',
      webhook_secret: 'whsec_c2hvcnQ=',
      cron: '61 * * * *',
    });
    expect(bad.status).toBe(422);
    const detail = (await json(bad)).detail as { loc: string[]; type: string }[];
    expect(detail.map((d) => d.loc.join('.'))).toEqual(['body.cron', 'body.webhook_secret']);
    expect(JSON.stringify(detail)).not.toContain('c2hvcnQ');
  });

  it('diff mode reports added and removed rows; snapshot mode the full rows; a filter_prompt sets matched', async () => {
    const diff = await create({ query: 'battery news', mode: 'diff' });
    search.set([row(1), row(2)]);
    const first = await runNow(diff.id);
    expect(first).toMatchObject({ status: 'changed', mode: 'diff', results_count: 2, matched: null, error: null });
    expect(first.added.map((r) => r.url)).toEqual([row(1).url, row(2).url]);
    search.set([row(2), row(3)]);
    const second = await runNow(diff.id);
    expect(second.added.map((r) => r.url)).toEqual([row(3).url]);
    expect(second.removed.map((r) => r.url)).toEqual([row(1).url]);
    const third = await runNow(diff.id);
    expect(third).toMatchObject({ status: 'unchanged', added: [], removed: [] });

    const snapshot = await create({ query: 'battery news', mode: 'snapshot' });
    search.set([row(4), row(5)]);
    expect(await runNow(snapshot.id)).toMatchObject({ status: 'changed', results_count: 2, added: [], removed: [] });
    expect((await runNow(snapshot.id)).status).toBe('unchanged');
    search.set([row(4)]);
    const shrunk = await runNow(snapshot.id);
    expect(shrunk).toMatchObject({ status: 'changed', results_count: 1 });
    expect(shrunk.results.map((r) => r.url)).toEqual([row(4).url]);

    const filtered = await create({ query: 'battery news', filter_prompt: 'mentions recall' });
    search.set([row(6), row(7, 'Battery recall announced')]);
    const matched = await runNow(filtered.id);
    expect(matched).toMatchObject({ status: 'matched', matched: true, results_count: 1 });
    expect(matched.results[0]!.title).toBe('Battery recall announced');
    search.set([row(6)]);
    expect(await runNow(filtered.id)).toMatchObject({ matched: false, results_count: 0 });
    const unreadable = await create({ query: 'battery news', filter_prompt: 'is written by an expert' });
    expect(await runNow(unreadable.id)).toMatchObject({
      status: 'error',
      error: expect.stringContaining('cannot evaluate'),
    });

    const events = await json(await call('GET', `/v1/monitors/${diff.id}/events?limit=2`));
    expect(events).toMatchObject({ total: 3, limit: 2, offset: 0 });
    expect(events.events.map((e: MonitorEvent) => e.event_id)).toEqual([third.event_id, second.event_id]);
    const view = await json(await call('GET', `/v1/monitors/${diff.id}`));
    expect(view).toMatchObject({
      runs: 3,
      last_result: { event_id: third.event_id, results_count: 2, status: 'unchanged' },
    });
    const usage = await json(await call('GET', '/v1/usage?from=2020-01-01&to=2099-12-31'));
    expect(usage.days.some((d: { sku: string }) => d.sku === 'sku_monitor_run')).toBe(true);
  });

  it('scheduled runs follow the clock; pause nulls nextRunAt and stops them; resume restores; run-now works while paused; catch-up covers missed slots', async () => {
    setClock(at(0));
    const monitor = await create({ query: 'battery news', cadence: 'hourly' });
    search.set([row(1)]);
    const history = async () =>
      (await json(await call('GET', `/v1/monitors/${monitor.id}/history`))).events as {
        type: string;
        data: { slots_covered?: number };
      }[];
    const starts = async () => (await history()).filter((e) => e.type === 'MonitorRunStarted');
    const waitFor = async (what: () => Promise<boolean>) => {
      for (let i = 0; i < 200; i++) {
        if (await what()) return;
        await new Promise((r) => setTimeout(r, 25));
      }
      throw new Error('timed out');
    };
    const createdAt = Date.parse(monitor.createdAt);
    const slot = (k: number) => new Date(createdAt + k * 3_600_000).toISOString();
    setClock(slot(1));
    await waitFor(async () => (await starts()).length === 1);
    await waitFor(async () => (await json(await call('GET', `/v1/monitors/${monitor.id}`))).last_result !== null);
    expect((await json(await call('GET', `/v1/monitors/${monitor.id}`))).nextRunAt).toBe(slot(2));

    const paused = await json(await call('POST', `/v1/monitors/${monitor.id}/pause`));
    expect(paused).toMatchObject({ status: 'paused', nextRunAt: null });
    expect((await call('POST', `/v1/monitors/${monitor.id}/pause`)).status).toBe(200);
    setClock(slot(3));
    await new Promise((r) => setTimeout(r, 300));
    expect(await starts()).toHaveLength(1);
    expect((await runNow(monitor.id)).status).toBe('unchanged');
    const resumed = await json(await call('POST', `/v1/monitors/${monitor.id}/resume`));
    expect(resumed.status).toBe('active');
    expect(resumed.nextRunAt).toBe(slot(4));

    setClock(slot(7.5));
    await waitFor(async () => (await starts()).length === 3);
    const last = (await starts())[2]!;
    expect(last.data.slots_covered).toBe(4);
    await new Promise((r) => setTimeout(r, 200));
    expect(await starts()).toHaveLength(3);
  });

  it('after delete, GET is a 404 while /events and /history stay readable', async () => {
    const monitor = await create({ query: 'battery news' });
    search.set([row(1)]);
    await runNow(monitor.id);
    expect((await call('DELETE', `/v1/monitors/${monitor.id}`)).status).toBe(204);
    expect((await call('GET', `/v1/monitors/${monitor.id}`)).status).toBe(404);
    expect((await call('DELETE', `/v1/monitors/${monitor.id}`)).status).toBe(404);
    expect((await json(await call('GET', `/v1/monitors/${monitor.id}/events`))).total).toBe(1);
    const history = (await json(await call('GET', `/v1/monitors/${monitor.id}/history`))).events as { type: string }[];
    expect(history.map((e) => e.type)).toEqual(
      expect.arrayContaining(['MonitorCreated', 'MonitorEventRecorded', 'MonitorDeleted']),
    );
    expect((await json(await call('GET', '/v1/monitors'))).monitors.map((m: { id: string }) => m.id)).not.toContain(
      monitor.id,
    );
  });

  it('PATCH changes some fields; webhook_secret null clears it', async () => {
    const monitor = await create({
      query: 'battery news',
      webhook_secret: `whsec_${randomBytes(32).toString('base64')}`,
    });
    const patched = await json(
      await call('PATCH', `/v1/monitors/${monitor.id}`, { mode: 'snapshot', cron: '0 9 * * 1', webhook_secret: null }),
    );
    expect(patched).toMatchObject({
      mode: 'snapshot',
      cron: '0 9 * * 1',
      query: 'battery news',
      webhook_secret_set: false,
    });
    expect(new Date(patched.nextRunAt).getUTCDay()).toBe(1);
    expect(new Date(patched.nextRunAt).getUTCHours()).toBe(9);
  });

  it('delivers monitor events signed with the monitor’s own secret: failing twice then 200 is one delivery, one webhook-id, backoff between attempts', async () => {
    const secret = `whsec_${randomBytes(24).toString('base64')}`;
    const monitor = await create({
      query: 'battery news',
      webhook: hookUrl(),
      webhook_secret: secret,
      webhook_backoff_seconds: 1,
      notify_on: ['change'],
    });
    defaultScript = [500, 500, 200];
    search.set([row(11)]);
    const event = await runNow(monitor.id);
    const mine = () =>
      hooks.filter((h) => (JSON.parse(h.body) as { data: { event_id: string } }).data.event_id === event.event_id);
    for (let i = 0; i < 200 && mine().length < 3; i++) await new Promise((r) => setTimeout(r, 50));
    const attempts = mine();
    expect(attempts.map((h) => h.status)).toEqual([500, 500, 200]);
    expect(new Set(attempts.map((h) => h.headers['webhook-id'])).size).toBe(1);
    const verified = new Webhook(secret).verify(attempts[2]!.body, attempts[2]!.headers as Record<string, string>) as {
      type: string;
      data: MonitorEvent;
    };
    expect(verified).toMatchObject({ type: 'monitor.event', data: { event_id: event.event_id, status: 'changed' } });
    // Backoff 1 s, then 2 s, each +-10%.
    expect(attempts[1]!.at - attempts[0]!.at).toBeGreaterThanOrEqual(850);
    expect(attempts[2]!.at - attempts[1]!.at).toBeGreaterThanOrEqual(1_750);
    let view = await json(await call('GET', `/v1/monitors/${monitor.id}`));
    for (let i = 0; i < 50 && view.last_webhook_status !== 200; i++) {
      await new Promise((r) => setTimeout(r, 50));
      view = await json(await call('GET', `/v1/monitors/${monitor.id}`));
    }
    expect(view).toMatchObject({
      last_webhook_status: 200,
      last_webhook_error: null,
      last_webhook_at: expect.any(Number),
    });
    // An unchanged run is not a `change`: nothing is delivered.
    const quiet = await runNow(monitor.id);
    await new Promise((r) => setTimeout(r, 300));
    expect(
      hooks.some((h) => (JSON.parse(h.body) as { data: { event_id: string } }).data.event_id === quiet.event_id),
    ).toBe(false);
  });

  it('a 410 stops retries at once and records the error', async () => {
    const monitor = await create({ query: 'battery news', webhook: hookUrl(), webhook_backoff_seconds: 1 });
    defaultScript = [410];
    search.set([row(21)]);
    const event = await runNow(monitor.id);
    let view = await json(await call('GET', `/v1/monitors/${monitor.id}`));
    for (let i = 0; i < 100 && view.last_webhook_status !== 410; i++) {
      await new Promise((r) => setTimeout(r, 50));
      view = await json(await call('GET', `/v1/monitors/${monitor.id}`));
    }
    expect(view).toMatchObject({ last_webhook_status: 410, last_webhook_error: expect.any(String) });
    await new Promise((r) => setTimeout(r, 1_500));
    const attempts = hooks.filter(
      (h) => (JSON.parse(h.body) as { data: { event_id: string } }).data.event_id === event.event_id,
    );
    expect(attempts).toHaveLength(1);
    // Signed with the team's secret: this monitor has none of its own.
    expect(() =>
      new Webhook(svc.demoWebhookSecret).verify(attempts[0]!.body, attempts[0]!.headers as Record<string, string>),
    ).not.toThrow();
  });
});
