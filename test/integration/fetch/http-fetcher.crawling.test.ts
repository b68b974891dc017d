/** The fetcher as a crawler uses it, on an allowed loopback server: politeness (per-host concurrency, robots.txt), sitemaps, hop hooks, Crawl-delay. */
import { startServer } from './servers';
import { base, concurrency, failure, make, server, useFetcherServer } from './fetcher-server';

let robotsHits = 0;
useFetcherServer({ onRobotsTxt: () => robotsHits++ });

describe('politeness', () => {
  it('never runs more than perHostConcurrency exchanges at once against one host', async () => {
    concurrency.max = 0;
    const f = make({ perHostConcurrency: 2 });
    const pages = await Promise.all(Array.from({ length: 8 }, (_, i) => f.fetch(`${base}/slow?i=${i}`)));
    expect(pages.map((p) => p.body)).toEqual(Array.from({ length: 8 }, (_, i) => `slow ${i}`));
    expect(concurrency.max).toBe(2);
  });

  it('honours robots.txt when asked, fetching it once per origin', async () => {
    robotsHits = 0;
    const f = make();
    const before = server.paths.length;
    const err = await failure(f.fetch(`${base}/private/report`, { respectRobots: true }));
    expect(err).toMatchObject({
      code: 'robots_disallowed',
      message: `${base}/private/report: robots.txt disallows WebResearchBot`,
    });
    expect(server.paths.slice(before)).toEqual(['/robots.txt']); // the page itself was never requested
    expect((await f.fetch(`${base}/public`, { respectRobots: true })).body).toBe('<p>page /public</p>');
    expect(await f.robotsAllowed(`${base}/private/x`)).toBe(false);
    expect(await f.robotsAllowed(`${base}/elsewhere`)).toBe(true);
    expect(robotsHits).toBe(1);
    // A user's explicit extract does not ask robots.txt.
    expect((await f.fetch(`${base}/private/report`)).status).toBe(200);
  });

  it('a missing robots.txt allows everything', async () => {
    const other = await startServer((req, res) =>
      req.url === '/robots.txt'
        ? res.writeHead(404).end()
        : res.writeHead(200, { 'content-type': 'text/plain' }).end('open'),
    );
    try {
      const f = make({ allowHosts: [`127.0.0.1:${other.port}`] });
      expect((await f.fetch(`http://127.0.0.1:${other.port}/anything`, { respectRobots: true })).body).toBe('open');
      expect(other.paths).toEqual(['/robots.txt', '/anything']);
    } finally {
      await other.close();
    }
  });
});

describe('crawling', () => {
  it('a gzip file is unpacked as XML when asked (sitemaps), refused otherwise; a gzip bomb stops at the cap', async () => {
    const f = make();
    expect(await f.fetch(`${base}/sitemap.xml.gz`, { gunzip: true })).toMatchObject({
      contentType: 'application/xml',
      body: '<urlset><url><loc>https://x.test/a</loc></url></urlset>',
    });
    expect((await failure(f.fetch(`${base}/sitemap.xml.gz`))).code).toBe('unsupported_type');
    const bomb = await failure(f.fetch(`${base}/sitemap-bomb.xml.gz`, { gunzip: true, maxBytes: 1024 * 1024 }));
    expect(bomb).toMatchObject({
      code: 'too_large',
      message: `${base}/sitemap-bomb.xml.gz: unpacked body exceeds 1048576 bytes`,
    });
  });

  it('beforeHop is awaited before every request of the exchange and afterHop called when it ended, redirect hops included', async () => {
    const hops: string[] = [];
    const page = await make().fetch(`${base}/redirect?to=/landed`, {
      beforeHop: async (url) => void hops.push(`before ${url}`),
      afterHop: (url) => void hops.push(`after ${url}`),
    });
    expect(page.finalUrl).toBe(`${base}/landed`);
    expect(hops).toEqual([
      `before ${base}/redirect?to=/landed`,
      `after ${base}/redirect?to=/landed`,
      `before ${base}/landed`,
      `after ${base}/landed`,
    ]);
  });

  it('cache: false neither serves nor stores a copy', async () => {
    const f = make();
    const before = server.requests;
    await f.fetch(`${base}/uncached`, { cache: false });
    await f.fetch(`${base}/uncached`, { cache: false });
    expect((await f.fetch(`${base}/uncached`)).fromCache).toBe(false);
    expect(server.requests).toBe(before + 3);
  });

  it('reads Crawl-delay for our user agent, capped at 30 s', async () => {
    const other = await startServer((req, res) =>
      req.url === '/robots.txt'
        ? res.writeHead(200, { 'content-type': 'text/plain' }).end('User-agent: *\nCrawl-delay: 2.5\n')
        : res.writeHead(200).end(),
    );
    const slow = await startServer((req, res) =>
      req.url === '/robots.txt'
        ? res.writeHead(200, { 'content-type': 'text/plain' }).end('User-agent: *\nCrawl-delay: 3600\n')
        : res.writeHead(200).end(),
    );
    try {
      const f = make({ allowHosts: [`127.0.0.1:${server.port}`, `127.0.0.1:${other.port}`, `127.0.0.1:${slow.port}`] });
      expect(await f.crawlDelayMs(`http://127.0.0.1:${other.port}/x`)).toBe(2_500);
      expect(await f.crawlDelayMs(`http://127.0.0.1:${slow.port}/x`)).toBe(30_000);
      expect(await f.crawlDelayMs(`${base}/x`)).toBe(0);
    } finally {
      await other.close();
      await slow.close();
    }
  });
});
