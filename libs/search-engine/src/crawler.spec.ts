import type { FetchedPage, PageFetcher } from '@app/fetch';
import { Crawler } from './crawler';

/** A site of five linked pages and the robots.txt given, answering from memory and noting when each URL was asked for. */
function site(robots: string | null) {
  const asked: Array<{ url: string; at: number }> = [];
  const pages: Record<string, string> = { 'https://slow.example/robots.txt': robots ?? '' };
  const links = [1, 2, 3, 4].map((i) => `<a href="/p${i}">p${i}</a>`).join('');
  pages['https://slow.example/'] = `<html><body><main><p>Home of the slow site.</p>${links}</main></body></html>`;
  for (let i = 1; i <= 4; i++)
    pages[`https://slow.example/p${i}`] = `<html><body><main><p>Page ${i} of the slow site.</p></main></body></html>`;
  const fetcher: PageFetcher = {
    fetch: async (url: string): Promise<FetchedPage> => {
      asked.push({ url, at: Date.now() });
      const body = pages[url];
      const status = body === undefined || (url.endsWith('/robots.txt') && robots === null) ? 404 : 200;
      return {
        url,
        finalUrl: url,
        status,
        contentType: url.endsWith('.txt') ? 'text/plain' : 'text/html',
        charset: 'utf-8',
        body: body ?? '',
        bytes: (body ?? '').length,
        fetchedAt: new Date().toISOString(),
        fromCache: false,
      };
    },
    robotsAllowed: async () => true,
    robotsFilter: async (urls: readonly string[]) => urls.map(() => true),
    robotsSitemaps: async () => [],
    crawlDelayMs: async () => 0,
    close: async () => undefined,
  };
  return { fetcher, asked };
}

describe('Crawler and Crawl-delay', () => {
  it("waits the site's Crawl-delay between requests, one at a time", async () => {
    const { fetcher, asked } = site('User-agent: *\nCrawl-delay: 0.2\n');
    const result = await new Crawler(fetcher, { concurrency: 4 }).crawl('https://slow.example/');
    expect(result.pages).toHaveLength(5);
    const pages = asked.filter((a) => !a.url.endsWith('robots.txt'));
    for (let i = 1; i < pages.length; i++) expect(pages[i].at - pages[i - 1].at).toBeGreaterThanOrEqual(190);
  });

  it('reads the delay of its own user agent before the catch-all one, and caps what it honours', async () => {
    const own = site('User-agent: WebResearchBot\nCrawl-delay: 0.15\n\nUser-agent: *\nCrawl-delay: 5\n');
    const started = Date.now();
    await new Crawler(own.fetcher).crawl('https://slow.example/');
    expect(Date.now() - started).toBeLessThan(2_000);
    const capped = site('User-agent: *\nCrawl-delay: 3600\n');
    const began = Date.now();
    await new Crawler(capped.fetcher, { maxCrawlDelayMs: 100 }).crawl('https://slow.example/');
    expect(Date.now() - began).toBeLessThan(2_000);
  });

  it('crawls at full speed when robots.txt sets no delay or is missing', async () => {
    for (const robots of ['User-agent: *\nDisallow:\n', null]) {
      const { fetcher, asked } = site(robots);
      const started = Date.now();
      const result = await new Crawler(fetcher, { concurrency: 4 }).crawl('https://slow.example/');
      expect(result.pages).toHaveLength(5);
      expect(Date.now() - started).toBeLessThan(500);
      expect(asked[0].url).toBe('https://slow.example/robots.txt');
    }
  });
});
