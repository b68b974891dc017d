import { FRESHNESS_WINDOW_MS } from '@app/domain';
import { getJson, type RetryPolicy } from './http-json';
import { isoDay, plainText, plausibleDay } from './hit-text';
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

export interface BraveSearchProviderOptions {
  /** `BRAVE_API_KEY`, sent as `X-Subscription-Token`. */
  apiKey: string;
  /** Origin of the API; default `https://api.search.brave.com` (tests point it at loopback). */
  baseUrl?: string;
  /** Per attempt; default 10 000. */
  timeoutMs?: number;
  /** Retries on 408/429/5xx/connection errors; default 2. */
  maxRetries?: number;
  /** Default 500. */
  retryBaseDelayMs?: number;
  /** Longest wait we accept from Retry-After / X-RateLimit-Reset; default 5 000. */
  maxRetryDelayMs?: number;
  /** Default 2. */
  maxConcurrent?: number;
  /** Default 1 (the Free plan's limit; raise it for paid plans). 0 = unlimited. */
  requestsPerSecond?: number;
  /** Default 1. */
  burst?: number;
  /** Brave's own default is `moderate`; unset = Brave's default. */
  safesearch?: 'off' | 'moderate' | 'strict';
  /** Ask for `extra_snippets` (plans that include them); used when `description` is empty. */
  extraSnippets?: boolean;
  /** Clock for relative ages ("2 days ago") and date ranges; tests pin it. */
  now?: () => Date;
}

const DAY_MS = 86_400_000;
const FRESHNESS: Record<Freshness, string> = { hour: 'pd', day: 'pd', week: 'pw', month: 'pm', year: 'py' };
/** Brave's `search_lang` codes that differ from ISO 639-1 (see its "Language codes" table). */
const SEARCH_LANG = new Map([
  ['ja', 'jp'],
  ['zh', 'zh-hans'],
  ['zh-cn', 'zh-hans'],
  ['zh-tw', 'zh-hant'],
  ['pt', 'pt-pt'],
  ['pt-br', 'pt-br'],
  ['no', 'nb'],
  ['en-gb', 'en-gb'],
]);
/** Brave's `offset` is a page index and stops at 9; `count` stops at 20. */
const MAX_OFFSET = 9;
const MAX_COUNT = 20;

interface BraveResult {
  title?: string;
  url?: string;
  description?: string;
  page_age?: string;
  age?: string;
  language?: string;
  extra_snippets?: string[];
}
interface MixedSlot {
  type?: string;
  index?: number;
  all?: boolean;
}
interface BraveAnswer {
  query?: { more_results_available?: boolean };
  mixed?: { main?: MixedSlot[] };
  web?: { results?: BraveResult[] };
  news?: { results?: BraveResult[] };
}

export class BraveSearchProvider implements SearchProvider {
  readonly name = 'brave' as const;
  readonly capabilities: SearchCapabilities = {
    // `site:` in q works, but a list of domains would eat the 400-char/50-word query budget.
    domainFilter: 'none',
    freshness: 'native',
    // `freshness=YYYY-MM-DDtoYYYY-MM-DD`.
    dateRange: 'native',
    // news results are tagged `news`; no other category exists upstream.
    category: 'none',
    country: 'native',
    language: 'native',
    pagination: true,
    fullText: false,
    dates: true,
  };

  private readonly endpoint: string;
  private readonly throttle: Throttle;
  private readonly policy: RetryPolicy;
  private readonly now: () => Date;

  constructor(private readonly options: BraveSearchProviderOptions) {
    if (!options.apiKey) throw new Error('BraveSearchProvider needs an apiKey (BRAVE_API_KEY)');
    this.endpoint = new URL('/res/v1/web/search', options.baseUrl ?? 'https://api.search.brave.com').toString();
    this.throttle = new Throttle({
      maxConcurrent: options.maxConcurrent ?? 2,
      requestsPerSecond: options.requestsPerSecond ?? 1,
      burst: options.burst ?? 1,
    });
    this.policy = {
      timeoutMs: options.timeoutMs ?? 10_000,
      maxRetries: options.maxRetries ?? 2,
      retryBaseDelayMs: options.retryBaseDelayMs ?? 500,
      maxRetryDelayMs: options.maxRetryDelayMs ?? 5_000,
    };
    this.now = options.now ?? (() => new Date());
  }

