import { SearchProviderError } from './search-provider.port';
import type { Throttle } from './throttle';

/** Time and retry budget for one upstream. Retries are bounded in count AND in each wait. */
export interface RetryPolicy {
  /** Per attempt, from sending the request to the end of the body. */
  timeoutMs: number;
  /** Extra attempts after the first, only on 408/429/5xx and connection failures. */
  maxRetries: number;
  /** First backoff; doubles per attempt, with jitter. */
  retryBaseDelayMs: number;
  /** Longest single wait; a Retry-After beyond it fails at once (retryable) rather than hang. */
  maxRetryDelayMs: number;
}

/** A SearchProviderError that also says what the upstream answered, for the caller's own Retry-After. */
export class SearchProviderHttpError extends SearchProviderError {
  constructor(
    provider: string,
    message: string,
    retryable: boolean,
    readonly status?: number,
    readonly retryAfterMs?: number,
  ) {
    super(provider, message, retryable);
    this.name = 'SearchProviderHttpError';
  }
}

export interface JsonRequest {
  provider: string;
  url: string;
  headers?: Record<string, string>;
  signal?: AbortSignal;
  policy: RetryPolicy;
  throttle: Throttle;
  /** A provider-specific sentence for a non-2xx answer (e.g. "bad subscription token"). */
  describe?: (status: number, body: string) => string | undefined;
  /** A wait hint beyond Retry-After (e.g. Brave's X-RateLimit-Reset). */
  retryAfterHint?: (headers: Headers) => number | undefined;
}

interface Failure {
  ok: false;
  /** Worth retrying here (vs. only later by the caller: `retryable`). */
  retry: boolean;
  retryable: boolean;
  detail: string;
  status?: number;
  retryAfterMs?: number;
}
type Attempt = { ok: true; body: unknown } | Failure;

/**
 * GET a JSON document through the throttle, with a per-attempt timeout and bounded retries.
 * Each attempt takes its own throttle slot, so backoff sleeps do not hold a slot hostage.
 * A caller's abort is rethrown as-is (it is not a provider failure).
 */
export async function getJson(req: JsonRequest): Promise<unknown> {
  const { policy, signal } = req;
  for (let attempt = 0; ; attempt++) {
    const result = await req.throttle.run(() => once(req), signal);
    if (result.ok) return result.body;
    const tooLong = result.retryAfterMs !== undefined && result.retryAfterMs > policy.maxRetryDelayMs;
    if (!result.retry || attempt >= policy.maxRetries || tooLong) {
      const detail = attempt > 0 ? `${result.detail} (after ${attempt + 1} attempts)` : result.detail;
      throw new SearchProviderHttpError(req.provider, detail, result.retryable, result.status, result.retryAfterMs);
    }
    const backoff = Math.min(policy.maxRetryDelayMs, policy.retryBaseDelayMs * 2 ** attempt);
    // Equal jitter: spreads synchronized retries from concurrent callers without ever waiting ~0.
    await sleep(result.retryAfterMs ?? backoff / 2 + Math.random() * (backoff / 2), signal);
  }
}

async function once(req: JsonRequest): Promise<Attempt> {
  const { policy, signal } = req;
  const timeout = AbortSignal.timeout(policy.timeoutMs);
  const combined = signal ? AbortSignal.any([signal, timeout]) : timeout;
  let response: Response;
  let text: string;
  try {
    response = await fetch(req.url, { headers: req.headers, signal: combined, redirect: 'follow' });
    text = await response.text();
  } catch (err) {
    if (signal?.aborted) throw signal.reason;
    if (timeout.aborted) {
      // Retryable for the caller, but not retried here: a slow upstream retried is twice as slow.
      return { ok: false, retry: false, retryable: true, detail: `no answer within ${policy.timeoutMs} ms` };
    }
    const cause = (err as { cause?: { code?: string; message?: string } }).cause;
    const why = cause?.code ?? cause?.message ?? (err as Error).message;
    return { ok: false, retry: true, retryable: true, detail: `cannot reach ${new URL(req.url).origin}: ${why}` };
  }
  if (response.ok) {
    try {
      return { ok: true, body: JSON.parse(text) };
    } catch {
      const detail = `answered HTTP ${response.status} with a body that is not JSON: ${excerpt(text)}`;
      return { ok: false, retry: false, retryable: false, detail, status: response.status };
    }
  }
  const status = response.status;
  const retryable = status === 408 || status === 429 || status >= 500;
  const retryAfterMs = parseRetryAfter(response.headers.get('retry-after')) ?? req.retryAfterHint?.(response.headers);
  const why = req.describe?.(status, text) ?? excerpt(text);
  return {
    ok: false,
    retry: retryable,
    retryable,
    detail: `HTTP ${status}${why ? `: ${why}` : ''}`,
    status,
    retryAfterMs,
  };
}

/** `Retry-After` as delta-seconds or an HTTP date, in ms; undefined when absent or unreadable. */
export function parseRetryAfter(value: string | null, now = Date.now()): number | undefined {
  if (!value) return undefined;
  if (/^\s*\d+(\.\d+)?\s*$/.test(value)) return Math.round(Number(value) * 1000);
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

function excerpt(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > 200 ? `${flat.slice(0, 200)}…` : flat;
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
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
