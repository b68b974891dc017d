import { startFixtureWeb, type FixtureWeb } from '../support/fixture-web';
import type { ReplayServer } from '../support/replay-server';
import { bearer, type RunningService, startService } from '../support/service-process';
import { startSlowSearxng, searxngEnv } from '../support/slow-searxng';
import { json } from './harness';

jest.setTimeout(120_000);

/**
 * Cluster mode, research process killed with SIGKILL mid-run: the supervisor restarts it, the new
 * worker takes the run over when the dead one's lease lapses and resumes it from its events.
 * The provider (a SearXNG stand-in answering after 300 ms with fixture-web pages, each page
 * answering after 200 ms) makes the run slow enough to kill mid-way, and its hits must be fetched: pages read before the kill come from
 * the extraction service's cache, so the fixture web sees every page requested at most once.
 */
describe('deep run recovery (cluster)', () => {
  let web: FixtureWeb;
  let svc: RunningService;
  let stub: ReplayServer;

  beforeAll(async () => {
    // Pages answer after 200 ms too: on a loaded machine a run whose pages come at once could end
    // between its first page read and the kill (a full run once saw it complete with one start).
    web = await startFixtureWeb(undefined, { delayMs: 200 });
    stub = await startSlowSearxng(web, 300);
    svc = await startService('cluster', {
      ...searxngEnv(stub, web),
      RUN_LEASE_SECONDS: '3',
    });
  }, 60_000);
  afterAll(async () => {
    await svc?.stop();
    await stub?.close();
    await web?.stop();
  });

  it('a run whose research process is killed ends completed (or failed with a reason) within 60 s, no page fetched twice', async () => {
    const headers = { ...bearer(svc.demoKey), 'Content-Type': 'application/json' };
    const started = await json(
      await fetch(`${svc.baseUrl}/v1/search`, {
        method: 'POST',
        headers,
        body: JSON.stringify({
          depth: 'deep',
          queries: ['battery', 'robot', 'solar', 'tram', 'library'],
          max_subqueries: 10,
          max_fetches: 30,
        }),
      }),
    );
    expect(started).toMatchObject({ search_id: expect.any(String) });
    const view = async () => json(await fetch(`${svc.baseUrl}/v1/searches/${started.search_id}`, { headers }));
    const history = async () =>
      (await json(await fetch(`${svc.baseUrl}/v1/searches/${started.search_id}/history`, { headers }))).events as {
        type: string;
        data: { worker_id?: string; resumed?: boolean };
      }[];
    for (let i = 0; i < 400 && !(await history()).some((e) => e.type === 'PageFetched'); i++)
      await new Promise((r) => setTimeout(r, 10));
    const pid = svc.servicePids().get('research')!;
    expect((await view()).status).toBe('running');
    process.kill(pid, 'SIGKILL');
    const killedAt = Date.now();

    let final = await view();
    while (['queued', 'running'].includes(final.status) && Date.now() - killedAt < 60_000) {
      await new Promise((r) => setTimeout(r, 200));
      final = await view();
    }
    expect(['completed', 'failed']).toContain(final.status);
    if (final.status === 'failed') expect(final.error).toEqual(expect.any(String));
    expect(Date.now() - killedAt).toBeLessThan(60_000);
    const starts = (await history()).filter((e) => e.type === 'SearchRunStarted');
    expect(starts.length).toBeGreaterThanOrEqual(2);
    expect(starts[starts.length - 1].data.resumed).toBe(true);
    expect(new Set(starts.map((e) => e.data.worker_id)).size).toBe(starts.length);

    for (const host of web.hosts) {
      const counts = new Map<string, number>();
      for (const request of web.requests(host)) counts.set(request, (counts.get(request) ?? 0) + 1);
      const twice = [...counts.entries()].filter(([, n]) => n > 1);
      expect({ host, twice }).toEqual({ host, twice: [] });
    }
  });
});