  async search(query: SearchQuery): Promise<SearchPage> {
    const page = Math.max(1, Math.floor(query.page ?? 1));
    const count = Math.min(MAX_COUNT, Math.max(1, Math.floor(query.limit ?? MAX_COUNT)));
    const warnings: string[] = [];
    if (page - 1 > MAX_OFFSET) {
      // Brave answers 422 beyond offset 9: say so instead of failing the whole request.
      return {
        hits: [],
        page,
        hasMore: false,
        warnings: [`brave: only the first ${MAX_OFFSET + 1} pages are available`],
      };
    }
    const url = new URL(this.endpoint);
    const params = url.searchParams;
    params.set('q', query.query);
    params.set('count', String(count));
    params.set('offset', String(page - 1));
    // Without `country` Brave searches as if from the US; no country asked means worldwide.
    params.set('country', query.country ? query.country.toUpperCase() : 'ALL');
    if (query.language) params.set('search_lang', braveLanguage(query.language));
    const freshness = this.freshness(query);
    if (freshness) params.set('freshness', freshness);
    if (query.freshness === 'hour')
      warnings.push("brave: freshness 'hour' is not supported natively; results cover the last day");
    params.set('text_decorations', 'false');
    params.set('result_filter', 'web,news');
    if (this.options.safesearch) params.set('safesearch', this.options.safesearch);
    if (this.options.extraSnippets) params.set('extra_snippets', 'true');

    const answer = (await getJson({
      provider: this.name,
      url: url.toString(),
      headers: { Accept: 'application/json', 'X-Subscription-Token': this.options.apiKey },
      signal: query.signal,
      policy: this.policy,
      throttle: this.throttle,
      describe: describeBraveError,
      retryAfterHint: rateLimitResetMs,
    })) as BraveAnswer;

    const web = answer?.web?.results ?? [];
    const news = answer?.news?.results ?? [];
    const ordered = blend(answer?.mixed?.main, web, news, query.category === 'news');
    const seen = new Set<string>();
    const hits: SearchHit[] = [];
    for (const { result, category } of ordered) {
      if (typeof result.url !== 'string' || !/^https?:\/\//i.test(result.url) || seen.has(result.url)) continue;
      seen.add(result.url);
      const rank = (page - 1) * count + hits.length + 1;
      hits.push({
        url: result.url,
        title: plainText(result.title) || result.url,
        snippet: plainText(result.description) || plainText(result.extra_snippets?.[0]),
        date: isoDay(result.page_age, this.now()) ?? parseAge(result.age, this.now()),
        category,
        language: typeof result.language === 'string' ? result.language : (query.language ?? null),
        // Brave exposes no score: reciprocal rank keeps the order comparable across pages.
        score: 1 / rank,
      });
    }
    return {
      // Blended news can push the last web results of a page out; they are not on the next page.
      hits: hits.slice(0, count),
      page,
      hasMore: page - 1 < MAX_OFFSET && (answer?.query?.more_results_available ?? web.length >= count),
      warnings,
    };
  }

  async ready(): Promise<void> {}

  async close(): Promise<void> {
    this.throttle.close();
  }

  /** A date range (narrowed by freshness when both are asked) or a freshness code. */
  private freshness(query: SearchQuery): string | undefined {
    if (!query.dateFrom && !query.dateTo) return query.freshness ? FRESHNESS[query.freshness] : undefined;
    const today = this.now().toISOString().slice(0, 10);
    let from = query.dateFrom ?? '1991-01-01';
    if (query.freshness) {
      // Brave's ranges are whole days: an hour's window is the last day, as its code (pd) is.
      const start = new Date(this.now().getTime() - Math.max(FRESHNESS_WINDOW_MS[query.freshness], DAY_MS))
        .toISOString()
        .slice(0, 10);
      if (start > from) from = start;
    }
    return `${from}to${query.dateTo ?? today}`;
  }
}

/**
 * Brave's `mixed.main` is its own ranking across result types ({type, index} or {type, all});
 * follow it, then add anything it did not mention. With category news, news leads.
 */
function blend(
  main: MixedSlot[] | undefined,
  web: BraveResult[],
  news: BraveResult[],
  newsFirst: boolean,
): Array<{ result: BraveResult; category: Category | null }> {
  const out: Array<{ result: BraveResult; category: Category | null }> = [];
  const used = new Set<BraveResult>();
  const take = (list: BraveResult[], category: Category | null, index?: number) => {
    for (const result of index === undefined ? list : list.slice(index, index + 1)) {
      if (used.has(result)) continue;
      used.add(result);
      out.push({ result, category });
    }
  };
  for (const slot of Array.isArray(main) ? main : []) {
    const index = slot.all || typeof slot.index !== 'number' ? undefined : slot.index;
    if (slot.type === 'web') take(web, null, index);
    else if (slot.type === 'news') take(news, 'news', index);
  }
  take(web, null);
  take(news, 'news');
  return newsFirst ? [...out.filter((o) => o.category === 'news'), ...out.filter((o) => o.category !== 'news')] : out;
}

export function braveLanguage(language: string): string {
  const lower = language.toLowerCase();
  return SEARCH_LANG.get(lower) ?? SEARCH_LANG.get(lower.split(/[-_]/)[0]!) ?? lower.split(/[-_]/)[0]!;
}

const MONTHS = [
  'january',
  'february',
  'march',
  'april',
  'may',
  'june',
  'july',
  'august',
  'september',
  'october',
  'november',
  'december',
];
const UNIT_MS = new Map([
  ['second', 1e3],
  ['minute', 6e4],
  ['hour', 3.6e6],
  ['day', DAY_MS],
  ['week', 7 * DAY_MS],
  ['month', 30 * DAY_MS],
  ['year', 365 * DAY_MS],
]);

/** Brave's human `age`: "October 25, 2023" or "3 days ago" (relative to now; months/years approximate). */
export function parseAge(age: unknown, now: Date): string | null {
  if (typeof age !== 'string') return null;
  const absolute = /^\s*([A-Za-z]+)\s+(\d{1,2}),\s*(\d{4})/.exec(age);
  if (absolute) {
    const month = MONTHS.findIndex((m) => m.startsWith(absolute[1]!.toLowerCase().slice(0, 3)));
    return month < 0 ? null : plausibleDay(Number(absolute[3]), month + 1, Number(absolute[2]), now);
  }
  const relative = /^\s*(\d+|an?)\s+(second|minute|hour|day|week|month|year)s?\s+ago/i.exec(age);
  if (relative) {
    const n = /^\d+$/.test(relative[1]!) ? Number(relative[1]) : 1;
    return new Date(now.getTime() - n * UNIT_MS.get(relative[2]!.toLowerCase())!).toISOString().slice(0, 10);
  }
  return isoDay(age, now);
}

/**
 * Brave sends per-window lists, e.g. `X-RateLimit-Reset: 1, 1419704` (per second, per month) and
 * `X-RateLimit-Remaining: 0, 1500`: wait for the longest window that is exhausted.
 */
export function rateLimitResetMs(headers: Headers): number | undefined {
  // Number('') is 0: an absent header must stay absent, not read as "0 left, resets now".
  const list = (name: string) =>
    headers
      .get(name)
      ?.split(',')
      .map((v) => (v.trim() === '' ? NaN : Number(v.trim()))) ?? [];
  const resets = list('x-ratelimit-reset');
  if (!resets.length || resets.some((v) => !Number.isFinite(v))) return undefined;
  const remaining = list('x-ratelimit-remaining');
  const exhausted = resets.filter((_, i) => remaining[i] === 0);
  return Math.max(...(exhausted.length ? exhausted : [resets[0]!])) * 1000;
}

/** Brave's error body: `{"type":"ErrorResponse","error":{"code","detail","status","meta":{...}}}`. */
function describeBraveError(status: number, body: string): string | undefined {
  let error:
    { code?: string; detail?: string; meta?: { errors?: Array<{ loc?: unknown[]; msg?: string }> } } | undefined;
  try {
    error = (JSON.parse(body) as { error?: typeof error }).error;
  } catch {
    error = undefined;
  }
  const parts: string[] = [];
  // Brave has answered a bad token with 422 + SUBSCRIPTION_TOKEN_INVALID, not only 401/403.
  if (status === 401 || status === 403 || /TOKEN/.test(error?.code ?? ''))
    parts.push('the subscription token (BRAVE_API_KEY) was refused');
  if (error?.detail) parts.push(error.code ? `${error.detail} (${error.code})` : error.detail);
  for (const e of error?.meta?.errors ?? []) {
    parts.push(`${Array.isArray(e.loc) ? e.loc.join('.') : 'request'}: ${e.msg ?? 'invalid'}`);
  }
  return parts.length ? parts.join('; ') : undefined;
}
