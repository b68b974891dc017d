import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { extractDocument } from '@app/extraction';
import { FetchError, type FetchedPage, type PageFetcher } from '@app/fetch';
import { LocalSearchProvider } from './local.search-provider';

const page = (url: string, title: string, text: string) =>
  `<!doctype html><html lang="en"><head><title>${title}</title><link rel="canonical" href="${url}"></head><body><main><h1>${title}</h1><p>${text}</p></main></body></html>`;

/** A made-up web for crawls: URL -> HTML (links are written into the pages); anything else is a 404. */
const fakeWeb = (pages: Record<string, string>): PageFetcher => ({
  fetch: async (url: string): Promise<FetchedPage> => {
    const body = pages[url];
    if (body === undefined) throw new FetchError('http_error', url, `${url} answered 404`, 404);
    return {
      url,
      finalUrl: url,
      status: 200,
      contentType: 'text/html',
      charset: 'utf-8',
      body,
      bytes: body.length,
      fetchedAt: new Date(0).toISOString(),
      fromCache: false,
    };
  },
  robotsAllowed: async () => true,
  robotsFilter: async (urls: readonly string[]) => urls.map(() => true),
  robotsSitemaps: async () => [],
  crawlDelayMs: async () => 0,
  close: async () => undefined,
});
const linking = (html: string, ...links: string[]) =>
  html.replace('</main>', `${links.map((href) => `<a href="${href}">more</a>`).join('')}</main>`);

