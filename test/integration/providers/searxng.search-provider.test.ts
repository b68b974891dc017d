import { SearchProviderError } from '@app/providers';
import { SearchProviderHttpError } from '@app/providers';
import { SearxngSearchProvider, type SearxngSearchProviderOptions } from '@app/providers';
import { freePort } from '../../support/free-port';
import { ReplayServer } from '../../support/replay-server';
import { recorded, rejection } from './recorded';

/** The SearXNG adapter against recorded `format=json` answers served on loopback. */
describe('SearxngSearchProvider (replayed SearXNG)', () => {
  let server: ReplayServer;
  const providers: SearxngSearchProvider[] = [];
  const provider = (options: Partial<SearxngSearchProviderOptions> = {}) => {
    const p = new SearxngSearchProvider({ baseUrl: server.url, retryBaseDelayMs: 5, requestsPerSecond: 0, ...options });
    providers.push(p);
    return p;
  };

  beforeAll(async () => {
    server = await ReplayServer.start({
      routes: [
        {
          path: '/search',
          query: { q: 'rust async runtime', pageno: '1' },
          file: recorded('searxng', 'search-general'),
        },
        {
          path: '/search',
          query: { q: 'rust async runtime', pageno: '2' },
          file: recorded('searxng', 'search-general-page2'),
        },
        { path: '/search', query: { q: 'EU AI Act enforcement' }, file: recorded('searxng', 'search-news-week') },
        { path: '/search', query: { q: 'engines down' }, file: recorded('searxng', 'search-all-engines-down') },
        { path: '/searx/search', file: recorded('searxng', 'search-general-page2') },
        { path: '/search', query: { q: 'slow' }, delayMs: 100, file: recorded('searxng', 'search-general-page2') },
        { path: '/search', query: { q: 'hang' }, delayMs: 1_000, file: recorded('searxng', 'search-general-page2') },
        {
          path: '/search',
          query: { q: 'html' },
          headers: { 'content-type': 'text/html' },
          body: '<!DOCTYPE html><html><body>SearXNG</body></html>',
        },
      ],
    });
  });
  afterEach(() => server.reset());
  afterAll(async () => {
    await Promise.all(providers.map((p) => p.close()));
    await server.close();
  });

  it('maps results: url, title, content -> snippet, publishedDate -> date, score; not infoboxes', async () => {
    const page = await provider().search({ query: 'rust async runtime' });
    expect(page.page).toBe(1);
    expect(page.hasMore).toBe(true);
    expect(page.hits.map((h) => h.url)).toEqual([
      'https://tokio.rs/',
      'https://rust-lang.github.io/async-book/',
      'https://corrode.dev/blog/async/',
      'https://github.com/smol-rs/smol',
      'https://www.reddit.com/r/rust/comments/15w0m4u/which_async_runtime_should_i_use/',
    ]);
    expect(page.hits[0]).toEqual({
      url: 'https://tokio.rs/',
      title: 'Tokio - An asynchronous Rust runtime',
      snippet:
        'Tokio is an event-driven, non-blocking I/O platform for writing asynchronous applications with the Rust programming language.',
      date: null,
      category: null,
      language: null,
      score: 9,
    });
    // Entities decoded; an ISO date with offset keeps its calendar day; 1970 placeholder dropped.
    expect(page.hits[2]!.snippet).toContain(
      `"Zero-cost futures in Rust" by Aaron Turon about what would become the foundation of Rust's async`,
    );
    expect(page.hits.map((h) => h.date)).toEqual([null, null, '2023-09-21', '2024-11-03', null]);
    expect(page.hits.map((h) => h.score)).toEqual([
      9, 2.6666666666666665, 1.1666666666666665, 0.25, 0.16666666666666666,
    ]);
  });

  it('surfaces unresponsive engines as warnings', async () => {
    const page = await provider().search({ query: 'rust async runtime' });
    expect(page.warnings).toEqual([
      "searxng: engine 'brave' did not answer: too many requests",
      "searxng: engine 'qwant' did not answer: timeout",
    ]);
  });

  it('sends q, format=json, pageno, categories, language, time_range and configured safesearch/engines', async () => {
    const page = await provider({ safesearch: 1, engines: ['bing news', 'duckduckgo news'] }).search({
      query: 'EU AI Act enforcement',
      category: 'news',
      freshness: 'week',
      language: 'en',
      country: 'de',
    });
    const [request] = server.requestsTo('/search');
    expect(request!.query).toEqual({
      q: 'EU AI Act enforcement',
      format: 'json',
      pageno: '1',
      categories: 'news',
      language: 'en',
      time_range: 'week',
      safesearch: '1',
      engines: 'bing news,duckduckgo news',
    });
    // Headers an instance with the limiter on insists on.
    expect(request!.headers['accept-language']).toBe('en');
    expect(request!.headers['accept']).toContain('application/json');
    expect(request!.headers['user-agent']).toMatch(/web-research/);
    expect(page.hits.map((h) => [h.category, h.date, h.language])).toEqual([
      ['news', '2025-08-02', 'en'],
      ['news', '2025-07-31', 'en'],
    ]);
    expect(page.warnings).toEqual([
      "searxng: engine 'google news' did not answer: timeout",
      "searxng: engine 'yahoo news' did not answer: HTTP error",
    ]);
  });

  it('defaults to categories=general and sends no language, time_range or safesearch when not asked', async () => {
    await provider().search({ query: 'rust async runtime' });
    expect(server.requestsTo('/search')[0]!.query).toEqual({
      q: 'rust async runtime',
      format: 'json',
      pageno: '1',
      categories: 'general',
    });
  });

  it('maps research_paper to the science tab', async () => {
    await provider().search({ query: 'rust async runtime', category: 'research_paper' });
    expect(server.requestsTo('/search')[0]!.query.categories).toBe('science');
  });

  it("asks for 'day' when freshness is 'hour' and says it is not native", async () => {
    const page = await provider().search({ query: 'rust async runtime', freshness: 'hour' });
    expect(server.requestsTo('/search')[0]!.query.time_range).toBe('day');
    expect(page.warnings).toContain("searxng: freshness 'hour' is not supported natively; results cover the last day");
  });

  it('pages with pageno, truncates a page to limit, and ends on an empty page', async () => {
    const p = provider();
    const second = await p.search({ query: 'rust async runtime', page: 2 });
    expect(server.requestsTo('/search')[0]!.query.pageno).toBe('2');
    expect(second).toMatchObject({ page: 2, hasMore: true });
    expect(second.hits.map((h) => h.url)).toEqual(['https://async.rs/']);
    expect((await p.search({ query: 'rust async runtime', limit: 2 })).hits).toHaveLength(2);
    const empty = await p.search({ query: 'engines down' });
    expect(empty).toMatchObject({ hits: [], hasMore: false });
    expect(empty.warnings).toEqual([
      "searxng: engine 'duckduckgo' did not answer: CAPTCHA",
      "searxng: engine 'google' did not answer: Suspended: too many requests",
      "searxng: engine 'startpage' did not answer: timeout",
    ]);
  });

  it('keeps a path prefix in SEARXNG_URL', async () => {
    const page = await provider({ baseUrl: `${server.url}/searx` }).search({ query: 'anything' });
    expect(server.requests.map((r) => r.path)).toEqual(['/searx/search']);
    expect(page.hits).toHaveLength(1);
  });

  it('declares honest capabilities', () => {
    expect(provider().capabilities).toEqual({
      domainFilter: 'none',
      freshness: 'native',
      dateRange: 'none',
      category: 'none',
      country: 'none',
      language: 'native',
      pagination: true,
      fullText: false,
      dates: true,
    });
  });

  describe('throttling', () => {
    it('never has more than maxConcurrent requests at the server', async () => {
      const p = provider({ maxConcurrent: 2 });
      const pages = await Promise.all(Array.from({ length: 7 }, () => p.search({ query: 'slow' })));
      expect(pages.every((pg) => pg.hits.length === 1)).toBe(true);
      expect(server.requests).toHaveLength(7);
      expect(server.maxInFlight).toBe(2);
    });

    it('without a limit the same burst reaches the server at once (the limit above is what held it)', async () => {
      const p = provider({ maxConcurrent: 50 });
      await Promise.all(Array.from({ length: 7 }, () => p.search({ query: 'slow' })));
      expect(server.maxInFlight).toBe(7);
    });

    it('spaces requests at requestsPerSecond once the burst is spent', async () => {
      const p = provider({ maxConcurrent: 10, requestsPerSecond: 10, burst: 2 });
      await Promise.all(Array.from({ length: 5 }, () => p.search({ query: 'rust async runtime' })));
      const at = server.requests.map((r) => r.at).sort((a, b) => a - b);
      // 2 at once (burst), then one per 100 ms: the 5th no earlier than ~300 ms after the 1st.
      expect(at[1]! - at[0]!).toBeLessThan(50);
      expect(at[4]! - at[0]!).toBeGreaterThanOrEqual(250);
    });
  });

  describe('failures', () => {
    it('retries a 429 and then succeeds', async () => {
      server.failNext(1, 429, { headers: { 'retry-after': '0' }, body: 'Too Many Requests' });
      const page = await provider().search({ query: 'rust async runtime' });
      expect(page.hits).toHaveLength(5);
      expect(server.requests).toHaveLength(2);
    });

    it('retries 5xx with backoff up to maxRetries, then succeeds', async () => {
      server.failNext(2, 502);
      const page = await provider({ maxRetries: 2 }).search({ query: 'rust async runtime' });
      expect(page.hits).toHaveLength(5);
      expect(server.requests).toHaveLength(3);
    });

    it('gives up after maxRetries with a retryable SearchProviderError', async () => {
      server.failNext(2, 503);
      const err = await rejection(provider({ maxRetries: 1 }).search({ query: 'rust async runtime' }));
      expect(err).toBeInstanceOf(SearchProviderError);
      expect(err).toBeInstanceOf(SearchProviderHttpError);
      expect(err).toMatchObject({ provider: 'searxng', retryable: true, status: 503 });
      expect(err.message).toMatch(/^searxng: HTTP 503.*\(after 2 attempts\)$/);
      expect(server.requests).toHaveLength(2);
    });

    it('fails at once, retryable, when Retry-After asks for longer than maxRetryDelayMs', async () => {
      server.failNext(1, 429, { headers: { 'retry-after': '120' } });
      const err = await rejection(provider({ maxRetryDelayMs: 1_000 }).search({ query: 'rust async runtime' }));
      expect(err).toMatchObject({ retryable: true, status: 429, retryAfterMs: 120_000 });
      expect(err.message).toContain("rate limited by the instance's limiter");
      expect(server.requests).toHaveLength(1);
    });

    it('does not retry a 403 and explains the JSON format setting', async () => {
      server.failNext(1, 403, { body: 'Forbidden' });
      const err = await rejection(provider().search({ query: 'rust async runtime' }));
      expect(err).toMatchObject({ retryable: false, status: 403 });
      expect(err.message).toContain('search.formats');
      expect(server.requests).toHaveLength(1);
    });

    it('rejects a non-JSON 200 answer', async () => {
      const err = await rejection(provider().search({ query: 'html' }));
      expect(err).toBeInstanceOf(SearchProviderError);
      expect(err).toMatchObject({ retryable: false, status: 200 });
      expect(err.message).toContain('not JSON');
      expect(server.requests).toHaveLength(1);
    });

    it('times out a slow instance without retrying it', async () => {
      const started = performance.now();
      const err = await rejection(provider({ timeoutMs: 100 }).search({ query: 'hang' }));
      expect(err).toBeInstanceOf(SearchProviderError);
      expect(err).toMatchObject({ retryable: true, message: 'searxng: no answer within 100 ms' });
      expect(performance.now() - started).toBeLessThan(600);
      expect(server.requests).toHaveLength(1);
    });

    it("rethrows the caller's abort as is", async () => {
      const controller = new AbortController();
      const pending = provider().search({ query: 'hang', signal: controller.signal });
      setTimeout(() => controller.abort(), 30);
      const err = await rejection(pending);
      expect(err).not.toBeInstanceOf(SearchProviderError);
      expect(err.name).toBe('AbortError');
    });

    it('reports an unreachable instance as a retryable error after retries', async () => {
      const port = await freePort();
      const err = await rejection(
        provider({ baseUrl: `http://127.0.0.1:${port}`, maxRetries: 1 }).search({ query: 'x' }),
      );
      expect(err).toBeInstanceOf(SearchProviderError);
      expect(err).toMatchObject({ retryable: true });
      expect(err.message).toMatch(/cannot reach http:\/\/127\.0\.0\.1:\d+: ECONNREFUSED \(after 2 attempts\)/);
    });
  });
});
