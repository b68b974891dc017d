import type { ClientRequest } from 'node:http';
import type { Readable } from 'node:stream';
import { gunzipSync } from 'node:zlib';
import axios, { type AxiosInstance } from 'axios';
import { LRUCache } from 'lru-cache';
import { MAX_URL_CHARS, robotsCache } from '@app/urls';
import { AllowHosts, checkUrl, type UrlVerdict } from './address-policy';
import { decodeBody, parseContentType, TEXT_TYPES } from './decode-body';
import { DOCUMENT_TYPES, documentKind } from './document-type';
import { FetchError, type FetchedPage, type FetchOptions, type PageFetcher } from './fetcher.port';
import { BlockedAddressError, GuardedHttpAgent, GuardedHttpsAgent, type Resolver } from './guarded-agent';
import { HostQueue } from './host-queue';
import { PageCache, SingleFlight } from './page-cache';

export const DEFAULT_USER_AGENT = 'WebResearchBot/1.0 (+self-hosted web research service)';
export const MAX_REDIRECTS = 5;
const ROBOTS_MAX_BYTES = 512 * 1024; // RFC 9309 asks crawlers to parse at least 500 KiB
const ROBOTS_TTL_MS = 60 * 60 * 1000;
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

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

/** robots.txt's verdict on each of `urls` for `userAgent`, with what else the file says for it. */
export interface RobotsReader {
  read(robotsTxt: string, userAgent: string, urls: readonly string[]): Promise<{ allowed: boolean[]; crawlDelaySec: number | null; sitemaps: string[] }>;
}

/** robots.txt read on the calling thread, the last few files parsed kept (tests, and processes without extraction threads). */
export function inlineRobotsReader(): RobotsReader {
  const rulesOf = robotsCache();
  return {
    async read(robotsTxt, userAgent, urls) {
      const rules = rulesOf(robotsTxt, userAgent);
      return { allowed: urls.map((url) => rules.isAllowed(url)), crawlDelaySec: rules.crawlDelaySec, sitemaps: rules.sitemaps };
    },
  };
}

/** An origin's robots.txt: its text (asked about through the reader) and what it says once for all. */
interface RobotsFile {
  text: string;
  delayMs: number;
  sitemaps: string[];
}
type Rules = RobotsFile | 'allow-all' | 'deny-all' | 'deny-for-now';
/** URLs asked about in one reading of a robots file (one task on an extraction thread). */
const ROBOTS_BATCH = 2_000;

interface Final {
  finalUrl: string;
  status: number;
  mediaType: string;
  headerCharset?: string;
  body: Buffer;
  noStore: boolean;
}

interface Limits {
  maxBytes: number;
  /** Refuse media types other than text and documents before reading (pages); robots.txt takes whatever is served. */
  textOnly: boolean;
  /** Keep the first maxBytes instead of failing (robots.txt). */
  truncate: boolean;
  /** Unpack a gzip file as XML (sitemaps). */
  gunzip?: boolean;
  beforeHop?: (url: string) => Promise<void>;
  afterHop?: (url: string) => void;
}

const GZIP_TYPES = new Set(['application/gzip', 'application/x-gzip']);
/** The longest Crawl-delay honoured as written (a site asking for more waits this long). */
const MAX_CRAWL_DELAY_MS = 30_000;

/** The abort reason of our own deadline, told apart from a caller's abort. */
class Deadline extends Error {
  constructor(readonly ms: number) {
    super(`timed out after ${ms} ms`);
  }
}

const fail = (code: FetchError['code'], url: string, reason: string, status?: number) => new FetchError(code, url, `${url}: ${reason}`, status);

/**
 * The only component that opens connections to user-supplied URLs. See address-policy.ts for what
 * is refused and guarded-agent.ts for where: every socket, every hop, after DNS.
 */
