import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { HttpFetcher } from '@app/fetch';
import type { SearchQuery } from '@app/providers';
import { LocalSearchProvider } from '@app/search-engine';
import { type FixtureWeb, fixtureSeed, startFixtureWeb } from '../../support/fixture-web';

// The local provider built by crawling every fixture site (the www twin included) through the
// real HttpFetcher, each seed mapping its loopback server to the site's public host, then
// searched: hits carry the public addresses.
describe('local search over the crawled fixture web', () => {
  let web: FixtureWeb;
  let fetcher: HttpFetcher;
  let dataDir: string;
  let provider: LocalSearchProvider;
  const seeds = () => web.hosts.map((host) => fixtureSeed(web, host));
  const search = async (query: SearchQuery) => (await provider.search(query)).hits;
  const urls = async (query: SearchQuery) => (await search(query)).map((hit) => hit.url);
  const daysAgo = (days: number) => new Date(web.startedAt.getTime() - days * 86_400_000).toISOString().slice(0, 10);

  beforeAll(async () => {
    web = await startFixtureWeb();
    fetcher = new HttpFetcher({ allowHosts: web.allowHosts });
    dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'local-index-it-'));
    provider = new LocalSearchProvider({ dataDir, seeds: seeds(), fetcher, now: () => web.startedAt });
    await provider.ready();
  });
  afterAll(async () => {
    await provider.close();
    await fetcher.close();
    await web.stop();
    await fs.rm(dataDir, { recursive: true, force: true });
  });

  it('answers with the public address, title, snippet, date and full text of the best page', async () => {
    const [hit] = await search({ query: 'picker arm suction gripper picks per hour', withContent: true });
    expect(hit).toMatchObject({
      url: 'https://acme-robotics.test/products/picker-arm',
      category: 'company',
      language: 'en',
    });
    expect(hit.snippet).toMatch(/picks per hour|suction/);
    expect(hit.content).toContain('stereo vision head');
  });

  it('finds the research paper for a topical query', async () => {
    expect((await urls({ query: 'sodium-ion layered oxide cathode magnesium titanium' }))[0]).toBe(
      'https://papers.openscholar.test/abs/2403.01234',
    );
    expect((await urls({ query: 'bm25 term saturation length normalisation' }))[0]).toBe(
      'https://papers.openscholar.test/abs/2311.09876',
    );
  });

  it('holds one document per page: www twin, trailing slash and tracking parameters collapse', async () => {
    expect(await urls({ query: 'tote runner', includeDomains: ['www.acme-robotics.test'] })).toEqual([]);
    const products = await urls({
      query: 'product line tote runner picker arm fleet',
      includeDomains: ['acme-robotics.test'],
      limit: 50,
    });
    expect(products.filter((url) => /\/products\/?$/.test(new URL(url).pathname))).toEqual([
      'https://acme-robotics.test/products',
    ]);
    expect(new Set(products).size).toBe(products.length);
  });

  it('has nothing from pages robots.txt or a noindex meta keep out', async () => {
    // Each word appears on the kept-out page only (OR semantics would match common words elsewhere).
    expect(await urls({ query: 'Kestrel' })).toEqual([]);
    expect(await urls({ query: 'embargoed' })).toEqual([]);
    expect(await urls({ query: 'coordinators' })).toEqual([]);
  });

  it('includeDomains keeps a domain and its subdomains', async () => {
    const all = await urls({ query: 'harborview harbour', limit: 50 });
    const kept = await urls({ query: 'harborview harbour', includeDomains: ['example-daily.test'], limit: 50 });
    expect(all.some((url) => !new URL(url).hostname.endsWith('example-daily.test'))).toBe(true);
    expect(kept.length).toBeGreaterThan(0);
    expect(kept.every((url) => /(^|\.)example-daily\.test$/.test(new URL(url).hostname))).toBe(true);
    expect(kept.some((url) => new URL(url).hostname === 'news.example-daily.test')).toBe(true);
  });

  it('excludeDomains drops a subdomain and keeps its parent', async () => {
    const kept = await urls({ query: 'harborview harbour', excludeDomains: ['news.example-daily.test'], limit: 50 });
    expect(kept.some((url) => new URL(url).hostname === 'news.example-daily.test')).toBe(false);
    expect(kept.some((url) => new URL(url).hostname === 'example-daily.test')).toBe(true);
  });

  it('freshness keeps recent dated pages only, counted from the clock', async () => {
    const week = await search({
      query: 'harborview harbour city council bridge marathon',
      freshness: 'week',
      limit: 50,
    });
    expect(week.map((hit) => hit.url)).toContain('https://news.example-daily.test/city/tram-extension-approved');
    expect(week.every((hit) => hit.date !== null && hit.date >= daysAgo(7))).toBe(true);
    const year = await urls({ query: 'marathon swing bridge', freshness: 'year' });
    expect(year).toContain('https://news.example-daily.test/city/marathon-road-closures');
    expect(year).not.toContain('https://news.example-daily.test/city/swing-bridge-reopens');
  });

  it('day freshness keeps the story from forty minutes ago', async () => {
    const day = await urls({ query: 'water main harbor street', freshness: 'day' });
    expect(day[0]).toBe('https://news.example-daily.test/city/water-main-break-harbor-street');
    expect(await urls({ query: 'library renovation makerspace', freshness: 'day' })).toEqual([]);
  });

  it('dateFrom and dateTo bound the page date', async () => {
    const hits = await search({ query: 'battery', dateFrom: daysAgo(60), dateTo: daysAgo(10), limit: 50 });
    expect(hits.length).toBeGreaterThan(0);
    expect(hits.every((hit) => hit.date! >= daysAgo(60) && hit.date! <= daysAgo(10))).toBe(true);
    expect(hits.map((hit) => hit.url)).toContain('https://mara-lindqvist.test/blog/why-sodium-ion');
  });

  it.each([
    ['research_paper', 'sodium-ion battery cathode', 'https://papers.openscholar.test/abs/2403.01234'],
    ['news', 'sodium-ion battery cathode', 'https://news.example-daily.test/science/sodium-ion-battery-breakthrough'],
    ['personal_site', 'sodium-ion battery', 'https://mara-lindqvist.test/blog/why-sodium-ion'],
    ['people', 'chief executive officer battery', 'https://helio-grid.test/team/priya-raman'],
    ['financial_report', 'revenue quarter', 'https://acme-robotics.test/investors/quarterly-results'],
    ['company', 'renewable energy company solar inverters', 'https://helio-grid.test/about'],
  ] as const)('category %s keeps only that category', async (category, query, expected) => {
    const hits = await search({ query, category, limit: 20 });
    expect(hits.map((hit) => hit.url)).toContain(expected);
    expect(hits.every((hit) => hit.category === category)).toBe(true);
  });

  it('language keeps pages in that language', async () => {
    expect(await urls({ query: 'HelioGrid Wechselrichter', language: 'de' })).toEqual([
      'https://helio-grid.test/de/ueber-uns',
    ]);
    const english = await urls({ query: 'HelioGrid Stadtfest', language: 'en', limit: 50 });
    expect(english.length).toBeGreaterThan(0);
    expect(english).not.toContain('https://helio-grid.test/de/ueber-uns');
    expect(english).not.toContain('https://news.example-daily.test/lokales/stadtfest');
  });

  it('pages through a broad query without repeats', async () => {
    const first = await provider.search({ query: 'battery', limit: 5, page: 1 });
    const second = await provider.search({ query: 'battery', limit: 5, page: 2 });
    expect(first.hasMore).toBe(true);
    expect(second.page).toBe(2);
    expect(second.hits.length).toBeGreaterThan(0);
    expect(second.hits.some((hit) => first.hits.some((other) => other.url === hit.url))).toBe(false);
  });

  it('a second boot with the same seeds loads the saved index without crawling', async () => {
    const before = web.requests('acme-robotics.test').length;
    const again = new LocalSearchProvider({ dataDir, seeds: seeds(), fetcher, now: () => web.startedAt });
    expect(await again.search({ query: 'picker arm' })).toEqual(await provider.search({ query: 'picker arm' }));
    expect(web.requests('acme-robotics.test')).toHaveLength(before);
    await again.close();
  });
});

