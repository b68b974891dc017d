/**
 * The one way the project reads the web (only the extraction service uses it): SSRF-guarded at
 * connect time on every hop, size- and time-bounded, cached, polite per host.
 */
export interface FetchOptions {
  /** Cap on the decoded body; default 5 MiB. */
  maxBytes?: number;
  /** Total time for the whole exchange, redirects included. */
  timeoutMs?: number;
  /** A cached copy younger than this is served without a request; 0 forces a fetch. */
  maxAgeMs?: number;
  /** Crawling honours robots.txt; a user's explicit extract does not need to. */
  respectRobots?: boolean;
  /** false: neither served from nor written to the page cache (a crawl reads the site as it is now). */
  cache?: boolean;
  /** Awaited before every request of the exchange, redirect hops included (a crawl's Crawl-delay pacing). */
  beforeHop?: (url: string) => Promise<void>;
  /**
   * Called when each request of the exchange has ended (its answer read, or failed): a crawl's
   * pacing counts the Crawl-delay from there, so the site sees requests that far apart whatever
   * their time in transit.
   */
  afterHop?: (url: string) => void;
  /** A gzip file (`application/gzip`, e.g. `sitemap.xml.gz`) is unpacked, within maxBytes, and read as XML. */
  gunzip?: boolean;
  signal?: AbortSignal;
}

export interface FetchedPage {
  /** The URL asked for (normalised). */
  url: string;
  /** The URL of the final response after redirects. */
  finalUrl: string;
  status: number;
  /** Lower-case media type without parameters, e.g. `text/html`. */
  contentType: string;
  /** Charset the body was decoded with. */
  charset: string;
  /** The decoded body of a text type; a PDF's or Word file's bytes in base64 (see `encoding`). */
  body: string;
  /** `base64` for a PDF or Word file (`contentType` says which, by its bytes when the server did not). */
  encoding?: 'base64';
  /** Size of the body as received, in bytes (after content decoding). */
  bytes: number;
  /** ISO-8601 time of the network fetch (the original time for a cached copy). */
  fetchedAt: string;
  fromCache: boolean;
}

export type FetchErrorCode =
  | 'invalid_url'
  | 'unsupported_scheme'
  | 'blocked_address'
  | 'dns_failure'
  | 'unreachable'
  | 'timeout'
  | 'too_large'
  | 'too_many_redirects'
  | 'http_error'
  | 'unsupported_type'
  | 'robots_disallowed'
  /** A bounded resource (the rendering queue) is full: the bound is in the message. */
  | 'overloaded';

/** A URL that cannot be fetched; `message` is a sentence fit for a per-URL error in an API answer. */
export class FetchError extends Error {
  constructor(
    readonly code: FetchErrorCode,
    readonly url: string,
    message: string,
    readonly status?: number,
  ) {
    super(message);
    this.name = 'FetchError';
  }
}

export interface PageFetcher {
  fetch(url: string, options?: FetchOptions): Promise<FetchedPage>;
  /** robots.txt verdict for our user agent (the file read once per origin); `signal` ends the wait, not the shared read. */
  robotsAllowed(url: string, signal?: AbortSignal): Promise<boolean>;
  /**
   * robots.txt's verdict on each URL (false where the file could not be read, or not within
   * `signal`), a few origins at a time: a caller bounds how many distinct origins it asks about.
   */
  robotsFilter(urls: readonly string[], signal?: AbortSignal): Promise<boolean[]>;
  /** The `Sitemap:` URLs of the URL's origin's robots.txt. */
  robotsSitemaps(url: string, signal?: AbortSignal): Promise<string[]>;
  /** robots.txt's Crawl-delay for our user agent on the URL's origin, in ms (0 when none). */
  crawlDelayMs(url: string): Promise<number>;
  close(): Promise<void>;
}

export const PAGE_FETCHER = Symbol('PAGE_FETCHER');
