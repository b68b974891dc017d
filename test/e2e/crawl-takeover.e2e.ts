import { type CrawlSite, startCrawlSite } from '../support/crawl-site';
import { bearer, type RunningService, startService } from '../support/service-process';
import { json } from './harness';

jest.setTimeout(120_000);

type HistoryEvent = { type: string; at: string; data: { worker_id?: string; resumed?: boolean; url?: string } };

/**
 * Cluster mode with two extraction replicas (REPLICAS=extraction=2), each its own OS process, over
 * a loopback site asking a 1 s Crawl-delay, so a crawl is still running when its process is killed
 * with SIGKILL: the lease (RUN_LEASE_SECONDS=5 here) lapses, the other replica rebuilds the
 * frontier from the recorded pages and completes the crawl, and no page is requested twice beyond
 * the one in flight when the process died.
 */
describe('crawl run takeover across extraction replicas (cluster, REPLICAS=extraction=2)', () => {
  let site: CrawlSite;
  let svc: RunningService;

  beforeAll(async () => {
    site = await startCrawlSite({ crawlDelay: 1 });
    svc = await startService('cluster', {
      REPLICAS: 'extraction=2',
      RUN_LEASE_SECONDS: '5',
      FETCH_ALLOW_HOSTS: `127.0.0.1:${site.port}`,
    });
    for (let i = 0; i < 200 && svc.servicePidHistory('extraction').length < 2; i++)
      await new Promise((r) => setTimeout(r, 50));
  }, 90_000);
  afterAll(async () => {
    await svc?.stop();
    await site?.close();
  });

  const call = (method: string, route: string, body?: unknown) =>
    fetch(`${svc.baseUrl}${route}`, {
      method,
      headers: { ...bearer(svc.demoKey), 'Content-Type': 'application/json' },
      ...(body !== undefined && { body: JSON.stringify(body) }),
    });
  const history = async (id: string) =>
    (await json(await call('GET', `/v1/crawl/${id}/history`))).events as HistoryEvent[];
  const pidOf = (workerId: string) => Number(/^extraction-(\d+)-/.exec(workerId)![1]);

  it('kill -9 of the process crawling: another replica completes the crawl, no page read twice beyond one in flight', async () => {
    expect(new Set(svc.servicePidHistory('extraction')).size).toBeGreaterThanOrEqual(2);
    const from = site.hits.length;
    const created = await json(await call('POST', '/v1/crawl', { url: `${site.origin}/`, limit: 50 }));
    let events: HistoryEvent[] = [];
    for (let i = 0; i < 300 && events.filter((e) => e.type === 'CrawlPageRead').length < 2; i++) {
      await new Promise((r) => setTimeout(r, 50));
      events = await history(created.crawl_id);
    }
    const worker = events.find((e) => e.type === 'CrawlRunStarted')!.data.worker_id!;
    process.kill(pidOf(worker), 'SIGKILL');
    const killedAt = Date.now();

    let view = await json(await call('GET', `/v1/crawl/${created.crawl_id}?limit=100`));
    while (['queued', 'running'].includes(view.status) && Date.now() - killedAt < 60_000) {
      await new Promise((r) => setTimeout(r, 200));
      view = await json(await call('GET', `/v1/crawl/${created.crawl_id}?limit=100`));
    }
    expect(view.status).toBe('completed');
    const paths = (view.pages as { url: string }[]).map((p) => new URL(p.url).pathname);
    expect(paths).toEqual(['/', '/about', '/docs/', '/new', '/docs/guide.pdf', '/team', '/docs/a', '/docs/a/b']);

    const starts = (await history(created.crawl_id)).filter((e) => e.type === 'CrawlRunStarted');
    expect(starts).toHaveLength(2);
    expect(starts[1]!.data.resumed).toBe(true);
    expect(pidOf(starts[1]!.data.worker_id!)).not.toBe(pidOf(worker));

    // At the site: every page requested once, except at most the one in flight at the kill.
    const counts = new Map<string, number>();
    for (const hit of site.hits.slice(from))
      if (hit.path !== '/robots.txt') counts.set(hit.path, (counts.get(hit.path) ?? 0) + 1);
    const twice = [...counts].filter(([, n]) => n > 1);
    expect(twice.length).toBeLessThanOrEqual(1);
    expect(twice.every(([, n]) => n === 2)).toBe(true);
    expect([...counts.keys()].filter((p) => p.startsWith('/private'))).toEqual([]);
  });
});
