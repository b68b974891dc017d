import { AllowHosts, checkUrl } from './address-policy';
import { decodeBody, TEXT_TYPES } from './decode-body';
import { documentKind } from './document-type';
import { abortable, deadline } from './exchange-deadline';
import { fail, toFetchError, verdictError } from './fetch-failure';
import { type FetchedPage, FetchError, type FetchOptions, type PageFetcher } from './fetcher.port';
import type { Resolver } from './guarded-agent';
import { HopClient } from './hop-client';
import { PageCache, SingleFlight } from './page-cache';
import { inlineRobotsReader, type RobotsReader, RobotsRules } from './robots-rules';

export { MAX_REDIRECTS } from './hop-client';
export { inlineRobotsReader, type RobotsReader } from './robots-rules';

export const DEFAULT_USER_AGENT = 'WebResearchBot/1.0 (+self-hosted web research service)';

export interface HttpFetcherOptions {
  /** FETCH_ALLOW_HOSTS: exact `host` or `host:port` entries exempt from the address policy. */
  allowHosts?: readonly string[];
  userAgent?: string;
  /** DNS + TCP connect, per hop. Default 5 s. */
  connectTimeoutMs?: number;
  /** Whole exchange, redirects and robots.txt included; a FetchOptions.timeoutMs overrides it. Default 15 s. */
  timeoutMs?: number;
  /** Decoded body cap; default 5 MiB. */
  maxBytes?: number;
  /** Exchanges in flight per host name; default 4. */
  perHostConcurrency?: number;
  /** FETCH_MAX_CONCURRENCY: requests in flight at once, every host together (robots.txt included); default 32. */
  maxConcurrency?: number;
  /** Reads robots.txt files (default: on this thread); the extraction service reads them on its threads, under their deadline. */
  robotsReader?: RobotsReader;
  /** Persist the page cache here (one JSON file per URL); memory only when absent. */
  cacheDir?: string;
  /** Pages kept in memory; default 500. */
  cacheEntries?: number;
  /** Bytes the cache folder may take (default 512 MiB); the oldest pages go first. */
  cacheMaxBytes?: number;
  /** Freshness when FetchOptions.maxAgeMs is absent; default 1 h. */
  defaultMaxAgeMs?: number;
  /** Name resolution (default: the OS resolver). A seam for tests and custom DNS; its answers are still checked. */
  resolver?: Resolver;
}

/**
 * The only component that opens connections to user-supplied URLs. See address-policy.ts for what
 * is refused and guarded-agent.ts for where: every socket, every hop, after DNS.
 */
export class HttpFetcher implements PageFetcher {
  private readonly allow: AllowHosts;
  private readonly hops: HopClient;
  private readonly robots: RobotsRules;
  private readonly cache: PageCache;
  private readonly flights = new SingleFlight<FetchedPage>();
  private readonly userAgent: string;
  private readonly timeoutMs: number;
  private readonly maxBytes: number;
  private readonly defaultMaxAgeMs: number;

  constructor(options: HttpFetcherOptions = {}) {
    this.allow = new AllowHosts(options.allowHosts);
    this.userAgent = options.userAgent ?? DEFAULT_USER_AGENT;
    this.timeoutMs = options.timeoutMs ?? 15_000;
    this.maxBytes = options.maxBytes ?? 5 * 1024 * 1024;
    this.defaultMaxAgeMs = options.defaultMaxAgeMs ?? 60 * 60 * 1000;
    this.hops = new HopClient({
      allow: this.allow,
      userAgent: this.userAgent,
      resolver: options.resolver,
      connectTimeoutMs: options.connectTimeoutMs ?? 5_000,
      perHostConcurrency: options.perHostConcurrency ?? 4,
      maxConcurrency: options.maxConcurrency ?? 32,
    });
    this.robots = new RobotsRules(
      this.hops,
      options.robotsReader ?? inlineRobotsReader(),
      this.userAgent,
      this.timeoutMs,
    );
    this.cache = new PageCache({
      entries: options.cacheEntries ?? 500,
      dir: options.cacheDir,
      maxDiskBytes: options.cacheMaxBytes,
    });
  }

