import { getJson, type RetryPolicy } from './http-json';
import { isoDay, plainText } from './hit-text';
import type {
  Category,
  Freshness,
  SearchCapabilities,
  SearchHit,
  SearchPage,
  SearchProvider,
  SearchQuery,
} from './search-provider.port';
import { Throttle } from './throttle';

export interface SearxngSearchProviderOptions {
  /** `SEARXNG_URL`: the instance root, optionally with a path prefix (`https://host/searx`). */
  baseUrl: string;
  /** Per attempt; default 10 000 (SearXNG itself waits on its slowest engine, ~3 s by default). */
  timeoutMs?: number;
  /** Retries on 408/429/5xx/connection errors; default 2. */
  maxRetries?: number;
  /** Default 300. */
  retryBaseDelayMs?: number;
  /** Default 5 000. */
  maxRetryDelayMs?: number;
  /** Requests in flight at once; default 4. */
  maxConcurrent?: number;
  /** Sustained request rate; default 2 (0 = unlimited). */
  requestsPerSecond?: number;
  /** Token bucket size; default 4. */
  burst?: number;
  /** 0 off, 1 moderate, 2 strict; unset = the instance's default. */
  safesearch?: 0 | 1 | 2;
  /** Restrict to these engines; unset = the instance's engines for the category. */
  engines?: string[];
  userAgent?: string;
  /** Extra headers, e.g. `Authorization` for an instance behind basic auth. */
  headers?: Record<string, string>;
}

// SearXNG's time_range has no `hour`: we ask for `day` (a superset) and say so in warnings.
const TIME_RANGE: Record<Freshness, string> = { hour: 'day', day: 'day', week: 'week', month: 'month', year: 'year' };
// Only two of our categories have a SearXNG tab; the rest search `general` (and the service post-filters).
const TO_SEARXNG: Partial<Record<Category, string>> = { news: 'news', research_paper: 'science' };
const FROM_SEARXNG = new Map<string, Category>([
  ['news', 'news'],
  ['science', 'research_paper'],
]);

/** Subset of SearXNG's `format=json` answer we read (searx/webapp.py, `search()` JSON branch). */
interface SearxngAnswer {
  results?: Array<{
    url?: string;
    title?: string;
    content?: string;
    publishedDate?: string | null;
    score?: number;
    category?: string;
    engines?: string[];
  }>;
  unresponsive_engines?: unknown[];
}

export class SearxngSearchProvider implements SearchProvider {
  readonly name = 'searxng' as const;
  readonly capabilities: SearchCapabilities = {
    // `site:` works on some engines only; honest `none` and the service post-filters.
    domainFilter: 'none',
    freshness: 'native',
    dateRange: 'none',
    // news and research_paper map to SearXNG tabs; the others cannot, so not native overall.
    category: 'none',
    country: 'none',
    language: 'native',
    pagination: true,
    fullText: false,
    dates: true,
  };

  private readonly base: URL;
  private readonly throttle: Throttle;
  private readonly policy: RetryPolicy;

  constructor(private readonly options: SearxngSearchProviderOptions) {
    this.base = new URL(options.baseUrl.endsWith('/') ? options.baseUrl : `${options.baseUrl}/`);
    this.throttle = new Throttle({
      maxConcurrent: options.maxConcurrent ?? 4,
      requestsPerSecond: options.requestsPerSecond ?? 2,
      burst: options.burst ?? 4,
    });
    this.policy = {
      timeoutMs: options.timeoutMs ?? 10_000,
      maxRetries: options.maxRetries ?? 2,
      retryBaseDelayMs: options.retryBaseDelayMs ?? 300,
      maxRetryDelayMs: options.maxRetryDelayMs ?? 5_000,
    };
  }

  async search(query: SearchQuery): Promise<SearchPage> {
    const page = Math.max(1, Math.floor(query.page ?? 1));
    const warnings: string[] = [];
    const url = new URL('search', this.base);
    const params = url.searchParams;
    params.set('q', query.query);
    params.set('format', 'json');
    params.set('pageno', String(page));
    params.set('categories', (query.category && TO_SEARXNG[query.category]) ?? 'general');
    if (query.language) params.set('language', query.language);
    if (query.freshness) {
      params.set('time_range', TIME_RANGE[query.freshness]);
      if (query.freshness === 'hour')
        warnings.push("searxng: freshness 'hour' is not supported natively; results cover the last day");
    }
    if (this.options.safesearch !== undefined) params.set('safesearch', String(this.options.safesearch));
    if (this.options.engines?.length) params.set('engines', this.options.engines.join(','));

    const answer = (await getJson({
      provider: this.name,
      url: url.toString(),
      headers: {
        // Instances with the limiter on (botdetection) refuse requests without these headers.
        Accept: 'application/json, text/html;q=0.5, */*;q=0.1',
        'Accept-Language': query.language ?? '*',
        'User-Agent': this.options.userAgent ?? 'web-research/1.0 (searxng adapter)',
        ...this.options.headers,
      },
      signal: query.signal,
      policy: this.policy,
      throttle: this.throttle,
      describe: describeSearxngError,
    })) as SearxngAnswer;

    const results = Array.isArray(answer?.results) ? answer.results : [];
    const hits: SearchHit[] = [];
    for (const [i, r] of results.entries()) {
      if (typeof r.url !== 'string' || !/^https?:\/\//i.test(r.url)) continue;
      hits.push({
        url: r.url,
        title: plainText(r.title) || r.url,
        snippet: plainText(r.content),
        date: isoDay(r.publishedDate),
        category: (typeof r.category === 'string' && FROM_SEARXNG.get(r.category)) || null,
        // SearXNG does not tag results with a language; with a language asked, engines were told it.
        language: query.language ?? null,
        // SearXNG's merged score (engine weight x positions); rank-based when an old version omits it.
        score: typeof r.score === 'number' && Number.isFinite(r.score) ? r.score : 1 / (i + 1),
      });
    }
    warnings.push(...unresponsiveWarnings(answer?.unresponsive_engines));
    const limit = query.limit && query.limit > 0 ? Math.floor(query.limit) : undefined;
    return {
      // SearXNG has no page size: a page is whatever its engines merged (~10-40); `limit` truncates it.
      hits: limit ? hits.slice(0, limit) : hits,
      page,
      // No total to trust (`number_of_results` is often 0): an empty page is the only end signal.
      hasMore: results.length > 0,
      warnings: [...new Set(warnings)],
    };
  }

  /** Nothing to warm up; an unreachable instance shows on the first search, not at boot. */
  async ready(): Promise<void> {}

  async close(): Promise<void> {
    this.throttle.close();
  }
}

/** `[[engine, reason], ...]` (current SearXNG); tolerates bare names from older versions. */
function unresponsiveWarnings(list: unknown): string[] {
  if (!Array.isArray(list)) return [];
  return list.flatMap((item) => {
    const [engine, reason] = Array.isArray(item) ? item : [item, undefined];
    if (typeof engine !== 'string' || !engine) return [];
    return [`searxng: engine '${engine}' did not answer${typeof reason === 'string' && reason ? `: ${reason}` : ''}`];
  });
}

function describeSearxngError(status: number): string | undefined {
  if (status === 403) return 'forbidden: the instance must enable the JSON format (search.formats in settings.yml)';
  if (status === 429) return "rate limited by the instance's limiter (botdetection)";
  return undefined;
}
