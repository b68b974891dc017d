import { APIConnectionError, APIError, APITimeoutError, errorFromResponse } from './errors';

export interface ClientOptions {
  /** The service's address, e.g. `http://localhost:8080` (a trailing `/v1` is accepted too). */
  baseURL: string;
  /** `wr_<key id>_<secret>`: sent as `Authorization: Bearer`. */
  apiKey: string;
  /** Retries of one call after a 429, a 503 or a dropped connection (default 2). */
  maxRetries?: number;
  /** Per attempt, in ms: the whole answer, or a stream's headers (default 600000, a chat completion's longest wait). */
  timeout?: number;
  /** Longest wait before a retry, in ms (default 60000): a `Retry-After` beyond it is not waited for, the error is thrown. */
  maxRetryDelay?: number;
  /** The fetch to call (default: the global one of Node 20 and browsers). */
  fetch?: typeof fetch;
  /** Headers sent on every request (e.g. a proxy's own). */
  defaultHeaders?: Record<string, string>;
}

/** Per call: cancel it, give its Idempotency-Key (default: a new one per call), override the client's bounds. */
export interface RequestOptions {
  signal?: AbortSignal;
  idempotencyKey?: string;
  timeout?: number;
  maxRetries?: number;
  headers?: Record<string, string>;
}

export type Query = Record<string, string | number | boolean | null | undefined>;

export interface Call {
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  path: string;
  query?: object;
  body?: unknown;
  accept?: string;
  options?: RequestOptions;
}

/** A successful answer: its body still to be read (a stream), or read (`text`). */
export interface Opened {
  response: Response;
  /** The body, when the call read it. */
  text?: string;
  /** Aborts this answer's connection and frees its timer and listeners (the caller's own signal aborts it too). */
  abort(): void;
}

const RETRIED = new Set([429, 503]);
/**
 * 429 and 503 are "try again later"; a 409 is retried only when it says when (Retry-After): the
 * service's answer while the first request with the same Idempotency-Key is still being answered.
 * A 409 for a state transition (cancel a completed run) carries none and is thrown at once.
 */
const retryable = (error: APIError): boolean =>
  RETRIED.has(error.status) || (error.status === 409 && error.headers.has('retry-after'));
const BACKOFF_BASE_MS = 500;
const BACKOFF_CAP_MS = 8_000;