export class HttpFetcher implements PageFetcher {
  private readonly allow: AllowHosts;
  private readonly httpAgent: GuardedHttpAgent;
  private readonly httpsAgent: GuardedHttpsAgent;
  private readonly http: AxiosInstance;
  private readonly queue: HostQueue;
  /** Every exchange of the process, whatever its host: one outbound budget. */
  private readonly outbound: HostQueue;
  private readonly robotsReader: RobotsReader;
  private readonly cache: PageCache;
  private readonly flights = new SingleFlight<FetchedPage>();
  private readonly robots = new LRUCache<string, Promise<Rules>>({ max: 1000, ttl: ROBOTS_TTL_MS });
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
    const guard = { allowHosts: this.allow, resolver: options.resolver, connectTimeoutMs: options.connectTimeoutMs ?? 5_000 };
    this.httpAgent = new GuardedHttpAgent(guard, { keepAlive: true });
    this.httpsAgent = new GuardedHttpsAgent(guard, { keepAlive: true });
    this.http = axios.create({
      adapter: 'http',
      httpAgent: this.httpAgent,
      httpsAgent: this.httpsAgent,
      // An environment proxy (HTTP_PROXY...) would dial on our behalf and bypass the guarded agents.
      proxy: false,
      // Redirects are followed in `follow` so each hop's URL is checked before its connect.
      maxRedirects: 0,
      responseType: 'stream',
      decompress: true,
      maxContentLength: -1,
      validateStatus: () => true,
      headers: {
        'User-Agent': this.userAgent,
        Accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,text/plain;q=0.8,application/json;q=0.8,*/*;q=0.1',
        'Accept-Encoding': 'gzip, deflate, br',
      },
    });
    this.queue = new HostQueue(options.perHostConcurrency ?? 4);
    this.outbound = new HostQueue(options.maxConcurrency ?? 32);
    this.robotsReader = options.robotsReader ?? inlineRobotsReader();
    this.cache = new PageCache({ entries: options.cacheEntries ?? 500, dir: options.cacheDir, maxDiskBytes: options.cacheMaxBytes });
  }

  async fetch(rawUrl: string, options: FetchOptions = {}): Promise<FetchedPage> {
    const url = this.admit(rawUrl);
    const maxBytes = options.maxBytes ?? this.maxBytes;
    const cached = options.cache === false ? undefined : await this.cache.get(url.href, options.maxAgeMs ?? this.defaultMaxAgeMs);
    if (cached && cached.bytes <= maxBytes) return { ...cached, fromCache: true };
    // A paced or uncached exchange is its caller's own: never shared with another caller's.
    const own = options.cache === false || options.beforeHop !== undefined || options.afterHop !== undefined || options.gunzip === true;
    if (own) {
      try {
        return await this.fetchFresh(url, maxBytes, options, options.signal ?? new AbortController().signal);
      } catch (err) {
        throw this.toFetchError(err, url.href, url.href);
      }
    }
    const key = `${url.href} ${maxBytes} ${options.respectRobots ? 'robots' : ''}`;
    try {
      return await this.flights.run(key, (signal) => this.fetchFresh(url, maxBytes, options, signal), options.signal);
    } catch (err) {
      if (err instanceof FetchError) throw err;
      if (options.signal?.aborted) throw fail('timeout', url.href, 'aborted by the caller');
      throw this.toFetchError(err, url.href, url.href);
    }
  }

  async robotsAllowed(rawUrl: string, signal?: AbortSignal): Promise<boolean> {
    const url = this.admit(rawUrl);
    return signal ? abortable(this.robotsVerdict(url), signal) : this.robotsVerdict(url);
  }

  async robotsFilter(rawUrls: readonly string[], signal?: AbortSignal): Promise<boolean[]> {
    const verdicts: boolean[] = rawUrls.map(() => false);
    const byOrigin = new Map<string, Array<{ index: number; url: URL }>>();
    rawUrls.forEach((raw, index) => {
      let url: URL;
      try {
        url = this.admit(raw);
      } catch {
        return; // refused by the address policy: never allowed
      }
      const list = byOrigin.get(url.origin);
      if (list) list.push({ index, url });
      else byOrigin.set(url.origin, [{ index, url }]);
    });
    const origins = [...byOrigin.values()];
    // A few origins at a time: the caller bounds how many there are, this how many are read at once.
    const work = async () => {
      for (let next = origins.shift(); next; next = origins.shift()) {
        if (signal?.aborted) return;
        const list = next;
        const rules = await (signal ? abortable(this.rulesOf(list[0]!.url), signal) : this.rulesOf(list[0]!.url)).catch(() => 'deny-all' as const);
        if (typeof rules === 'string') {
          for (const { index } of list) verdicts[index] = rules === 'allow-all';
          continue;
        }
        for (let at = 0; at < list.length && !signal?.aborted; at += ROBOTS_BATCH) {
          const batch = list.slice(at, at + ROBOTS_BATCH);
          const read = await this.robotsReader.read(rules.text, this.userAgent, batch.map(({ url }) => url.href)).catch(() => null);
          batch.forEach(({ index }, i) => (verdicts[index] = read?.allowed[i] === true));
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(4, origins.length) }, work));
    return verdicts;
  }

  async robotsSitemaps(rawUrl: string, signal?: AbortSignal): Promise<string[]> {
    const url = this.admit(rawUrl);
    const rules = await (signal ? abortable(this.rulesOf(url), signal) : this.rulesOf(url));
    return typeof rules === 'string' ? [] : [...rules.sitemaps];
  }

  async crawlDelayMs(rawUrl: string): Promise<number> {
    const r = await this.rulesOf(this.admit(rawUrl)).catch(() => 'allow-all' as const);
    return typeof r === 'string' ? 0 : r.delayMs;
  }

  /** The origin's robots.txt, read once per origin (kept an hour); a transient failure is not kept. */
  private rulesOf(url: URL): Promise<Rules> {
    let rules = this.robots.get(url.origin);
    if (!rules) {
      rules = this.loadRobots(url);
      this.robots.set(url.origin, rules);
    }
    const origin = url.origin;
    const entry = rules;
    return rules.then(
      (r) => {
        // A transient failure decides this request only; the next one asks again.
        if (r === 'deny-for-now' && this.robots.get(origin) === entry) this.robots.delete(origin);
        return r;
      },
      (err: unknown) => {
        if (this.robots.get(origin) === entry) this.robots.delete(origin);
        throw err;
      },
    );
  }

  async close(): Promise<void> {
    this.httpAgent.destroy();
    this.httpsAgent.destroy();
    this.robots.clear();
  }

  /** Parse, normalise (no fragment) and apply the DNS-free policy; throws the per-URL error. */
  private admit(rawUrl: string): URL {
    const verdict = checkUrl(rawUrl, this.allow);
    if (!verdict.ok) throw verdictError(rawUrl, verdict);
    return verdict.url;
  }

  private async fetchFresh(url: URL, maxBytes: number, options: FetchOptions, outer: AbortSignal): Promise<FetchedPage> {
    const timeoutMs = options.timeoutMs ?? this.timeoutMs;
    const { signal, done } = deadline(timeoutMs, outer);
    try {
      if (options.respectRobots && !(await abortable(this.robotsVerdict(url), signal))) {
        throw fail('robots_disallowed', url.href, `robots.txt disallows ${this.userAgent.split('/')[0]}`);
      }
      const res = await this.follow(url, { maxBytes, textOnly: true, truncate: false, gunzip: options.gunzip, beforeHop: options.beforeHop, afterHop: options.afterHop }, signal);
      // A PDF or Word file travels as base64 to the extraction thread that reads it; a body
      // served as a document type that is neither is refused as a type we do not read.
      const kind = documentKind(res.mediaType, res.body);
      if (!kind && !TEXT_TYPES.has(res.mediaType)) throw fail('unsupported_type', url.href, `${res.mediaType} is not a text type, a PDF or a Word document`);
      const { charset, text } = kind ? { charset: 'binary', text: res.body.toString('base64') } : decodeBody(res.body, res.mediaType, res.headerCharset);
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
      throw this.toFetchError(err, url.href, url.href, signal);
    } finally {
      done();
    }
  }

  /** One hop at a time, each hop's target checked before it is dialled (and again when it is). */
  private async follow(url: URL, limits: Limits, signal: AbortSignal): Promise<Final> {
    let hop = url.href;
    for (let redirects = 0; ; redirects++) {
      const current = hop;
      if (limits.beforeHop) await abortable(limits.beforeHop(current), signal);
      let result: Awaited<ReturnType<HttpFetcher['exchange']>>;
      try {
        // The host's slot first, then one of the process's: a slow host's queue holds none of the latter.
        result = await this.queue.run(new URL(current).hostname, () => this.outbound.run('', () => this.exchange(url.href, current, limits, signal), signal), signal);
      } finally {
        limits.afterHop?.(current);
      }
      if (!('location' in result)) return { ...result, finalUrl: current };
      if (redirects >= MAX_REDIRECTS) throw fail('too_many_redirects', url.href, `more than ${MAX_REDIRECTS} redirects`);
      // Anything a site sends is bounded: a redirect to an address longer than any we read is refused.
      if (result.location.length > MAX_URL_CHARS) throw fail('invalid_url', url.href, `redirected to an address longer than ${MAX_URL_CHARS} characters`);
      let next: string;
      try {
        next = new URL(result.location, current).href;
      } catch {
        throw fail('invalid_url', url.href, `redirected to an invalid URL (${result.location})`);
      }
      const verdict = checkUrl(next, this.allow);
      if (!verdict.ok) throw verdictError(url.href, verdict, ` (redirected to ${next})`);
      hop = verdict.url.href;
    }
  }

  private async exchange(url: string, hop: string, limits: Limits, signal: AbortSignal): Promise<Omit<Final, 'finalUrl'> | { location: string }> {
    // A keep-alive socket the server closed as this request went out fails at once with no
    // response ("socket hang up"); a GET is safe to send again, once, on a fresh socket.
    const get = () => this.http.get<Readable>(hop, { signal });
    const res = await get()
      .catch((err: unknown) => {
        if (signal.aborted || !isStaleSocket(err)) throw err;
        return get();
      })
      .catch((err: unknown) => {
        throw this.toFetchError(err, url, hop, signal);
      });
    const stream = res.data;
    // Destroying the request closes the socket: the server stops sending and the pool forgets it.
    const discard = () => {
      stream.destroy();
      (res.request as ClientRequest).destroy();
    };
    try {
      const location = res.headers['location'];
      if (REDIRECT_STATUSES.has(res.status) && typeof location === 'string' && location) {
        discard();
        return { location };
      }
      if (res.status < 200 || res.status >= 300) throw fail('http_error', url, `HTTP ${res.status}${hop === url ? '' : ` at ${hop}`}`, res.status);
      const { mediaType, charset } = parseContentType(res.headers['content-type'] as string | undefined);
      if (limits.gunzip && GZIP_TYPES.has(mediaType)) {
        const { body: packed } = await readCapped(stream, { ...limits, truncate: false }, () => fail('too_large', url, `body exceeds ${limits.maxBytes} bytes`));
        let body: Buffer;
        try {
          // Capped as it unpacks: a gzip bomb stops at maxBytes.
          body = gunzipSync(packed, { maxOutputLength: limits.maxBytes });
        } catch (err) {
          const tooBig = (err as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE';
          throw fail(tooBig ? 'too_large' : 'unsupported_type', url, tooBig ? `unpacked body exceeds ${limits.maxBytes} bytes` : 'not a readable gzip file');
        }
        return { status: res.status, mediaType: 'application/xml', body, noStore: true };
      }
      if (limits.textOnly && !TEXT_TYPES.has(mediaType) && !DOCUMENT_TYPES.has(mediaType)) {
        throw fail('unsupported_type', url, `${mediaType || 'no content type'} is not a text type, a PDF or a Word document`);
      }
      const { body, truncated } = await readCapped(stream, limits, () => fail('too_large', url, `body exceeds ${limits.maxBytes} bytes`));
      if (truncated) discard();
      return { status: res.status, mediaType, headerCharset: charset, body, noStore: /no-store/i.test(String(res.headers['cache-control'] ?? '')) };
    } catch (err) {
      discard();
      throw this.toFetchError(err, url, hop, signal);
    }
  }

  /** Whether robots.txt lets us fetch `url`; a file that cannot be read in time (on its thread) refuses. */
  private async robotsVerdict(url: URL): Promise<boolean> {
    const r = await this.rulesOf(url);
    if (typeof r === 'string') return r === 'allow-all';
    const read = await this.robotsReader.read(r.text, this.userAgent, [url.href]).catch(() => null);
    return read?.allowed[0] === true;
  }

  /** RFC 9309: 4xx (and redirect loops) = no rules; 5xx or unreachable = disallow everything for now. */
  private async loadRobots(page: URL): Promise<Rules> {
    const robotsUrl = new URL('/robots.txt', page.origin);
    const { signal, done } = deadline(this.timeoutMs);
    try {
      const res = await this.follow(robotsUrl, { maxBytes: ROBOTS_MAX_BYTES, textOnly: false, truncate: true }, signal);
      const text = decodeBody(res.body, 'text/plain', 'utf-8').text;
      // Read once here for what holds whatever the URL; a file that cannot be read in time refuses everything.
      const read = await this.robotsReader.read(text, this.userAgent, []).catch(() => null);
      if (!read) return 'deny-all';
      return { text, delayMs: Math.min(MAX_CRAWL_DELAY_MS, Math.max(0, (read.crawlDelaySec ?? 0) * 1000)), sitemaps: read.sitemaps };
    } catch (err) {
      const e = this.toFetchError(err, robotsUrl.href, robotsUrl.href, signal);
      if ((e.code === 'http_error' && e.status! < 500) || e.code === 'too_many_redirects') return 'allow-all';
      if (e.code === 'http_error' || e.code === 'unreachable' || e.code === 'timeout') return 'deny-for-now';
      // Refused or unresolvable: the page itself would fail the same way, so say why.
      throw new FetchError(e.code, page.href, `${page.href}: robots.txt: ${e.message.slice(robotsUrl.href.length + 2)}`, e.status);
    } finally {
      done();
    }
  }

  private toFetchError(err: unknown, url: string, hop: string, signal?: AbortSignal): FetchError {
    if (err instanceof FetchError) return err;
    const at = hop === url ? '' : ` (at ${hop})`;
    if (signal?.aborted) {
      return signal.reason instanceof Deadline ? fail('timeout', url, `${signal.reason.message}${at}`) : fail('timeout', url, `aborted by the caller${at}`);
    }
    const cause = rootCause(err);
    const code = (cause as NodeJS.ErrnoException).code ?? '';
    // request-filtering-agent's own refusal says "... is not allowed"; ours is a BlockedAddressError.
    if (cause instanceof BlockedAddressError || /DNS lookup .* is not allowed/.test(cause.message)) {
      return fail('blocked_address', url, `refused: ${cause.message}${at}`);
    }
    if (code === 'ECONNECTTIMEOUT' || code === 'ETIMEDOUT') return fail('timeout', url, `${cause.message}${at}`);
    if (['ENOTFOUND', 'EAI_AGAIN', 'EAI_NONAME', 'EAI_NODATA', 'EAI_FAIL', 'ENODATA'].includes(code)) {
      return fail('dns_failure', url, `cannot resolve ${new URL(hop).hostname}${at}`);
    }
    return fail('unreachable', url, `${cause.message || code || 'connection failed'}${at}`);
  }
}

/** `url` is the caller's URL; a first-hop verdict names it in its normalised form when it parses. */
function verdictError(url: string, v: Extract<UrlVerdict, { ok: false }>, suffix = ''): FetchError {
  return fail(v.code, suffix ? url : (v.href ?? url), `${v.code === 'blocked_address' ? 'refused: ' : ''}${v.reason}${suffix}`);
}

function rootCause(err: unknown): Error {
  let e: unknown = err;
  // axios wraps socket errors (AxiosError.cause); a sync throw from the agent arrives bare.
  while (e instanceof Error && e.cause instanceof Error && !(e instanceof BlockedAddressError)) e = e.cause;
  return e instanceof Error ? e : new Error(String(e));
}

/** Counts decoded bytes as they stream in (a gzip bomb stops at the cap, not at the end). */
async function readCapped(stream: Readable, limits: Limits, tooLarge: () => Error): Promise<{ body: Buffer; truncated: boolean }> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    if (size + chunk.length > limits.maxBytes) {
      if (!limits.truncate) throw tooLarge();
      chunks.push(chunk.subarray(0, limits.maxBytes - size));
      return { body: Buffer.concat(chunks), truncated: true };
    }
    size += chunk.length;
    chunks.push(chunk);
  }
  return { body: Buffer.concat(chunks), truncated: false };
}

/** A signal that fires on our deadline or when `outer` does. */
function deadline(ms: number, outer?: AbortSignal): { signal: AbortSignal; done: () => void } {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new Deadline(ms)), ms);
  const onOuter = () => controller.abort(outer!.reason);
  if (outer?.aborted) onOuter();
  else outer?.addEventListener('abort', onOuter, { once: true });
  return {
    signal: controller.signal,
    done: () => {
      clearTimeout(timer);
      outer?.removeEventListener('abort', onOuter);
    },
  };
}

function abortable<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

/** The request died on a reused connection before any response came back. */
function isStaleSocket(err: unknown): boolean {
  const e = err as { code?: string; message?: string; response?: unknown };
  return !e?.response && (e?.code === 'ECONNRESET' || /socket hang up/i.test(e?.message ?? ''));
}
