import * as path from 'node:path';
import type * as Client from '../../libs/client/src';
import { type CrawlSite, startCrawlSite } from '../support/crawl-site';
import { startCuttingProxy } from '../support/faulty-proxies';
import { type RunningService, startService } from '../support/service-process';

jest.setTimeout(120_000);

/** The client as it is published: the build's dist/libs/client. */
const DIST = path.resolve(__dirname, '..', '..', 'dist', 'libs', 'client');
const { WebResearch, APIError } = require(DIST) as typeof Client;

async function collect<T>(iterable: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of iterable) out.push(item);
  return out;
}

/**
 * The client's map, crawl runs and page monitors against the loopback site of
 * test/support/crawl-site.ts (robots.txt, sitemaps, a redirect, a PDF, pages four links deep),
 * the standalone service as an OS process allowed to fetch from that site only.
 */
describe('the TypeScript client: map, crawl runs and page monitors (standalone)', () => {
  let site: CrawlSite;
  /** The same site with a 1 s Crawl-delay: a crawl of it is still under way when cancelled. */
  let slow: CrawlSite;
  let svc: RunningService;
  let client: Client.WebResearch;
  const pathOf = (url: string) => new URL(url).pathname;

  beforeAll(async () => {
    site = await startCrawlSite();
    slow = await startCrawlSite({ crawlDelay: 1 });
    svc = await startService('standalone', { FETCH_ALLOW_HOSTS: `127.0.0.1:${site.port},127.0.0.1:${slow.port}` });
    client = new WebResearch({ baseURL: svc.baseUrl, apiKey: svc.demoKey, maxRetries: 8 });
  }, 60_000);
  afterAll(async () => {
    await svc?.stop();
    await site?.close();
    await slow?.close();
  });

  it('map lists the pages the sitemaps and links name, none robots.txt disallows; search ranks, limit cuts; a bad limit is an APIError naming it', async () => {
    const map = await client.map({ url: `${site.origin}/` });
    expect(map).toMatchObject({
      url: `${site.origin}/`,
      credits: 1,
      usage: [{ sku: 'sku_map', quantity: 1, credits: 1 }],
    });
    expect(map.links.map((l) => pathOf(l.url)).sort()).toEqual(
      [
        '/',
        '/about',
        '/blog/only-in-sitemap',
        '/docs/',
        '/docs/a',
        '/docs/a/b',
        '/docs/a/b/c',
        '/docs/guide.pdf',
        '/new',
        '/team',
      ].sort(),
    );
    expect(map.links.find((l) => pathOf(l.url) === '/team')!.title).toBe('Our team');

    const ranked = await client.map({ url: `${site.origin}/`, search: 'team', limit: 2 });
    expect(ranked.links).toHaveLength(2);
    expect(pathOf(ranked.links[0]!.url)).toBe('/team');

    const error = (await client
      .map({ url: `${site.origin}/`, limit: 5001 })
      .catch((e: unknown) => e)) as Client.APIError;
    expect(error).toBeInstanceOf(APIError);
    expect(error.status).toBe(422);
    expect((error.detail as Client.ValidationIssue[]).map((d) => d.loc.join('.'))).toEqual(['body.limit']);
  });

  it('creates a crawl, streams it to run.completed across a dropped connection (page.fetched once each, in order), retrieves its pages paged, lists it and reads its history', async () => {
    const created = await client.crawl.create({ url: `${site.origin}/`, limit: 50 });
    expect(created).toEqual({ crawl_id: expect.stringMatching(/^crawl_/), status: 'queued' });

    // The first stream is cut after two events; the client resumes after the second with Last-Event-ID.
    const proxy = await startCuttingProxy(Number(new URL(svc.baseUrl).port), 2);
    let events: Client.RunEvent[];
    try {
      events = await collect(
        new WebResearch({ baseURL: proxy.url, apiKey: svc.demoKey, maxRetries: 8 }).crawl.stream(created.crawl_id),
      );
      expect(proxy.streams.map((s) => s.path)).toEqual([
        `/v1/crawl/${created.crawl_id}/events`,
        `/v1/crawl/${created.crawl_id}/events`,
      ]);
      expect(proxy.streams[0]!.lastEventId).toBeUndefined();
      expect(proxy.streams[1]!.lastEventId).toBe(events[1]!.id);
    } finally {
      await proxy.close();
    }
    const ids = events.map((e) => BigInt(e.id));
    for (let i = 1; i < ids.length; i++) expect(ids[i]! > ids[i - 1]!).toBe(true);
    expect(events.at(-1)).toMatchObject({
      event: 'run.completed',
      data: { crawl_id: created.crawl_id, status: 'completed', termination: 'frontier_exhausted' },
    });
    const fetched = events.filter((e) => e.event === 'page.fetched').map((e) => e.data as Client.CrawlPageFetched);
    expect(fetched.map((p) => p.pages)).toEqual(fetched.map((_, i) => i + 1));
    // The same stream read again in one go, without the proxy: the same events.
    const whole = await collect(client.crawl.stream(created.crawl_id));
    expect(whole.map((e) => [e.id, e.event])).toEqual(events.map((e) => [e.id, e.event]));

    const view = await client.crawl.retrieve(created.crawl_id, { limit: 100 });
    expect(view).toMatchObject({
      crawl_id: created.crawl_id,
      status: 'completed',
      url: `${site.origin}/`,
      limit: 50,
      pages_limit: 100,
      pages_offset: 0,
    });
    // Breadth-first to max_depth 3: nothing under /private, /docs/a/b/c (depth 4) not read.
    expect(view.pages.map((p) => [pathOf(p.url), p.depth])).toEqual([
      ['/', 0],
      ['/about', 1],
      ['/docs/', 1],
      ['/new', 1],
      ['/docs/guide.pdf', 1],
      ['/team', 2],
      ['/docs/a', 2],
      ['/docs/a/b', 3],
    ]);
    expect(view.pages.map((p) => p.url)).toEqual(fetched.map((p) => p.url));
    expect(view.pages.find((p) => pathOf(p.url) === '/team')).toMatchObject({
      status: 200,
      title: 'Our team',
      error: null,
      content: expect.stringContaining('Ada, Grace and Linus'),
    });
    expect(view.counts.pages).toBe(view.pages.length);
    expect(view.credits).toBe(2 * view.counts.read);

    const paged = await client.crawl.retrieve(created.crawl_id, { limit: 2, offset: 3 });
    expect(paged.pages.map((p) => pathOf(p.url))).toEqual(['/new', '/docs/guide.pdf']);
    expect(paged).toMatchObject({ pages_limit: 2, pages_offset: 3, counts: view.counts });

    const list = await client.crawl.list({ status: 'completed', limit: 100 });
    expect(list.items.map((c) => c.crawl_id)).toContain(created.crawl_id);
    expect(list.items.find((c) => c.crawl_id === created.crawl_id)).not.toHaveProperty('pages');

    const history = await client.crawl.history(created.crawl_id);
    expect(history.events.filter((e) => e.type === 'CrawlPageRead')).toHaveLength(view.pages.length);

    // A completed crawl cannot be cancelled: a 409, thrown at once.
    const late = (await client.crawl.cancel(created.crawl_id).catch((e: unknown) => e)) as Client.APIError;
    expect(late).toBeInstanceOf(APIError);
    expect(late.status).toBe(409);
  });

  it('cancels a crawl under way: the view says cancelled, its stream ends with run.cancelled, no page read after', async () => {
    const created = await client.crawl.create({ url: `${slow.origin}/`, limit: 50 });
    const stream = client.crawl.stream(created.crawl_id);
    // Cancelled once the first page is read (the next one is a Crawl-delay away): a running crawl, not a queued one.
    for (let next = await stream.next(); !next.done && next.value.event !== 'page.fetched'; next = await stream.next());
    const cancelled = await client.crawl.cancel(created.crawl_id);
    expect(cancelled).toMatchObject({ crawl_id: created.crawl_id, status: 'cancelled', termination: 'cancelled' });
    const rest = await collect(stream);
    expect(rest.at(-1)!.event).toBe('run.cancelled');
    const view = await client.crawl.retrieve(created.crawl_id);
    expect(view.status).toBe('cancelled');
    expect(view.counts.pages).toBeGreaterThanOrEqual(1);
    expect(view.counts.pages).toBeLessThan(8);
    expect(view.pages).toHaveLength(view.counts.pages);
    // Work stopped: no request reaches the site after one more Crawl-delay.
    const hits = slow.hits.length;
    await new Promise((r) => setTimeout(r, 1_500));
    expect(slow.hits.length).toBe(hits);
  });

  it('creates a page monitor with url: each run reads the page live and reports its change', async () => {
    const url = `${site.origin}/pricing`;
    const html = (price: number) =>
      `<!doctype html><html><head><title>Pricing</title></head><body><main><h1>Pricing</h1><p>Pro plan costs ${price} dollars a month.</p></main></body></html>`;
    site.setPage('/pricing', html(30));
    const monitor = await client.monitors.create({ url, cadence: 'weekly' });
    expect(monitor).toMatchObject({ url, query: url, mode: 'diff' });
    const id = monitor.id as string;

    const first = await client.monitors.run(id);
    expect(first).toMatchObject({ status: 'changed', results: [{ url, title: 'Pricing' }], error: null });
    site.setPage('/pricing', html(35));
    const hits = site.hits.filter((h) => h.path === '/pricing').length;
    const second = await client.monitors.run(id);
    expect(site.hits.filter((h) => h.path === '/pricing').length).toBe(hits + 1);
    expect(second).toMatchObject({
      status: 'changed',
      diff: { added: ['Pro plan costs 35 dollars a month.'], removed: ['Pro plan costs 30 dollars a month.'] },
    });

    const both = (await client.monitors.create({ url, query: 'pricing' }).catch((e: unknown) => e)) as Client.APIError;
    expect(both.status).toBe(422);
    expect((both.detail as Client.ValidationIssue[]).map((d) => d.loc.join('.'))).toEqual(['body.url']);
  });
});