describe('LocalSearchProvider', () => {
  let dataDir: string;
  let pagesDir: string;
  const open: LocalSearchProvider[] = [];
  const provider = (options: Partial<ConstructorParameters<typeof LocalSearchProvider>[0]> = {}) => {
    const p = new LocalSearchProvider({ dataDir, indexDir: pagesDir, ...options });
    open.push(p);
    return p;
  };
  const urls = async (p: LocalSearchProvider, query: string) => (await p.search({ query })).hits.map((hit) => hit.url);

  beforeEach(async () => {
    dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'local-provider-data-'));
    pagesDir = await fs.mkdtemp(path.join(os.tmpdir(), 'local-provider-pages-'));
    await fs.writeFile(
      path.join(pagesDir, 'ferry.html'),
      page(
        'https://news.river.example/ferry',
        'Electric ferry line opens',
        'A battery-electric ferry now links the old port and the university every fifteen minutes.',
      ),
    );
    await fs.writeFile(
      path.join(pagesDir, 'bridge.html'),
      page(
        'https://news.river.example/bridge',
        'Swing bridge restored',
        'The old swing bridge reopened to pedestrians and cyclists after two years of repairs.',
      ),
    );
  });
  afterEach(async () => {
    await Promise.all(open.splice(0).map((p) => p.close()));
    await Promise.all([dataDir, pagesDir].map((dir) => fs.rm(dir, { recursive: true, force: true })));
  });

  it('declares every filter native except country, with full text, dates and pagination', () => {
    expect(provider().capabilities).toEqual({
      domainFilter: 'native',
      freshness: 'native',
      dateRange: 'native',
      category: 'native',
      country: 'none',
      language: 'native',
      pagination: true,
      fullText: true,
      dates: true,
    });
  });

  it('indexes the folder once ready and answers with the pages it declares', async () => {
    const p = provider();
    await p.ready();
    const result = await p.search({ query: 'ferry university', withContent: true });
    expect(result.hits[0]).toMatchObject({
      url: 'https://news.river.example/ferry',
      title: 'Electric ferry line opens',
    });
    expect(result.hits[0].content).toContain('every fifteen minutes');
    expect(result.warnings).toEqual([]);
  });

  it('keeps the index in DATA_DIR/index and reopens it at the next boot without reading the pages again', async () => {
    const first = provider();
    await first.ready();
    await first.close();
    expect(
      (await fs.readdir(path.join(dataDir, 'index'))).filter((f) => !f.endsWith('-wal') && !f.endsWith('-shm')),
    ).toEqual(['local-index.db', 'local-index.db.pages']);
    const extract = jest.fn(extractDocument);
    const again = provider({ extract });
    expect(await urls(again, 'swing bridge')).toEqual(['https://news.river.example/bridge']);
    expect(extract).not.toHaveBeenCalled();
  });

  it('at boot, reads again only what changed in the folder meanwhile', async () => {
    const first = provider();
    await first.ready();
    await first.close();
    await fs.writeFile(
      path.join(pagesDir, 'tram.html'),
      page(
        'https://news.river.example/tram',
        'Tram extension approved',
        'The council approved the tram extension to the airport.',
      ),
    );
    await fs.rm(path.join(pagesDir, 'bridge.html'));
    const extract = jest.fn(extractDocument);
    const again = provider({ extract });
    // It answers from the stored index at once, and catches up with the folder right after.
    expect(await urls(again, 'swing bridge')).toEqual(['https://news.river.example/bridge']);
    await again.settled();
    expect(await urls(again, 'tram airport')).toEqual(['https://news.river.example/tram']);
    expect(await urls(again, 'swing bridge')).toEqual([]);
    expect(extract).toHaveBeenCalledTimes(1);
  });

  it('at boot, compares a folder of folders file by file: an edited page is read again, one grown past the size bound and one behind a hidden name are gone', async () => {
    await fs.mkdir(path.join(pagesDir, 'news', 'old'), { recursive: true });
    const kept = 'The harbour museum opens a hall of ship models.';
    await fs.writeFile(
      path.join(pagesDir, 'news', 'old', 'museum.html'),
      page('https://news.river.example/museum', 'Museum hall', kept),
    );
    await fs.writeFile(
      path.join(pagesDir, 'news', 'market.html'),
      page('https://news.river.example/market', 'Night market', 'A night market fills the quay on Fridays.'),
    );
    const first = provider();
    await first.ready();
    expect(await urls(first, 'night market')).toEqual(['https://news.river.example/market']);
    await first.close();
    await fs.writeFile(
      path.join(pagesDir, 'news', 'old', 'museum.html'),
      page('https://news.river.example/museum', 'Museum hall', 'The harbour museum now shows lighthouse lenses.'),
    );
    // Past the 5 MB a page file may weigh: the listing leaves it out, so its page goes.
    await fs.writeFile(path.join(pagesDir, 'ferry.html'), 'x'.repeat(5 * 1024 * 1024 + 1));
    await fs.rename(path.join(pagesDir, 'news', 'market.html'), path.join(pagesDir, 'news', '.market.html'));
    const extract = jest.fn(extractDocument);
    const again = provider({ extract });
    await again.settled();
    expect(await urls(again, 'lighthouse lenses')).toEqual(['https://news.river.example/museum']);
    expect(await urls(again, 'ship models')).toEqual([]);
    expect(await urls(again, 'battery ferry')).toEqual([]);
    expect(await urls(again, 'night market')).toEqual([]);
    expect(await urls(again, 'swing bridge')).toEqual(['https://news.river.example/bridge']);
    expect(extract).toHaveBeenCalledTimes(1);
  });

  it('refresh re-reads the folder: an edited page replaces its old document', async () => {
    const p = provider();
    await p.ready();
    await fs.writeFile(
      path.join(pagesDir, 'ferry.html'),
      page(
        'https://news.river.example/ferry',
        'Ferry line suspended',
        'The ferry is suspended while its charging pier is rebuilt.',
      ),
    );
    await p.refresh();
    expect(await urls(p, 'charging pier')).toEqual(['https://news.river.example/ferry']);
    expect(await urls(p, 'university')).toEqual([]);
    expect(p.stats().documents).toBe(2);
  });

  it('watches the folder: an edited page is searchable with its new text, a new one is added and a deleted one is gone, without a restart', async () => {
    const updates: string[] = [];
    const p = provider({ onUpdate: (report) => updates.push(`${report.kind} +${report.indexed} -${report.removed}`) });
    await p.ready();
    const eventually = async (query: string, expected: string[]) => {
      const deadline = Date.now() + 10_000;
      for (;;) {
        const got = await urls(p, query);
        if (JSON.stringify(got) === JSON.stringify(expected)) return;
        if (Date.now() > deadline)
          throw new Error(
            `"${query}" gave ${JSON.stringify(got)}, not ${JSON.stringify(expected)}, after 10 s (updates: ${updates.join(', ')})`,
          );
        await new Promise((r) => setTimeout(r, 25));
      }
    };
    await fs.writeFile(
      path.join(pagesDir, 'ferry.html'),
      page(
        'https://news.river.example/ferry',
        'Ferry line suspended',
        'The ferry is suspended while its charging pier is rebuilt.',
      ),
    );
    await eventually('charging pier', ['https://news.river.example/ferry']);
    await eventually('university', []);
    await fs.mkdir(path.join(pagesDir, 'later'));
    await fs.writeFile(
      path.join(pagesDir, 'later', 'tram.html'),
      page(
        'https://news.river.example/tram',
        'Tram extension approved',
        'The council approved the tram extension to the airport.',
      ),
    );
    await eventually('tram airport', ['https://news.river.example/tram']);
    await fs.rm(path.join(pagesDir, 'bridge.html'));
    await eventually('swing bridge', []);
    await fs.rm(path.join(pagesDir, 'later'), { recursive: true });
    await eventually('tram airport', []);
    expect(p.stats().documents).toBe(1);
  });

  it('serves the shipped demo corpus when given neither a folder nor seeds', async () => {
    const p = provider({ indexDir: undefined });
    const result = await p.search({ query: 'webhook signature verify', limit: 3 });
    expect(result.hits[0].url).toBe('https://docs.webresearch.example/webhooks');
    expect(p.stats().documents).toBeGreaterThanOrEqual(30);
  });

  it('refuses a LOCAL_INDEX_DIR that does not exist, naming it', async () => {
    const p = provider({ indexDir: path.join(pagesDir, 'missing') });
    await expect(p.ready()).rejects.toThrow(/LOCAL_INDEX_DIR .*missing does not exist/);
    await expect(p.search({ query: 'ferry' })).rejects.toMatchObject({
      name: 'SearchProviderError',
      provider: 'local',
      retryable: false,
    });
  });

  it('warns when the index is empty', async () => {
    const empty = await fs.mkdtemp(path.join(os.tmpdir(), 'local-provider-empty-'));
    const result = await provider({ indexDir: empty }).search({ query: 'anything' });
    expect(result.warnings).toEqual([expect.stringContaining('no pages')]);
    await fs.rm(empty, { recursive: true });
  });

  it('needs a fetcher to crawl seeds', () => {
    expect(() => provider({ seeds: ['https://x.example/'] })).toThrow(/fetcher/);
  });

  describe('crawled pages and their canonical links', () => {
    const crawl = async (seeds: string[], pages: Record<string, string>) => {
      const p = provider({ indexDir: undefined, seeds, fetcher: fakeWeb(pages) });
      await p.ready();
      return p;
    };
    const hits = async (p: LocalSearchProvider, query: string, includeDomains?: string[]) =>
      (await p.search({ query, limit: 50, ...(includeDomains && { includeDomains }) })).hits.map((hit) => hit.url);

    it('a page declaring a canonical on another host is indexed under its own host', async () => {
      const p = await crawl(['https://a.example/', 'https://b.example/'], {
        'https://a.example/': linking(
          page('https://a.example/', 'A home', 'Welcome to site A and its garden notes.'),
          '/claim',
        ),
        'https://a.example/claim': page(
          'https://b.example/story',
          'Claimed story',
          'Harbour ferry timetable changes announced for the winter season.',
        ),
        'https://b.example/': linking(
          page('https://b.example/', 'B home', 'Welcome to site B and its city news.'),
          '/story',
        ),
        'https://b.example/story': page(
          'https://b.example/story',
          'Real story',
          'The city council approved the new cycling bridge over the river.',
        ),
      });
      expect(await hits(p, 'harbour ferry timetable')).toEqual(['https://a.example/claim']);
      // It passes neither b.example's include filter nor replaces b.example's own document.
      expect(await hits(p, 'harbour ferry timetable', ['b.example'])).toEqual([]);
      expect(await hits(p, 'cycling bridge council', ['b.example'])).toEqual(['https://b.example/story']);
      expect(p.stats().documents).toBe(4);
    });

    it('a same-host canonical still collapses trailing-slash, tracking-parameter and www twins', async () => {
      const story = (variant: string) =>
        page(
          'https://www.a.example/story',
          'Story',
          `The city council approved the new cycling bridge over the river. ${variant}`,
        );
      const p = await crawl(['http://a.example/'], {
        'http://a.example/': linking(
          page('https://a.example/', 'A home', 'Welcome to site A and its garden notes.'),
          '/story',
          '/story/',
          '/story?utm_source=feed',
        ),
        'http://a.example/story': story('First copy.'),
        'http://a.example/story/': story('Second copy.'),
        'http://a.example/story?utm_source=feed': story('Third copy.'),
      });
      // http -> https and the www twin of the fetched host count as the same site.
      expect(await hits(p, 'cycling bridge council')).toEqual(['https://www.a.example/story']);
      expect(await hits(p, 'garden notes')).toEqual(['https://a.example/']);
      expect(p.stats().documents).toBe(2);
    });

    it('a PUBLIC_ORIGIN=FETCH_URL seed records the mirror under the public host', async () => {
      const mirror = 'http://127.0.0.1:41234';
      const p = await crawl([`https://acme.example=${mirror}/`], {
        [`${mirror}/`]: linking(
          page('https://acme.example/', 'Acme', 'Acme builds warehouse robots.'),
          '/products?ref=home',
          '/about',
          '/claim',
        ),
        // Declares its public address: the same site as the mirror's public host, so it counts.
        [`${mirror}/products?ref=home`]: page(
          'https://www.acme.example/products',
          'Products',
          'The picker arm moves six hundred totes an hour.',
        ),
        // Declares nothing: known by its path on the public host.
        [`${mirror}/about`]:
          '<html lang="en"><head><title>About</title></head><body><main><h1>About</h1><p>Acme was founded in a garage by two engineers.</p></main></body></html>',
        // Declares another host: kept on the public host the operator named.
        [`${mirror}/claim`]: page(
          'https://rival.example/news',
          'Claim',
          'Quarterly revenue grew by a third on robot sales.',
        ),
      });
      expect(await hits(p, 'picker arm totes')).toEqual(['https://www.acme.example/products']);
      expect(await hits(p, 'founded garage engineers')).toEqual(['https://acme.example/about']);
      expect(await hits(p, 'quarterly revenue grew')).toEqual(['https://acme.example/claim']);
      expect(await hits(p, 'quarterly revenue grew', ['rival.example'])).toEqual([]);
      expect(await hits(p, 'warehouse robots', ['127.0.0.1'])).toEqual([]);
    });

    it('refuses a malformed mirror seed, naming it', () => {
      expect(() => provider({ seeds: ['https://acme.example='], fetcher: fakeWeb({}) })).toThrow(
        /LOCAL_INDEX_SEEDS seed "https:\/\/acme.example=": after "="/,
      );
    });
  });

  it('stops at once on an aborted signal', async () => {
    await expect(provider().search({ query: 'ferry', signal: AbortSignal.abort() })).rejects.toThrow();
  });
});