  async fetch(rawUrl: string, options: FetchOptions = {}): Promise<FetchedPage> {
    const url = this.admit(rawUrl);
    const maxBytes = options.maxBytes ?? this.maxBytes;
    const cached =
      options.cache === false ? undefined : await this.cache.get(url.href, options.maxAgeMs ?? this.defaultMaxAgeMs);
    if (cached && cached.bytes <= maxBytes) return { ...cached, fromCache: true };
    // A paced or uncached exchange is its caller's own: never shared with another caller's.
    const own =
      options.cache === false ||
      options.beforeHop !== undefined ||
      options.afterHop !== undefined ||
      options.gunzip === true;
    if (own) {
      try {
        return await this.fetchFresh(url, maxBytes, options, options.signal ?? new AbortController().signal);
      } catch (err) {
        throw toFetchError(err, url.href, url.href);
      }
    }
    const key = `${url.href} ${maxBytes} ${options.respectRobots ? 'robots' : ''}`;
    try {
      return await this.flights.run(key, (signal) => this.fetchFresh(url, maxBytes, options, signal), options.signal);
    } catch (err) {
      if (err instanceof FetchError) throw err;
      if (options.signal?.aborted) throw fail('timeout', url.href, 'aborted by the caller');
      throw toFetchError(err, url.href, url.href);
    }
  }

  async robotsAllowed(rawUrl: string, signal?: AbortSignal): Promise<boolean> {
    const url = this.admit(rawUrl);
    return signal ? abortable(this.robots.verdict(url), signal) : this.robots.verdict(url);
  }

  async robotsFilter(rawUrls: readonly string[], signal?: AbortSignal): Promise<boolean[]> {
    const admitted = rawUrls.map((raw) => {
      try {
        return this.admit(raw);
      } catch {
        return undefined; // refused by the address policy: never allowed
      }
    });
    return this.robots.filter(admitted, signal);
  }

  async robotsSitemaps(rawUrl: string, signal?: AbortSignal): Promise<string[]> {
    const url = this.admit(rawUrl);
    const rules = await (signal ? abortable(this.robots.rulesOf(url), signal) : this.robots.rulesOf(url));
    return typeof rules === 'string' ? [] : [...rules.sitemaps];
  }

  async crawlDelayMs(rawUrl: string): Promise<number> {
    return this.robots.crawlDelayMs(this.admit(rawUrl));
  }

  async close(): Promise<void> {
    this.hops.close();
    this.robots.clear();
  }

  /** Parse, normalise (no fragment) and apply the DNS-free policy; throws the per-URL error. */
  private admit(rawUrl: string): URL {
    const verdict = checkUrl(rawUrl, this.allow);
    if (!verdict.ok) throw verdictError(rawUrl, verdict);
    return verdict.url;
  }

  private async fetchFresh(
    url: URL,
    maxBytes: number,
    options: FetchOptions,
    outer: AbortSignal,
  ): Promise<FetchedPage> {
    const timeoutMs = options.timeoutMs ?? this.timeoutMs;
    const { signal, done } = deadline(timeoutMs, outer);
    try {
      if (options.respectRobots && !(await abortable(this.robots.verdict(url), signal))) {
        throw fail('robots_disallowed', url.href, `robots.txt disallows ${this.userAgent.split('/')[0]}`);
      }
      const res = await this.hops.follow(
        url,
        {
          maxBytes,
          textOnly: true,
          truncate: false,
          gunzip: options.gunzip,
          beforeHop: options.beforeHop,
          afterHop: options.afterHop,
        },
        signal,
      );
      // A PDF or Word file travels as base64 to the extraction thread that reads it; a body
      // served as a document type that is neither is refused as a type we do not read.
      const kind = documentKind(res.mediaType, res.body);
      if (!kind && !TEXT_TYPES.has(res.mediaType))
        throw fail('unsupported_type', url.href, `${res.mediaType} is not a text type, a PDF or a Word document`);
      const { charset, text } = kind
        ? { charset: 'binary', text: res.body.toString('base64') }
        : decodeBody(res.body, res.mediaType, res.headerCharset);
      const page: FetchedPage = {
        url: url.href,
        finalUrl: res.finalUrl,
        status: res.status,
        contentType: kind ?? res.mediaType,
        charset,
        ...(kind && { encoding: 'base64' as const }),
        body: text,
        bytes: res.body.length,
        fetchedAt: new Date().toISOString(),
        fromCache: false,
      };
      if (!res.noStore && options.cache !== false) {
        const { fromCache: _, ...stored } = page;
        await this.cache.set(stored).catch(() => undefined); // a full disk degrades caching, not fetching
      }
      return page;
    } catch (err) {
      throw toFetchError(err, url.href, url.href, signal);
    } finally {
      done();
    }
  }
}