describe('refreshing the crawled index', () => {
  let web: FixtureWeb;
  let fetcher: HttpFetcher;
  let dataDir: string;

  beforeEach(async () => {
    web = await startFixtureWeb();
    fetcher = new HttpFetcher({ allowHosts: web.allowHosts });
    dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'local-index-refresh-'));
  });
  afterEach(async () => {
    await fetcher.close();
    await web.stop();
    await fs.rm(dataDir, { recursive: true, force: true });
  });

  it('re-crawls: a changed page replaces its document and a vanished page is dropped', async () => {
    const provider = new LocalSearchProvider({ dataDir, seeds: [fixtureSeed(web, 'acme-robotics.test')], fetcher });
    const urls = async (query: string) => (await provider.search({ query })).hits.map((hit) => hit.url);
    await provider.ready();
    expect(await urls('traffic manager reserves aisle segments')).toContain(
      'https://acme-robotics.test/products/fleet-os',
    );

    await web.setPage(
      'acme-robotics.test',
      '/products/fleet-os',
      '<html lang="en"><head><title>Fleet OS 5</title><link rel="canonical" href="{{canonical}}"></head><body><main><h1>Fleet OS 5</h1><p>Fleet OS now schedules overnight cycle counts by ceiling drones and balances charging across the whole fleet.</p></main></body></html>',
    );
    web.removePage('acme-robotics.test', '/team/dana-whitfield');
    const report = await provider.refresh();

    expect((await urls('overnight cycle counts ceiling drones'))[0]).toBe(
      'https://acme-robotics.test/products/fleet-os',
    );
    expect(await urls('traffic manager reserves aisle segments')).not.toContain(
      'https://acme-robotics.test/products/fleet-os',
    );
    expect(await urls('Dana Whitfield grasp planning doctorate')).not.toContain(
      'https://acme-robotics.test/team/dana-whitfield',
    );
    expect(report.removed).toBe(1);
    expect(report.documents).toBe(provider.stats().documents);
    await provider.close();
  });

  it('a seed dropped from the list takes none of the pages another seed shares with it', async () => {
    const apex = fixtureSeed(web, 'acme-robotics.test');
    const twin = fixtureSeed(web, 'www.acme-robotics.test');
    const boot = async (seeds: string[]) => {
      const provider = new LocalSearchProvider({ dataDir, seeds, fetcher });
      await provider.ready();
      await provider.close();
      return provider;
    };
    const apexOnly = (await boot([apex])).stats().documents;
    // The twin is crawled last, so the shared pages are now recorded under it.
    expect((await boot([apex, twin])).stats().documents).toBe(apexOnly);
    const after = new LocalSearchProvider({ dataDir, seeds: [apex], fetcher });
    await after.ready();
    expect(after.stats().documents).toBe(apexOnly);
    expect((await after.search({ query: 'picker arm' })).hits[0].url).toBe(
      'https://acme-robotics.test/products/picker-arm',
    );
    await after.close();
  });

  it('keeps the old pages of a seed that cannot be crawled any more', async () => {
    const seed = fixtureSeed(web, 'weekend-bakers.test');
    const provider = new LocalSearchProvider({ dataDir, seeds: [seed], fetcher });
    await provider.ready();
    const before = provider.stats().documents;
    web.removePage('weekend-bakers.test', '/');
    const report = await provider.refresh();
    expect(report.errors).toEqual([expect.stringContaining(seed)]);
    expect(provider.stats().documents).toBe(before);
    expect((await provider.search({ query: 'rye sourdough' })).hits.map((hit) => hit.url)).toContain(
      'https://weekend-bakers.test/recipes/rye-sourdough',
    );
    await provider.close();
  });
});
