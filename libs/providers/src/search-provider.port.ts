/**
 * The search provider port. Adapters: `local` (BM25 index over a folder and/or crawled seed
 * sites; the embedded default), `searxng`, `brave`. Each declares what it can do natively; the
 * search service applies the rest after the fact and says so in `warnings`.
 */
export const CATEGORIES = ['company', 'research_paper', 'news', 'personal_site', 'financial_report', 'people'] as const;
export type Category = (typeof CATEGORIES)[number];

export const FRESHNESS = ['hour', 'day', 'week', 'month', 'year'] as const;
export type Freshness = (typeof FRESHNESS)[number];

export interface SearchQuery {
  query: string;
  /** 1-based result page. */
  page?: number;
  /** Results wanted per page (a provider may return fewer). */
  limit?: number;
  /** Two-letter country code, lower case. */
  country?: string;
  /** Language code, e.g. `en`. */
  language?: string;
  freshness?: Freshness;
  /** Inclusive `YYYY-MM-DD` bounds on the page's date. */
  dateFrom?: string;
  dateTo?: string;
  /** Domains (and their subdomains) to keep / drop. */
  includeDomains?: string[];
  excludeDomains?: string[];
  category?: Category;
  /**
   * Whether hits should carry `content` (a provider with full text leaves it out otherwise: it is
   * most of a hit's bytes, and an instant search shows only snippets).
   */
  withContent?: boolean;
  signal?: AbortSignal;
}

export interface SearchHit {
  url: string;
  title: string;
  snippet: string;
  /** The page's own date, `YYYY-MM-DD`, or null when unknown. */
  date: string | null;
  category: Category | null;
  language: string | null;
  /** Provider-native relevance, higher is better (comparable within one provider only). */
  score: number;
  /** The page's main text when the provider has it (the local index does) and it was asked for: saves a fetch. */
  content?: string;
}

export interface SearchPage {
  hits: SearchHit[];
  page: number;
  /** Whether asking for the next page may return more. */
  hasMore: boolean;
  /** Things the caller should know: an engine that did not answer, a filter not honoured natively. */
  warnings: string[];
}

/** How a filter is honoured: by the provider itself, or not at all (the service post-filters). */
export type Support = 'native' | 'none';

export interface SearchCapabilities {
  domainFilter: Support;
  freshness: Support;
  dateRange: Support;
  category: Support;
  country: Support;
  language: Support;
  pagination: boolean;
  /** Hits carry `content` (full main text) when the query asks for it. */
  fullText: boolean;
  /** Hits carry dates when the page has one. */
  dates: boolean;
}

export interface SearchProvider {
  readonly name: 'local' | 'searxng' | 'brave';
  readonly capabilities: SearchCapabilities;
  search(query: SearchQuery): Promise<SearchPage>;
  /** Resolves once the provider can answer (the local index is built or loaded). */
  ready(): Promise<void>;
  /**
   * Changes whenever what the provider would answer may have changed (the local index counts its
   * writes); a cached answer from another generation is not served. Absent: the provider cannot
   * tell, and cached answers expire by age only.
   */
  readonly generation?: number;
  close(): Promise<void>;
}

/** Thrown when the provider cannot answer (down, rate limited, bad credentials). */
export class SearchProviderError extends Error {
  constructor(
    readonly provider: string,
    message: string,
    readonly retryable: boolean,
  ) {
    super(`${provider}: ${message}`);
    this.name = 'SearchProviderError';
  }
}

export const SEARCH_PROVIDER = Symbol('SEARCH_PROVIDER');
