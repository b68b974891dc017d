import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { type CrawlSite, startCrawlSite } from '../support/crawl-site';
import { bearer, type RunningService, startService } from '../support/service-process';
import { json } from './harness';

jest.setTimeout(120_000);

type Page = {
  url: string;
  source_url: string | null;
  final_url: string | null;
  title: string | null;
  content: string | null;
  status: number | null;
  depth: number;
  error: string | null;
};

/**
 * POST /v1/map and crawl runs against a site on loopback (test/support/crawl-site.ts), the
 * standalone service as an OS process: robots.txt's disallowed folder is never requested nor
 * listed, its Crawl-delay spaces every request (timestamps taken at the site), each page is read
 * once, max_depth and path patterns bound the crawl, and the run ends with a signed webhook.
 */
describe('site map and crawl runs (standalone)', () => {
  let site: CrawlSite;
  /**
   * The map tests' own copy of the site, asking a shorter Crawl-delay: the map follows links about
   * fifteen requests deep, at 0.3 s each 4.6 s alone, near the default gathering bound (6 s of
   * MAP_CALL_TIMEOUT_MS's 8 s). The service here is given 60 s besides: what these tests check is
   * what a map lists, not how fast a loaded machine lists it.
   */
  let mapSite: CrawlSite;
  let svc: RunningService;
  let receiver: http.Server;
  let hookPort: number;
  const hooks: { headers: http.IncomingHttpHeaders; body: string }[] = [];

  beforeAll(async () => {
    site = await startCrawlSite();
    mapSite = await startCrawlSite({ crawlDelay: 0.1 });
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
    svc = await startService('standalone', {
      FETCH_ALLOW_HOSTS: `127.0.0.1:${site.port},127.0.0.1:${mapSite.port},127.0.0.1:${hookPort}`,
      WEBHOOK_BACKOFF_SECONDS: '1',
      MAP_CALL_TIMEOUT_MS: '60000',
    });
  }, 60_000);
  afterAll(async () => {
    await svc?.stop();
    await site?.close();
    await mapSite?.close();
    await new Promise((resolve) => receiver?.close(resolve));
  });

  const call = (method: string, route: string, body?: unknown) =>
    fetch(`${svc.baseUrl}${route}`, {
      method,
      headers: { ...bearer(svc.demoKey), 'Content-Type': 'application/json' },
      ...(body !== undefined && { body: JSON.stringify(body) }),
    });
  const pathOf = (url: string) => new URL(url).pathname;
  const hitsSince = (from: number) => site.hits.slice(from).filter((hit) => hit.path !== '/robots.txt');

  async function finished(id: string) {
    for (let i = 0; i < 600; i++) {
      const view = await json(await call('GET', `/v1/crawl/${id}?limit=100`));
      if (!['queued', 'running'].includes(view.status)) return view;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`crawl ${id} did not end`);
  }

  it('map lists every allowed page once (sitemaps, gzip, index, links, the redirect at its target) and none robots.txt disallows', async () => {
    const from = mapSite.hits.length;
    const mapHitsSince = (at: number) => mapSite.hits.slice(at).filter((hit) => hit.path !== '/robots.txt');
    const res = await call('POST', '/v1/map', { url: `${mapSite.origin}/` });
    expect(res.status).toBe(200);
    const body = await json(res);
    expect(body).toMatchObject({
      url: `${mapSite.origin}/`,
      credits: 1,
      usage: [{ sku: 'sku_map', quantity: 1, credits: 1 }],
    });
    const paths = (body.links as { url: string }[]).map((l) => pathOf(l.url));
    expect(new Set(paths).size).toBe(paths.length);
    expect(paths.sort()).toEqual(
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
    // The sitemap gave lastmod; the pages' own titles and the anchors' texts are the titles.
    expect(body.links.find((l: { url: string }) => pathOf(l.url) === '/blog/only-in-sitemap').lastmod).toMatch(
      /^2026-01-0\d$/,
    );
    expect(body.links.find((l: { url: string }) => pathOf(l.url) === '/team').title).toBe('Our team');
    expect(mapHitsSince(from).filter((hit) => hit.path.startsWith('/private'))).toEqual([]);
    expect(mapHitsSince(from).map((hit) => hit.path)).toEqual(
      expect.arrayContaining(['/sitemap_index.xml', '/sitemap-pages.xml.gz', '/sitemap-more.xml']),
    );
  });

  it('map: search ranks by title and URL words, limit cuts, sitemap=only reads no page, bad input is a 422 naming the field', async () => {
    const ranked = await json(await call('POST', '/v1/map', { url: `${mapSite.origin}/`, search: 'team', limit: 3 }));
    expect(ranked.links).toHaveLength(3);
    expect(pathOf(ranked.links[0].url)).toBe('/team');

    const from = mapSite.hits.length;
    const only = await json(await call('POST', '/v1/map', { url: `${mapSite.origin}/`, sitemap: 'only' }));
    expect(only.links.map((l: { url: string }) => pathOf(l.url)).sort()).toEqual(
      ['/', '/about', '/blog/only-in-sitemap', '/docs/guide.pdf', '/old'].sort(),
    );
    expect(
      mapSite.hits
        .slice(from)
        .filter((hit) => hit.path !== '/robots.txt')
        .every((hit) => hit.path.startsWith('/sitemap')),
    ).toBe(true);

    for (const [body, loc] of [
      [{ url: `${mapSite.origin}/`, limit: 5001 }, 'body.limit'],
      [{ url: `${mapSite.origin}/`, sitemap: 'maybe' }, 'body.sitemap'],
      [{ url: 'ftp://example.com/' }, 'body.url'],
    ] as const) {
      const res = await call('POST', '/v1/map', body);
      expect(res.status).toBe(422);
      expect((await json(res)).detail.map((d: { loc: string[] }) => d.loc.join('.'))).toEqual([loc]);
    }
  });

  it('a crawl with limit 50 reads each allowed page once, none disallowed, paced by Crawl-delay, to max_depth; streamed, charged per page, announced by a signed webhook', async () => {
    const from = site.hits.length;
    const res = await call('POST', '/v1/crawl', {
      url: `${site.origin}/`,
      limit: 50,
      webhook: `http://127.0.0.1:${hookPort}/crawl`,
    });
    expect(res.status).toBe(202);
    const created = await json(res);
    expect(created).toEqual({ crawl_id: expect.stringMatching(/^crawl_[0-9a-f-]{36}$/), status: 'queued' });
    const view = await finished(created.crawl_id);
    expect(view).toMatchObject({ status: 'completed', termination: 'frontier_exhausted', limit: 50, max_depth: 3 });

    const pages = view.pages as Page[];
    // Breadth-first from the start page; the redirect read once, listed at the page it leads to (its own address), which is not read again.
    expect(pages.map((p) => [pathOf(p.url), p.depth])).toEqual([
      ['/', 0],
      ['/about', 1],
      ['/docs/', 1],
      ['/new', 1],
      ['/docs/guide.pdf', 1],
      ['/team', 2],
      ['/docs/a', 2],
      ['/docs/a/b', 3],
    ]);
    const moved = pages.find((p) => pathOf(p.url) === '/new')!;
    expect([pathOf(moved.source_url!), pathOf(moved.final_url!)]).toEqual(['/old', '/new']);
    expect(pages.filter((p) => p.source_url !== null)).toHaveLength(1);
    expect(pages.find((p) => pathOf(p.url) === '/team')).toMatchObject({
      status: 200,
      title: 'Our team',
      error: null,
      content: expect.stringContaining('Ada, Grace and Linus'),
    });

    // At the site: one GET per page (the redirect's hop to /new besides), nothing under /private, nothing past depth 3.
    const hits = hitsSince(from);
    expect(hits.map((hit) => hit.path).sort()).toEqual(
      ['/', '/about', '/docs/', '/docs/a', '/docs/a/b', '/docs/guide.pdf', '/new', '/old', '/team'].sort(),
    );
    // Crawl-delay 0.3 s between any two requests to the host, redirect hops included.
    const gaps = hits.slice(1).map((hit, i) => hit.at - hits[i]!.at);
    expect(Math.min(...gaps)).toBeGreaterThanOrEqual(290);

    const read = pages.filter((p) => p.error === null).length;
    expect(view.counts).toEqual({ pages: pages.length, read, failed: pages.length - read });
    // A crawled page costs what an extracted one does.
    expect(view.credits).toBe(2 * read);
    expect(view.usage).toEqual([{ sku: 'sku_crawl_page', quantity: read, credits: 2 * read }]);

    // Pages paged; the list; the SSE stream has one page.fetched per page.
    const paged = await json(await call('GET', `/v1/crawl/${created.crawl_id}?limit=2&offset=3`));
    expect(paged.pages.map((p: Page) => pathOf(p.url))).toEqual(['/new', '/docs/guide.pdf']);
    const list = await json(await call('GET', '/v1/crawl'));
    expect(list.crawls.map((c: { crawl_id: string }) => c.crawl_id)).toContain(created.crawl_id);
    const sse = await (await call('GET', `/v1/crawl/${created.crawl_id}/events`)).text();
    const names = [...sse.matchAll(/^event: (.+)$/gm)].map((m) => m[1]);
    expect(names.filter((n) => n === 'page.fetched')).toHaveLength(pages.length);
    expect(names.at(-1)).toBe('run.completed');

    let hook: (typeof hooks)[number] | undefined;
    for (let i = 0; i < 100 && !(hook = hooks.find((h) => h.body.includes(created.crawl_id))); i++)
      await new Promise((r) => setTimeout(r, 100));
    const verified = new Webhook(svc.demoWebhookSecret).verify(hook!.body, hook!.headers as Record<string, string>) as {
      type: string;
      data: { crawl_id: string; status: string };
    };
    expect(verified.type).toBe('crawl_run.completed');
    expect(verified.data).toMatchObject({ crawl_id: created.crawl_id, status: 'completed', credits: 2 * read });
  });

  it('index: true adds the pages read to the local index: the crawled site becomes searchable', async () => {
    const search = async () =>
      json(await call('POST', '/v1/search', { queries: ['Ada Grace Linus fixture company'], depth: 'instant' }));
    const before = await search();
    expect((before.results as { url: string }[]).some((r) => r.url.startsWith(site.origin))).toBe(false);
    const crawl = await finished(
      (await json(await call('POST', '/v1/crawl', { url: `${site.origin}/about`, max_depth: 1, index: true })))
        .crawl_id,
    );
    expect(crawl.pages.map((p: Page) => pathOf(p.url))).toEqual(['/about', '/team', '/new']);
    let found: { url: string; title: string }[] = [];
    for (let i = 0; i < 50 && !found.some((r) => pathOf(r.url) === '/team'); i++) {
      found = ((await search()).results as { url: string; title: string }[]).filter((r) =>
        r.url.startsWith(site.origin),
      );
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(found.find((r) => pathOf(r.url) === '/team')).toMatchObject({ title: 'Our team' });
  });

  it('max_depth and exclude_paths bound a crawl; limit stops it; a bad pattern is a 422 naming it', async () => {
    const shallow = await finished(
      (
        await json(
          await call('POST', '/v1/crawl', { url: `${site.origin}/`, max_depth: 1, exclude_paths: ['\\.pdf$'] }),
        )
      ).crawl_id,
    );
    expect(shallow.pages.map((p: Page) => pathOf(p.url))).toEqual(['/', '/about', '/docs/', '/new']);

    const limited = await finished(
      (await json(await call('POST', '/v1/crawl', { url: `${site.origin}/`, limit: 2, include_paths: ['^/docs'] })))
        .crawl_id,
    );
    expect(limited).toMatchObject({ termination: 'limit_reached', counts: { pages: 2 } });
    expect(limited.pages.map((p: Page) => pathOf(p.url))).toEqual(['/', '/docs/']);

    // A start page robots.txt disallows is not requested: the crawl lists it with the reason.
    const from = site.hits.length;
    const refused = await finished(
      (await json(await call('POST', '/v1/crawl', { url: `${site.origin}/private/hidden` }))).crawl_id,
    );
    expect(refused).toMatchObject({ status: 'completed', credits: 0, counts: { pages: 1, read: 0, failed: 1 } });
    expect(refused.pages[0].error).toMatch(/robots\.txt disallows/);
    expect(hitsSince(from)).toEqual([]);

    const bad = await call('POST', '/v1/crawl', { url: `${site.origin}/`, include_paths: ['('] });
    expect(bad.status).toBe(422);
    expect((await json(bad)).detail.map((d: { loc: (string | number)[] }) => d.loc.join('.'))).toEqual([
      'body.include_paths.0',
    ]);
    const tooMany = await call('POST', '/v1/crawl', { url: `${site.origin}/`, limit: 1001 });
    expect(tooMany.status).toBe(422);
  });

  it('max_credits: a crawl whose next page would pass its budget ends completed, budget_exhausted, never charged past it', async () => {
    // Two credits a page: a budget of 5 pays for two pages, not a third.
    const spent = await finished(
      (await json(await call('POST', '/v1/crawl', { url: `${site.origin}/`, limit: 10, max_credits: 5 }))).crawl_id,
    );
    expect(spent).toMatchObject({ status: 'completed', termination: 'budget_exhausted', max_credits: 5 });
    expect(spent.credits).toBe(4);
    expect(spent.counts.read).toBe(2);
    const bad = await call('POST', '/v1/crawl', { url: `${site.origin}/`, max_credits: 0 });
    expect(bad.status).toBe(422);
    expect((await json(bad)).detail[0].loc).toEqual(['body', 'max_credits']);
  });
});
