import { randomBytes } from 'node:crypto';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { type CrawlSite, startCrawlSite } from '../support/crawl-site';
import { bearer, type RunningService, startService } from '../support/service-process';
import { json } from './harness';

jest.setTimeout(120_000);

type PageEvent = {
  event_id: string;
  status: string;
  mode: string;
  results_count: number;
  results: { url: string; title: string }[];
  diff?: { added: string[]; removed: string[]; summary: string };
  content_hash?: string;
  content?: string;
  error: string | null;
};

const pricing = (opts: { pro: string; extra?: string; cls?: string; stamp?: string }) =>
  `<!doctype html><html><head><title>Pricing</title><style>.${opts.cls ?? 'a'} { color: red }</style>` +
  `<script>window.renderedAt = "${opts.stamp ?? '2026-01-01T00:00:00Z'}";</script></head>` +
  `<body><nav><a href="/">Home</a></nav><main class="${opts.cls ?? 'a'}"><h1>Pricing</h1><p>Basic plan costs 10 dollars a month.</p>` +
  `<p>Pro plan costs ${opts.pro} dollars a month.</p>${opts.extra ? `<p>${opts.extra}</p>` : ''}</main></body></html>`;

/**
 * Page monitors against a page on loopback (standalone service as an OS process): each run reads
 * the page live and diffs its main content with the previous run's. Text changes are `changed`
 * with the right lines; markup, styles and a timestamp in a script are `unchanged`; a page that
 * stops answering is an `error` event; changes are delivered signed with the monitor's secret.
 */
describe('page monitors (standalone)', () => {
  let site: CrawlSite;
  let svc: RunningService;
  let receiver: http.Server;
  let hookPort: number;
  const hooks: { headers: http.IncomingHttpHeaders; body: string }[] = [];

  beforeAll(async () => {
    site = await startCrawlSite();
    receiver = http.createServer((req, res) => {
      let body = '';
      req.on('data', (chunk) => (body += chunk));
      req.on('end', () => {
        hooks.push({ headers: req.headers, body });
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    hookPort = (receiver.address() as AddressInfo).port;
    svc = await startService('standalone', { FETCH_ALLOW_HOSTS: `127.0.0.1:${site.port},127.0.0.1:${hookPort}` });
  }, 60_000);
  afterAll(async () => {
    await svc?.stop();
    await site?.close();
    await new Promise((resolve) => receiver?.close(resolve));
  });

  const call = (method: string, route: string, body?: unknown) =>
    fetch(`${svc.baseUrl}${route}`, {
      method,
      headers: { ...bearer(svc.demoKey), 'Content-Type': 'application/json' },
      ...(body !== undefined && { body: JSON.stringify(body) }),
    });
  const runNow = async (id: string): Promise<PageEvent> => {
    const res = await call('POST', `/v1/monitors/${id}/run`);
    expect(res.status).toBe(202);
    return json(res);
  };

  it('watches exactly one of query and url', async () => {
    for (const [body, loc] of [
      [{ query: 'x', url: `${site.origin}/pricing` }, 'body.url'],
      [{}, 'body.query'],
      [{ url: `${site.origin}/pricing`, filter_prompt: 'mentions dollars' }, 'body.filter_prompt'],
    ] as const) {
      const res = await call('POST', '/v1/monitors', body);
      expect(res.status).toBe(422);
      expect((await json(res)).detail.map((d: { loc: string[] }) => d.loc.join('.'))).toEqual([loc]);
    }
  });

  it('reports changed with the added and removed lines, unchanged for markup and script changes, an error when the page stops answering; delivers changes signed', async () => {
    const url = `${site.origin}/pricing`;
    site.setPage('/pricing', pricing({ pro: '30' }));
    const secret = `whsec_${randomBytes(24).toString('base64')}`;
    const created = await call('POST', '/v1/monitors', {
      url,
      webhook: `http://127.0.0.1:${hookPort}/monitor`,
      webhook_secret: secret,
      notify_on: ['change', 'error'],
    });
    expect(created.status).toBe(201);
    const monitor = await json(created);
    expect(monitor).toMatchObject({ url, query: url, mode: 'diff', filter_prompt: null });

    const first = await runNow(monitor.id);
    expect(first).toMatchObject({
      status: 'changed',
      results_count: 1,
      results: [{ url, title: 'Pricing' }],
      error: null,
    });
    expect(first.diff!.added).toEqual(['Basic plan costs 10 dollars a month.', 'Pro plan costs 30 dollars a month.']);
    expect(first.diff!.removed).toEqual([]);
    expect(first.content_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(first).not.toHaveProperty('content');

    // Only markup, a style and the timestamp in a script change: the main content is the same.
    const before = site.hits.filter((h) => h.path === '/pricing').length;
    site.setPage('/pricing', pricing({ pro: '30', cls: 'b', stamp: '2026-06-30T12:34:56Z' }));
    const same = await runNow(monitor.id);
    expect(same).toMatchObject({
      status: 'unchanged',
      content_hash: first.content_hash,
      diff: { added: [], removed: [], summary: 'no change' },
    });
    // Read live: the page was requested again, not served from a cache.
    expect(site.hits.filter((h) => h.path === '/pricing').length).toBe(before + 1);

    site.setPage('/pricing', pricing({ pro: '35', extra: 'Team plan costs 50 dollars a month.' }));
    const changed = await runNow(monitor.id);
    expect(changed.status).toBe('changed');
    expect(changed.diff).toEqual({
      added: ['Pro plan costs 35 dollars a month.', 'Team plan costs 50 dollars a month.'],
      removed: ['Pro plan costs 30 dollars a month.'],
      summary: '2 lines added, 1 line removed',
    });
    expect(changed.content_hash).not.toBe(first.content_hash);

    site.setDown('/pricing', true);
    const down = await runNow(monitor.id);
    expect(down).toMatchObject({ status: 'error', results_count: 0, error: expect.stringContaining('503') });
    site.setDown('/pricing', false);
    // The next diff still compares with the last content seen.
    const back = await runNow(monitor.id);
    expect(back).toMatchObject({ status: 'unchanged', content_hash: changed.content_hash });

    // Snapshot mode adds the whole content.
    await call('PATCH', `/v1/monitors/${monitor.id}`, { mode: 'snapshot' });
    const snapshot = await runNow(monitor.id);
    expect(snapshot.content).toContain('Team plan costs 50 dollars a month.');

    // Delivered: the changed runs and the error, signed with the monitor's own secret; no unchanged one.
    const wanted = [first, changed, down].map((e) => e.event_id);
    for (let i = 0; i < 100 && wanted.some((id) => !hooks.some((h) => h.body.includes(id))); i++)
      await new Promise((r) => setTimeout(r, 100));
    const delivered = hooks.map(
      (h) =>
        new Webhook(secret).verify(h.body, h.headers as Record<string, string>) as { type: string; data: PageEvent },
    );
    expect(delivered.map((d) => d.data.event_id).sort()).toEqual(wanted.sort());
    expect(delivered.find((d) => d.data.event_id === changed.event_id)!.data.diff!.added).toContain(
      'Team plan costs 50 dollars a month.',
    );

    // One credit per run that read the page (the error run costs nothing).
    const events = await json(await call('GET', `/v1/monitors/${monitor.id}/events`));
    expect(events.events.map((e: PageEvent) => e.status)).toEqual([
      'unchanged',
      'unchanged',
      'error',
      'changed',
      'unchanged',
      'changed',
    ]);
  });
});
