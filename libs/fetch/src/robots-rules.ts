/**
 * robots.txt for the fetcher: each origin's file read once (kept an hour, a transient failure not
 * kept), RFC 9309's answers when it cannot be read, and the verdicts, sitemaps and crawl delay it
 * gives, asked of a RobotsReader.
 */
import { LRUCache } from 'lru-cache';
import { robotsCache } from '@app/urls';
import { decodeBody } from './decode-body';
import { abortable, deadline } from './exchange-deadline';
import { toFetchError } from './fetch-failure';
import { FetchError } from './fetcher.port';
import type { HopClient } from './hop-client';

const ROBOTS_MAX_BYTES = 512 * 1024; // RFC 9309 asks crawlers to parse at least 500 KiB
const ROBOTS_TTL_MS = 60 * 60 * 1000;

/** robots.txt's verdict on each of `urls` for `userAgent`, with what else the file says for it. */
export interface RobotsReader {
  read(
    robotsTxt: string,
    userAgent: string,
    urls: readonly string[],
  ): Promise<{ allowed: boolean[]; crawlDelaySec: number | null; sitemaps: string[] }>;
}

/** robots.txt read on the calling thread, the last few files parsed kept (tests, and processes without extraction threads). */
export function inlineRobotsReader(): RobotsReader {
  const rulesOf = robotsCache();
  return {
    async read(robotsTxt, userAgent, urls) {
      const rules = rulesOf(robotsTxt, userAgent);
      return {
        allowed: urls.map((url) => rules.isAllowed(url)),
        crawlDelaySec: rules.crawlDelaySec,
        sitemaps: rules.sitemaps,
      };
    },
  };
}

/** An origin's robots.txt: its text (asked about through the reader) and what it says once for all. */
interface RobotsFile {
  text: string;
  delayMs: number;
  sitemaps: string[];
}
export type Rules = RobotsFile | 'allow-all' | 'deny-all' | 'deny-for-now';
/** URLs asked about in one reading of a robots file (one task on an extraction thread). */
const ROBOTS_BATCH = 2_000;

/** The longest Crawl-delay honoured as written (a site asking for more waits this long). */
const MAX_CRAWL_DELAY_MS = 30_000;

export class RobotsRules {
  private readonly robots = new LRUCache<string, Promise<Rules>>({ max: 1000, ttl: ROBOTS_TTL_MS });

  constructor(
    private readonly hops: HopClient,
    private readonly robotsReader: RobotsReader,
    private readonly userAgent: string,
    private readonly timeoutMs: number,
  ) {}

  /** Verdicts for admitted URLs, grouped by origin; a URL the address policy refused (undefined) is never allowed. */
  async filter(urls: ReadonlyArray<URL | undefined>, signal?: AbortSignal): Promise<boolean[]> {
    const verdicts: boolean[] = urls.map(() => false);
    const byOrigin = new Map<string, Array<{ index: number; url: URL }>>();
    urls.forEach((url, index) => {
      if (!url) return; // refused by the address policy: never allowed
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
        const rules = await (signal ? abortable(this.rulesOf(list[0]!.url), signal) : this.rulesOf(list[0]!.url)).catch(
          () => 'deny-all' as const,
        );
        if (typeof rules === 'string') {
          for (const { index } of list) verdicts[index] = rules === 'allow-all';
          continue;
        }
        for (let at = 0; at < list.length && !signal?.aborted; at += ROBOTS_BATCH) {
          const batch = list.slice(at, at + ROBOTS_BATCH);
          const read = await this.robotsReader
            .read(
              rules.text,
              this.userAgent,
              batch.map(({ url }) => url.href),
            )
            .catch(() => null);
          batch.forEach(({ index }, i) => (verdicts[index] = read?.allowed[i] === true));
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(4, origins.length) }, work));
    return verdicts;
  }

  async crawlDelayMs(url: URL): Promise<number> {
    const r = await this.rulesOf(url).catch(() => 'allow-all' as const);
    return typeof r === 'string' ? 0 : r.delayMs;
  }

  /** The origin's robots.txt, read once per origin (kept an hour); a transient failure is not kept. */
  rulesOf(url: URL): Promise<Rules> {
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

  /** Whether robots.txt lets us fetch `url`; a file that cannot be read in time (on its thread) refuses. */
  async verdict(url: URL): Promise<boolean> {
    const r = await this.rulesOf(url);
    if (typeof r === 'string') return r === 'allow-all';
    const read = await this.robotsReader.read(r.text, this.userAgent, [url.href]).catch(() => null);
    return read?.allowed[0] === true;
  }

  clear(): void {
    this.robots.clear();
  }

  /** RFC 9309: 4xx (and redirect loops) = no rules; 5xx or unreachable = disallow everything for now. */
  private async loadRobots(page: URL): Promise<Rules> {
    const robotsUrl = new URL('/robots.txt', page.origin);
    const { signal, done } = deadline(this.timeoutMs);
    try {
      const res = await this.hops.follow(
        robotsUrl,
        { maxBytes: ROBOTS_MAX_BYTES, textOnly: false, truncate: true },
        signal,
      );
      const text = decodeBody(res.body, 'text/plain', 'utf-8').text;
      // Read once here for what holds whatever the URL; a file that cannot be read in time refuses everything.
      const read = await this.robotsReader.read(text, this.userAgent, []).catch(() => null);
      if (!read) return 'deny-all';
      return {
        text,
        delayMs: Math.min(MAX_CRAWL_DELAY_MS, Math.max(0, (read.crawlDelaySec ?? 0) * 1000)),
        sitemaps: read.sitemaps,
      };
    } catch (err) {
      const e = toFetchError(err, robotsUrl.href, robotsUrl.href, signal);
      if ((e.code === 'http_error' && e.status! < 500) || e.code === 'too_many_redirects') return 'allow-all';
      if (e.code === 'http_error' || e.code === 'unreachable' || e.code === 'timeout') return 'deny-for-now';
      // Refused or unresolvable: the page itself would fail the same way, so say why.
      throw new FetchError(
        e.code,
        page.href,
        `${page.href}: robots.txt: ${e.message.slice(robotsUrl.href.length + 2)}`,
        e.status,
      );
    } finally {
      done();
    }
  }
}
