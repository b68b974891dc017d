/**
 * The HTTP exchange itself: one hop at a time through the guarded agents, each redirect's target
 * checked before it is dialled, bodies read under a byte cap, slots taken per host and for the
 * whole process.
 */
import type { ClientRequest } from 'node:http';
import type { Readable } from 'node:stream';
import { gunzipSync } from 'node:zlib';
import axios, { type AxiosInstance } from 'axios';
import { MAX_URL_CHARS } from '@app/urls';
import { type AllowHosts, checkUrl } from './address-policy';
import { parseContentType, TEXT_TYPES } from './decode-body';
import { DOCUMENT_TYPES } from './document-type';
import { abortable } from './exchange-deadline';
import { fail, toFetchError, verdictError } from './fetch-failure';
import { GuardedHttpAgent, GuardedHttpsAgent, type Resolver } from './guarded-agent';
import { HostQueue } from './host-queue';

export const MAX_REDIRECTS = 5;
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
const GZIP_TYPES = new Set(['application/gzip', 'application/x-gzip']);

export interface Final {
  finalUrl: string;
  status: number;
  mediaType: string;
  headerCharset?: string;
  body: Buffer;
  noStore: boolean;
}

export interface Limits {
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

export interface HopClientOptions {
  allow: AllowHosts;
  userAgent: string;
  resolver?: Resolver;
  connectTimeoutMs: number;
  perHostConcurrency: number;
  maxConcurrency: number;
}

export class HopClient {
  private readonly allow: AllowHosts;
  private readonly httpAgent: GuardedHttpAgent;
  private readonly httpsAgent: GuardedHttpsAgent;
  private readonly http: AxiosInstance;
  private readonly queue: HostQueue;
  /** Every exchange of the process, whatever its host: one outbound budget. */
  private readonly outbound: HostQueue;

  constructor(options: HopClientOptions) {
    this.allow = options.allow;
    const guard = { allowHosts: this.allow, resolver: options.resolver, connectTimeoutMs: options.connectTimeoutMs };
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
        'User-Agent': options.userAgent,
        Accept:
          'text/html,application/xhtml+xml,application/xml;q=0.9,text/plain;q=0.8,application/json;q=0.8,*/*;q=0.1',
        'Accept-Encoding': 'gzip, deflate, br',
      },
    });
    this.queue = new HostQueue(options.perHostConcurrency);
    this.outbound = new HostQueue(options.maxConcurrency);
  }

  /** One hop at a time, each hop's target checked before it is dialled (and again when it is). */
  async follow(url: URL, limits: Limits, signal: AbortSignal): Promise<Final> {
    let hop = url.href;
    for (let redirects = 0; ; redirects++) {
      const current = hop;
      if (limits.beforeHop) await abortable(limits.beforeHop(current), signal);
      let result: Awaited<ReturnType<HopClient['exchange']>>;
      try {
        // The host's slot first, then one of the process's: a slow host's queue holds none of the latter.
        result = await this.queue.run(
          new URL(current).hostname,
          () => this.outbound.run('', () => this.exchange(url.href, current, limits, signal), signal),
          signal,
        );
      } finally {
        limits.afterHop?.(current);
      }
      if (!('location' in result)) return { ...result, finalUrl: current };
      if (redirects >= MAX_REDIRECTS)
        throw fail('too_many_redirects', url.href, `more than ${MAX_REDIRECTS} redirects`);
      // Anything a site sends is bounded: a redirect to an address longer than any we read is refused.
      if (result.location.length > MAX_URL_CHARS)
        throw fail('invalid_url', url.href, `redirected to an address longer than ${MAX_URL_CHARS} characters`);
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

  /** Closes every pooled connection. */
  close(): void {
    this.httpAgent.destroy();
    this.httpsAgent.destroy();
  }

  private async exchange(
    url: string,
    hop: string,
    limits: Limits,
    signal: AbortSignal,
  ): Promise<Omit<Final, 'finalUrl'> | { location: string }> {
    // A keep-alive socket the server closed as this request went out fails at once with no
    // response ("socket hang up"); a GET is safe to send again, once, on a fresh socket.
    const get = () => this.http.get<Readable>(hop, { signal });
    const res = await get()
      .catch((err: unknown) => {
        if (signal.aborted || !isStaleSocket(err)) throw err;
        return get();
      })
      .catch((err: unknown) => {
        throw toFetchError(err, url, hop, signal);
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
      if (res.status < 200 || res.status >= 300)
        throw fail('http_error', url, `HTTP ${res.status}${hop === url ? '' : ` at ${hop}`}`, res.status);
      const { mediaType, charset } = parseContentType(res.headers['content-type'] as string | undefined);
      if (limits.gunzip && GZIP_TYPES.has(mediaType)) {
        const { body: packed } = await readCapped(stream, { ...limits, truncate: false }, () =>
          fail('too_large', url, `body exceeds ${limits.maxBytes} bytes`),
        );
        let body: Buffer;
        try {
          // Capped as it unpacks: a gzip bomb stops at maxBytes.
          body = gunzipSync(packed, { maxOutputLength: limits.maxBytes });
        } catch (err) {
          const tooBig = (err as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE';
          throw fail(
            tooBig ? 'too_large' : 'unsupported_type',
            url,
            tooBig ? `unpacked body exceeds ${limits.maxBytes} bytes` : 'not a readable gzip file',
          );
        }
        return { status: res.status, mediaType: 'application/xml', body, noStore: true };
      }
      if (limits.textOnly && !TEXT_TYPES.has(mediaType) && !DOCUMENT_TYPES.has(mediaType)) {
        throw fail(
          'unsupported_type',
          url,
          `${mediaType || 'no content type'} is not a text type, a PDF or a Word document`,
        );
      }
      const { body, truncated } = await readCapped(stream, limits, () =>
        fail('too_large', url, `body exceeds ${limits.maxBytes} bytes`),
      );
      if (truncated) discard();
      return {
        status: res.status,
        mediaType,
        headerCharset: charset,
        body,
        noStore: /no-store/i.test(String(res.headers['cache-control'] ?? '')),
      };
    } catch (err) {
      discard();
      throw toFetchError(err, url, hop, signal);
    }
  }
}

/** Counts decoded bytes as they stream in (a gzip bomb stops at the cap, not at the end). */
async function readCapped(
  stream: Readable,
  limits: Limits,
  tooLarge: () => Error,
): Promise<{ body: Buffer; truncated: boolean }> {
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

/** The request died on a reused connection before any response came back. */
function isStaleSocket(err: unknown): boolean {
  const e = err as { code?: string; message?: string; response?: unknown };
  return !e?.response && (e?.code === 'ECONNRESET' || /socket hang up/i.test(e?.message ?? ''));
}