/** `Retry-After` as delta-seconds or an HTTP date, in ms from now; undefined when absent or unreadable. */
export function retryAfterMs(value: string | null, now = Date.now()): number | undefined {
  if (value === null) return undefined;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const at = Date.parse(text);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/** Exponential backoff with jitter (the 3/4 to all of 500 ms x 2^attempt, at most 8 s) when the service names no wait. */
export const backoffMs = (attempt: number, random = Math.random): number =>
  Math.min(BACKOFF_CAP_MS, BACKOFF_BASE_MS * 2 ** attempt) * (0.75 + 0.25 * random());

/** Resolves after `ms`, or rejects with the signal's reason when it aborts first. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** A key the service accepts (`[!-~]{1,255}`), unique per call. */
const newIdempotencyKey = (): string => `wrc-${globalThis.crypto.randomUUID()}`;

/**
 * The HTTP side of the client: URL and headers, the bounded timeout, and retries. A 429 or 503
 * (a 409 with Retry-After, and a connection that fails before an answer) is retried up to `maxRetries` times, after the
 * answer's `Retry-After` or a backoff; every POST carries one `Idempotency-Key` across all its
 * attempts, so a retry of work the service already did replays its answer instead of doing (and
 * charging) it again.
 */
export class Transport {
  private readonly base: string;
  private readonly fetch: typeof fetch;
  readonly maxRetries: number;
  private readonly timeout: number;
  private readonly maxRetryDelay: number;

  constructor(private readonly options: ClientOptions) {
    if (!options.baseURL) throw new TypeError('WebResearch: baseURL is required (e.g. http://localhost:8080)');
    if (!options.apiKey) throw new TypeError('WebResearch: apiKey is required (wr_...)');
    this.base = options.baseURL.replace(/\/+$/, '').replace(/\/v1$/, '');
    this.fetch = options.fetch ?? globalThis.fetch.bind(globalThis);
    this.maxRetries = bounded('maxRetries', options.maxRetries ?? 2, 0, 10);
    this.timeout = bounded('timeout', options.timeout ?? 600_000, 1, 3_600_000);
    this.maxRetryDelay = bounded('maxRetryDelay', options.maxRetryDelay ?? 60_000, 0, 3_600_000);
  }

  /** The call's JSON answer (undefined for a 204). */
  async json<T>(call: Call): Promise<T> {
    const { response, text } = await this.open(call, true);
    if (!text) return undefined as T;
    try {
      return JSON.parse(text) as T;
    } catch {
      throw new APIConnectionError(
        `${call.method} ${call.path}: the answer (${response.status}, ${response.headers.get('content-type') ?? 'no type'}) is not JSON`,
      );
    }
  }

  /**
   * Sends the call, retrying as described above, and returns the first successful answer.
   * `readBody`: the timeout covers the body too (it is read here); otherwise only the headers.
   */
  async open(call: Call, readBody = false): Promise<Opened> {
    const options = call.options ?? {};
    const maxRetries = bounded('maxRetries', options.maxRetries ?? this.maxRetries, 0, 10);
    const timeout = bounded('timeout', options.timeout ?? this.timeout, 1, 3_600_000);
    const headers: Record<string, string> = {
      ...this.options.defaultHeaders,
      Authorization: `Bearer ${this.options.apiKey}`,
      Accept: call.accept ?? 'application/json',
      ...options.headers,
    };
    if (call.body !== undefined) headers['Content-Type'] = 'application/json';
    if (call.method === 'POST') headers['Idempotency-Key'] = options.idempotencyKey ?? newIdempotencyKey();
    const url = this.url(call.path, call.query);
    const body = call.body === undefined ? undefined : JSON.stringify(call.body);

    for (let attempt = 0; ; attempt++) {
      if (options.signal?.aborted) throw options.signal.reason;
      const controller = new AbortController();
      const onAbort = () => controller.abort(options.signal!.reason);
      options.signal?.addEventListener('abort', onAbort, { once: true });
      let timedOut = false;
      const timer = setTimeout(() => {
        timedOut = true;
        controller.abort();
      }, timeout);
      const abort = () => {
        clearTimeout(timer);
        options.signal?.removeEventListener('abort', onAbort);
        controller.abort();
      };
      try {
        const response = await this.fetch(url, { method: call.method, headers, body, signal: controller.signal });
        if (response.ok) {
          if (!readBody) {
            clearTimeout(timer);
            return { response, abort };
          }
          const text = await response.text();
          abort();
          return { response, text, abort };
        }
        const error = errorFromResponse(response.status, response.statusText, response.headers, await response.text());
        abort();
        const wait =
          retryable(error) && attempt < maxRetries
            ? (retryAfterMs(response.headers.get('retry-after')) ?? backoffMs(attempt))
            : undefined;
        if (wait === undefined || wait > this.maxRetryDelay) throw error;
        await sleep(wait, options.signal);
      } catch (error) {
        abort();
        if (error instanceof APIError) throw error;
        if (options.signal?.aborted) throw options.signal.reason;
        if (timedOut) throw new APITimeoutError(timeout);
        if (attempt >= maxRetries)
          throw new APIConnectionError(`${call.method} ${call.path}: ${describe(error)}`, { cause: error });
        await sleep(backoffMs(attempt), options.signal);
      }
    }
  }

  private url(path: string, query?: object): string {
    const params = new URLSearchParams();
    for (const [name, value] of Object.entries(query ?? {})) {
      if (value !== undefined && value !== null) params.append(name, String(value));
    }
    const search = params.toString();
    return `${this.base}${path}${search ? `?${search}` : ''}`;
  }
}

/** A path segment from an id given by the caller (an id with `/` or `?` stays one segment). */
export const segment = (id: string): string => encodeURIComponent(id);

function bounded(name: string, value: number, min: number, max: number): number {
  if (!Number.isFinite(value) || value < min || value > max)
    throw new RangeError(`WebResearch: ${name} must be a number from ${min} to ${max}, got ${value}`);
  return value;
}

const describe = (error: unknown): string => {
  const cause = error instanceof Error && error.cause instanceof Error ? `: ${error.cause.message}` : '';
  return error instanceof Error ? `${error.message}${cause}` : String(error);
};
