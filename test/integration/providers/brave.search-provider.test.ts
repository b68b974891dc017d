import { BraveSearchProvider, type BraveSearchProviderOptions } from '@app/providers';
import { SearchProviderHttpError } from '@app/providers';
import { SearchProviderError } from '@app/providers';
import { ReplayServer } from '../../support/replay-server';
import { load, recorded, rejection } from './recorded';

/** The Brave adapter against recorded Web Search API answers served on loopback. */
describe('BraveSearchProvider (replayed Brave Search API)', () => {
  const PATH = '/res/v1/web/search';
  const now = () => new Date('2025-01-16T12:00:00Z');
  let server: ReplayServer;
  const providers: BraveSearchProvider[] = [];
  const provider = (options: Partial<BraveSearchProviderOptions> = {}) => {
    const p = new BraveSearchProvider({
      apiKey: 'BSA-test-key',
      baseUrl: server.url,
      retryBaseDelayMs: 5,
      requestsPerSecond: 0,
      now,
      ...options,
    });
    providers.push(p);
    return p;
  };

  beforeAll(async () => {
    server = await ReplayServer.start({
      routes: [
        { path: PATH, query: { q: 'rust async runtime' }, file: recorded('brave', 'web-search') },
        {
          path: PATH,
          query: { q: 'rust async runtime', country: 'DE' },
          file: recorded('brave', 'web-search-last-page'),
        },
        { path: PATH, query: { q: 'slow' }, delayMs: 100, file: recorded('brave', 'web-search-last-page') },
        { path: PATH, query: { q: 'hang' }, delayMs: 1_000, file: recorded('brave', 'web-search-last-page') },
        { path: PATH, query: { country: 'XX' }, status: 422, file: recorded('brave', 'error-validation') },
      ],
    });
  });
  afterEach(() => server.reset());
  afterAll(async () => {
    await Promise.all(providers.map((p) => p.close()));
    await server.close();
  });

  it('sends the subscription token and asks for JSON', async () => {
    await provider().search({ query: 'rust async runtime' });
    const [request] = server.requestsTo(PATH);
    expect(request!.headers['x-subscription-token']).toBe('BSA-test-key');
    expect(request!.headers['accept']).toBe('application/json');
  });

  it('maps web and news results in Brave’s mixed order, de-duplicated', async () => {
    const page = await provider().search({ query: 'rust async runtime' });
    expect(page).toMatchObject({ page: 1, hasMore: true, warnings: [] });
    expect(page.hits.map((h) => [h.url, h.category, h.date])).toEqual([
      ['https://tokio.rs/', null, '2024-12-03'], // page_age
      ['https://rust-lang.github.io/async-book/', null, '2023-03-14'], // age "March 14, 2023"
      ['https://www.infoq.com/news/2025/01/tokio-runtime-metrics/', 'news', '2025-01-14'], // the news cluster
      ['https://corrode.dev/blog/async/', null, '2023-09-21'],
      ['https://github.com/smol-rs/smol', null, null], // neither page_age nor age
      ['https://www.reddit.com/r/rust/comments/15w0m4u/which_async_runtime_should_i_use/', null, '2024-08-19'], // "5 months ago"
    ]);
    expect(page.hits[0]).toEqual({
      url: 'https://tokio.rs/',
      title: 'Tokio - An asynchronous Rust runtime',
      snippet:
        'Tokio is an event-driven, non-blocking I/O platform for writing asynchronous applications with the Rust programming language.',
      date: '2024-12-03',
      category: null,
      language: 'en',
      score: 1,
    });
    expect(page.hits[3]!.snippet).toContain(
      `"Zero-cost futures in Rust" by Aaron Turon about what would become the foundation of Rust's async`,
    );
    // An empty description falls back to the first extra snippet.
    expect(page.hits[4]!.snippet).toBe(
      'A small and fast async runtime. This crate simply re-exports other smaller async crates.',
    );
    expect(page.hits.map((h) => h.score)).toEqual([1, 1 / 2, 1 / 3, 1 / 4, 1 / 5, 1 / 6]);
  });

  it('puts news first when the category is news', async () => {
    const page = await provider().search({ query: 'rust async runtime', category: 'news' });
    expect(page.hits[0]!.url).toBe('https://www.infoq.com/news/2025/01/tokio-runtime-metrics/');
    expect(page.hits[0]!.score).toBe(1);
  });

  it('sends count, offset (page index), country, search_lang, freshness and the fixed options', async () => {
    await provider({ safesearch: 'strict', extraSnippets: true }).search({
      query: 'rust async runtime',
      page: 3,
      limit: 5,
      country: 'de',
      language: 'ja',
      freshness: 'week',
    });
    expect(server.requestsTo(PATH)[0]!.query).toEqual({
      q: 'rust async runtime',
      count: '5',
      offset: '2',
      country: 'DE',
      search_lang: 'jp',
      freshness: 'pw',
      text_decorations: 'false',
      result_filter: 'web,news',
      safesearch: 'strict',
      extra_snippets: 'true',
    });
  });

  it('asks for worldwide results (country=ALL) and count 20 by default', async () => {
    await provider().search({ query: 'rust async runtime' });
    expect(server.requestsTo(PATH)[0]!.query).toEqual({
      q: 'rust async runtime',
      count: '20',
      offset: '0',
      country: 'ALL',
      text_decorations: 'false',
      result_filter: 'web,news',
    });
  });

  it.each([
    [{ freshness: 'day' as const }, 'pd'],
    [{ freshness: 'month' as const }, 'pm'],
    [{ freshness: 'year' as const }, 'py'],
    [{ dateFrom: '2024-01-01', dateTo: '2024-06-30' }, '2024-01-01to2024-06-30'],
    // A month is 30 days (FRESHNESS_WINDOW_MS), whatever the provider.
    [{ dateFrom: '2024-01-01', freshness: 'month' as const }, '2024-12-17to2025-01-16'],
    [{ dateTo: '2020-12-31' }, '1991-01-01to2020-12-31'],
  ])('maps %j to freshness=%s', async (filters, expected) => {
    await provider().search({ query: 'rust async runtime', ...filters });
    expect(server.requestsTo(PATH)[0]!.query.freshness).toBe(expected);
  });

  it("asks for the last day when freshness is 'hour' and says it is not native", async () => {
    const page = await provider().search({ query: 'rust async runtime', freshness: 'hour' });
    expect(server.requestsTo(PATH)[0]!.query.freshness).toBe('pd');
    expect(page.warnings).toEqual(["brave: freshness 'hour' is not supported natively; results cover the last day"]);
  });

  it('truncates to limit, continues ranks on later pages, ends when Brave has no more', async () => {
    const p = provider();
    const first = await p.search({ query: 'rust async runtime', limit: 3 });
    expect(first.hits.map((h) => h.url)).toEqual([
      'https://tokio.rs/',
      'https://rust-lang.github.io/async-book/',
      'https://www.infoq.com/news/2025/01/tokio-runtime-metrics/',
    ]);
    const second = await p.search({ query: 'rust async runtime', page: 2, limit: 3 });
    expect(second.hits[0]!.score).toBe(1 / 4);
    const last = await p.search({ query: 'rust async runtime', country: 'de', page: 2 });
    expect(last).toMatchObject({ page: 2, hasMore: false });
    expect(last.hits.map((h) => [h.language, h.date])).toEqual([['de', '2023-06-27']]);
  });

  it('does not ask for pages Brave cannot serve (offset > 9)', async () => {
    const page = await provider().search({ query: 'rust async runtime', page: 11 });
    expect(page).toEqual({
      hits: [],
      page: 11,
      hasMore: false,
      warnings: ['brave: only the first 10 pages are available'],
    });
    expect(server.requests).toHaveLength(0);
    expect((await provider().search({ query: 'rust async runtime', page: 10 })).hasMore).toBe(false);
  });

  it('declares honest capabilities', () => {
    expect(provider().capabilities).toEqual({
      domainFilter: 'none',
      freshness: 'native',
      dateRange: 'native',
      category: 'none',
      country: 'native',
      language: 'native',
      pagination: true,
      fullText: false,
      dates: true,
    });
  });

  describe('throttling', () => {
    it('never has more than maxConcurrent requests at the server', async () => {
      const p = provider({ maxConcurrent: 3 });
      await Promise.all(Array.from({ length: 8 }, () => p.search({ query: 'slow' })));
      expect(server.requests).toHaveLength(8);
      expect(server.maxInFlight).toBe(3);
    });

    it('holds to the per-second plan limit (default burst 1)', async () => {
      const p = provider({ requestsPerSecond: 5, maxConcurrent: 5 });
      await Promise.all(Array.from({ length: 3 }, () => p.search({ query: 'rust async runtime' })));
      const at = server.requests.map((r) => r.at).sort((a, b) => a - b);
      expect(at[1]! - at[0]!).toBeGreaterThanOrEqual(150);
      expect(at[2]! - at[1]!).toBeGreaterThanOrEqual(150);
    });
  });

  describe('failures', () => {
    it('retries a 429 after the Retry-After it was given, then succeeds', async () => {
      server.failNext(1, 429, { headers: { 'retry-after': '1' }, body: load('brave', 'error-rate-limited') });
      const started = performance.now();
      const page = await provider().search({ query: 'rust async runtime' });
      expect(page.hits).toHaveLength(6);
      expect(server.requests).toHaveLength(2);
      expect(server.requests[1]!.at - server.requests[0]!.at).toBeGreaterThanOrEqual(950);
      expect(performance.now() - started).toBeLessThan(3_000);
    });

    it('without Retry-After, waits for the exhausted X-RateLimit-Reset window', async () => {
      server.failNext(1, 429, {
        headers: {
          'x-ratelimit-limit': '1, 2000',
          'x-ratelimit-remaining': '0, 1849',
          'x-ratelimit-reset': '1, 1419704',
        },
        body: load('brave', 'error-rate-limited'),
      });
      await provider().search({ query: 'rust async runtime' });
      expect(server.requests).toHaveLength(2);
      expect(server.requests[1]!.at - server.requests[0]!.at).toBeGreaterThanOrEqual(950);
    });

    it('fails at once, retryable, with the wait when the monthly quota is spent', async () => {
      server.failNext(1, 429, {
        headers: { 'x-ratelimit-limit': '1, 2000', 'x-ratelimit-remaining': '0, 0', 'x-ratelimit-reset': '1, 1419704' },
        body: load('brave', 'error-rate-limited'),
      });
      const err = await rejection(provider().search({ query: 'rust async runtime' }));
      expect(err).toBeInstanceOf(SearchProviderHttpError);
      expect(err).toMatchObject({ provider: 'brave', retryable: true, status: 429, retryAfterMs: 1_419_704_000 });
      expect(err.message).toBe('brave: HTTP 429: Request rate limit exceeded for plan. (RATE_LIMITED)');
      expect(server.requests).toHaveLength(1);
    });

    it('explains a refused token and does not retry it', async () => {
      server.failNext(1, 422, { body: load('brave', 'error-invalid-token') });
      const err = await rejection(provider().search({ query: 'rust async runtime' }));
      expect(err).toMatchObject({ retryable: false, status: 422 });
      expect(err.message).toContain('BRAVE_API_KEY');
      expect(err.message).toContain('SUBSCRIPTION_TOKEN_INVALID');
      expect(server.requests).toHaveLength(1);
    });

    it('names the rejected parameter of a validation error', async () => {
      const err = await rejection(provider().search({ query: 'rust async runtime', country: 'xx' }));
      expect(err).toBeInstanceOf(SearchProviderError);
      expect(err).toMatchObject({ retryable: false, status: 422 });
      expect(err.message).toMatch(
        /Unable to validate request parameter\(s\) \(VALIDATION\); query\.country: Input should be 'AR'/,
      );
    });

    it('retries 5xx and gives up with a retryable error', async () => {
      server.failNext(3, 500);
      const err = await rejection(provider({ maxRetries: 2 }).search({ query: 'rust async runtime' }));
      expect(err).toMatchObject({ retryable: true, status: 500 });
      expect(err.message).toContain('(after 3 attempts)');
      expect(server.requests).toHaveLength(3);
    });

    it('retries a 503 then succeeds', async () => {
      server.failNext(1, 503);
      expect((await provider().search({ query: 'rust async runtime' })).hits).toHaveLength(6);
      expect(server.requests).toHaveLength(2);
    });

    it('times out', async () => {
      const err = await rejection(provider({ timeoutMs: 100 }).search({ query: 'hang' }));
      expect(err).toBeInstanceOf(SearchProviderError);
      expect(err.message).toBe('brave: no answer within 100 ms');
    });
  });

  it('refuses to start without a key', () => {
    expect(() => new BraveSearchProvider({ apiKey: '' })).toThrow(/BRAVE_API_KEY/);
  });
});
