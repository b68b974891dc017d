import { RE2JS } from 're2js';
import { absoluteUrl, domainMatches, hostOf, siteKey } from '@app/urls';

/** Which links of a site a crawl or a map follows. */
export interface ScopeOptions {
  include_subdomains: boolean;
  include_paths?: readonly string[];
  exclude_paths?: readonly string[];
}

/**
 * A path pattern as a linear-time RE2 expression (re2js: no backtracking on a hostile pattern or
 * path); an invalid one throws a message naming the field and the pattern.
 */
export function compilePatterns(field: string, patterns: readonly string[]): RE2JS[] {
  return patterns.map((pattern) => {
    try {
      return RE2JS.compile(pattern);
    } catch (error) {
      throw new Error(`${field}: ${JSON.stringify(pattern)} is not a valid regular expression (${(error as Error).message})`);
    }
  });
}

/**
 * In scope: the start page's site (same host and port, `www.` folded), or with include_subdomains
 * any host under it; the path (with its query) matched by an include pattern when there are any
 * and by no exclude pattern. The start page is always in.
 */
export function crawlScope(start: string, options: ScopeOptions): (url: string) => boolean {
  const site = siteKey(start);
  const apex = hostOf(start).replace(/^www\./, '');
  const port = new URL(start).port;
  const include = compilePatterns('include_paths', options.include_paths ?? []);
  const exclude = compilePatterns('exclude_paths', options.exclude_paths ?? []);
  return (url) => {
    if (url === start) return true;
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      return false;
    }
    const sameSite = siteKey(url) === site || (options.include_subdomains && parsed.port === port && domainMatches(hostOf(url), apex));
    if (!sameSite) return false;
    const path = `${parsed.pathname}${parsed.search}`;
    if (include.length > 0 && !include.some((re) => re.matcher(path).find())) return false;
    return !exclude.some((re) => re.matcher(path).find());
  };
}

export const startAddress = (url: string): string => {
  const start = absoluteUrl(url);
  if (!start) throw new Error(`url ${JSON.stringify(url)} is not an http(s) URL`);
  return start;
};

/** Crawl-delay pacing: every request to a host waits until `delayMs` after the previous one to it. */
export function hostPacer(delayMs: (url: string) => Promise<number>, signal?: AbortSignal): (url: string) => Promise<void> {
  const next = new Map<string, number>();
  return async (url) => {
    const host = new URL(url).host;
    const delay = await delayMs(url);
    if (delay <= 0) return;
    const now = Date.now();
    const at = Math.max(now, next.get(host) ?? 0);
    // A tenth more (at most 250 ms): a request's time in transit varies, and the site counts the
    // delay between arrivals, not between our sends.
    next.set(host, at + delay + Math.min(250, Math.ceil(delay / 10)));
    if (at > now) await sleep(at - now, signal);
  };
}

/** Waits `ms`; an abort rejects at once with its reason (the listener goes when the wait ends). */
function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise<void>((resolve, reject) => {
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
