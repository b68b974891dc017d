/**
 * How a failed exchange becomes a FetchError: the address policy's verdicts, our deadline or the
 * caller's abort, and the socket and DNS errors underneath axios, each named with the URL asked for.
 */
import type { UrlVerdict } from './address-policy';
import { Deadline } from './exchange-deadline';
import { FetchError } from './fetcher.port';
import { BlockedAddressError } from './guarded-agent';

export const fail = (code: FetchError['code'], url: string, reason: string, status?: number) =>
  new FetchError(code, url, `${url}: ${reason}`, status);

/** `url` is the caller's URL; a first-hop verdict names it in its normalised form when it parses. */
export function verdictError(url: string, v: Extract<UrlVerdict, { ok: false }>, suffix = ''): FetchError {
  return fail(
    v.code,
    suffix ? url : (v.href ?? url),
    `${v.code === 'blocked_address' ? 'refused: ' : ''}${v.reason}${suffix}`,
  );
}

export function toFetchError(err: unknown, url: string, hop: string, signal?: AbortSignal): FetchError {
  if (err instanceof FetchError) return err;
  const at = hop === url ? '' : ` (at ${hop})`;
  if (signal?.aborted) {
    return signal.reason instanceof Deadline
      ? fail('timeout', url, `${signal.reason.message}${at}`)
      : fail('timeout', url, `aborted by the caller${at}`);
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

function rootCause(err: unknown): Error {
  let e: unknown = err;
  // axios wraps socket errors (AxiosError.cause); a sync throw from the agent arrives bare.
  while (e instanceof Error && e.cause instanceof Error && !(e instanceof BlockedAddressError)) e = e.cause;
  return e instanceof Error ? e : new Error(String(e));
}
