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
      throw new Error(
        `${field}: ${JSON.stringify(pattern)} is not a valid regular expression (${(error as Error).message})`,
        { cause: error },
      );
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
    const sameSite =
      siteKey(url) === site || (options.include_subdomains && parsed.port === port && domainMatches(hostOf(url), apex));
    if (!sameSite) return false;
    const path = `${parsed.pathname}${parsed.search}`;
    if (include.length > 0 && !include.some((re) => re.matcher(path).find())) return false;
    return !exclude.some((re) => re.matcher(path).find());
  };
}

/**
 * The distinct origins (scheme, host, port) one map or crawl may touch, CRAWL_MAX_ORIGINS: a
 * URL on an origin already admitted passes, a new one while there is room; past the cap URLs
 * on new origins are left out, so their robots.txt is never read and no connection opened.
 */
export class OriginBudget {
  private readonly origins = new Set<string>();

  constructor(
    readonly max: number,
    ...known: readonly string[]
  ) {
    for (const url of known) this.admit(url);
  }

  admit(url: string): boolean {
    let origin: string;
    try {
      origin = new URL(url).origin;
    } catch {
      return false;
    }
    if (this.origins.has(origin)) return true;
    if (this.origins.size >= this.max) return false;
    this.origins.add(origin);
    return true;
  }

  get size(): number {
    return this.origins.size;
  }
}

export const startAddress = (url: string): string => {
  const start = absoluteUrl(url);
  if (!start) throw new Error(`url ${JSON.stringify(url)} is not an http(s) URL`);
  return start;
};

/** Crawl-delay pacing, as a fetch's `beforeHop` and `afterHop`. */
export interface HostPacer {
  /** Waits until the host's delay has passed since its previous request ended (and since it was sent). */
  before(url: string): Promise<void>;
  /** The request has ended: the host's next one waits its delay from now. */
  after(url: string): void;
}

/**
 * Crawl-delay pacing: every request to a host waits until `delayMs` after the previous one to it
 * ended, so the site sees them at least that far apart, whatever their time in transit (a delay
 * counted from our sends can arrive shorter when the earlier request was slower on its way).
 */
export function hostPacer(delayMs: (url: string) => Promise<number>, signal?: AbortSignal): HostPacer {
  const next = new Map<string, number>();
  const delays = new Map<string, number>();
  return {
    async before(url) {
      const host = new URL(url).host;
      const delay = await delayMs(url);
      delays.set(host, delay);
      if (delay <= 0) return;
      // The next request's time is counted from when this one really goes (a timer can fire late
      // on a busy machine): a waiter that wakes before it is due, or after another took the
      // slot, waits again.
      for (;;) {
        const now = Date.now();
        const due = next.get(host) ?? 0;
        if (due <= now) {
          next.set(host, now + delay);
          return;
        }
        await sleep(due - now, signal);
      }
    },
    after(url) {
      const host = new URL(url).host;
      const delay = delays.get(host) ?? 0;
      if (delay > 0) next.set(host, Math.max(next.get(host) ?? 0, Date.now() + delay));
    },
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
