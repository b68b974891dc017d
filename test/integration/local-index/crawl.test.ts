import * as path from 'node:path';
import { HttpFetcher } from '@app/fetch';
import { Crawler, type CrawlResult } from '@app/search-engine';
import { type FixtureWeb, startFixtureWeb } from '../../support/fixture-web';

// Extraction threads run the compiled worker script (dist/, which `npm test` builds first).
const DIST = path.resolve(__dirname, '..', '..', '..', 'dist', 'libs', 'extraction', 'src', 'index.js');
const { ExtractionAbandoned, ExtractionWorkers } = require(DIST) as typeof import('../../../libs/extraction/src');

// The crawler over the real HttpFetcher (SSRF guard with the fixture's loopback ports allowed)
// against the fixture web: what it fetches is read from the fixture servers' request logs.
describe('crawling the fixture web', () => {
  let web: FixtureWeb;
  let fetcher: HttpFetcher;
  const ACME = 'acme-robotics.test';
  const acme = (path: string) => `${web.baseUrl(ACME)}${path}`;
  const crawl = (seed: string, options: ConstructorParameters<typeof Crawler>[1] = {}) =>
    new Crawler(fetcher, { maxAgeMs: 0, ...options }).crawl(seed);
  const paths = (result: CrawlResult) =>
    result.pages.map((page) => new URL(page.url).pathname + new URL(page.url).search);

  beforeEach(async () => {
    web = await startFixtureWeb();
    fetcher = new HttpFetcher({ allowHosts: web.allowHosts });
  });
  afterEach(async () => {
    await fetcher.close();
    await web.stop();
  });

  it('never requests a path robots.txt disallows', async () => {
    const result = await crawl(acme('/'));
    expect(web.requests(ACME)).toContain('/robots.txt');
    expect(web.requests(ACME).filter((path) => path.startsWith('/internal/'))).toEqual([]);
    expect(result.skipped).toContainEqual({ url: acme('/internal/roadmap'), reason: 'robots_disallowed' });
  });

  it('stops at the depth limit: two hops by default, three when asked', async () => {
    const shallow = await crawl(acme('/'));
    expect(paths(shallow)).toContain('/products/picker-arm');
    expect(web.requests(ACME)).not.toContain('/products/picker-arm-specs');
    const deeper = await crawl(acme('/'), { maxDepth: 3 });
    expect(paths(deeper)).toContain('/products/picker-arm-specs');
    expect(deeper.pages.find((page) => page.url.endsWith('/picker-arm-specs'))?.depth).toBe(3);
  });

  it('keeps at most maxPages pages, breadth first from the seed', async () => {
    const result = await crawl(acme('/'), { maxPages: 3 });
    expect(result.pages).toHaveLength(3);
    expect(result.pages.map((page) => page.depth)).toEqual([0, 1, 1]);
    expect(web.requests(ACME).filter((path) => path !== '/robots.txt').length).toBeLessThanOrEqual(4);
  });

  it('follows same-site links only, and drops a redirect that leaves the site', async () => {
    const result = await crawl(acme('/'));
    expect(result.pages.every((page) => new URL(page.finalUrl).origin === web.baseUrl(ACME))).toBe(true);
    // The home page links to helio-grid.test/about; only the off-site redirect's target was ever asked for.
    expect(web.requests('helio-grid.test')).toEqual(['/']);
    expect(result.skipped).toContainEqual({ url: acme('/partner'), reason: 'redirected_off_site' });
    expect(web.requests('www.acme-robotics.test')).toEqual([]);
  });

  it('skips non-HTML but reads documents: a PDF link is fetched and kept (base64, for the extractor), a zip answer unindexed', async () => {
    const result = await crawl(acme('/'));
    expect(web.requests(ACME)).toContain('/files/brochure.pdf');
    expect(result.pages.find((page) => page.url === acme('/files/brochure.pdf'))).toMatchObject({
      contentType: 'application/pdf',
      encoding: 'base64',
    });
    expect(paths(result)).not.toContain('/press-kit');
    expect(result.skipped.find((skip) => skip.url === acme('/press-kit'))?.reason).toMatch(/unsupported_type|not_html/);
  });

  it('fetches a tracking-parameter twin once and keeps a trailing-slash twin once', async () => {
    const result = await crawl(acme('/'));
    expect(web.requests(ACME).filter((path) => path.includes('utm_'))).toEqual([]);
    expect(paths(result).filter((path) => path.startsWith('/products') && path.split('/').length === 2)).toEqual([
      '/products',
    ]);
    expect(result.skipped).toContainEqual({ url: acme('/products/'), reason: 'duplicate' });
  });

  it('does not keep a page whose robots meta says noindex', async () => {
    const result = await crawl(acme('/'));
    expect(web.requests(ACME)).toContain('/thank-you');
    expect(paths(result)).not.toContain('/thank-you');
  });

  it('reads links on extraction threads when given them; a page whose links are given up is kept, its links unfollowed', async () => {
    const workers = new ExtractionWorkers({ timeoutMs: 10_000, size: 1, maxHeapMb: 128 });
    try {
      expect(workers.threaded).toBe(true);
      const threaded = await crawl(acme('/'), { readLinks: (html, url) => workers.links(html, url) });
      expect(paths(threaded).sort()).toEqual(paths(await crawl(acme('/'))).sort());
      expect(paths(threaded)).not.toContain('/thank-you');
    } finally {
      await workers.close();
    }
    const givenUp = await crawl(acme('/'), {
      readLinks: () => Promise.reject(new ExtractionAbandoned("the page's links took longer than 2 s to read")),
    });
    expect(paths(givenUp)).toEqual(['/']);
  });

  it('a seed that is not http(s) is refused', async () => {
    await expect(crawl('ftp://example.test/')).rejects.toThrow(/not an http/);
  });
});
