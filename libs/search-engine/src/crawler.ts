import { createHash } from 'node:crypto';
import { setTimeout as delay } from 'node:timers/promises';
import { pageLinks, type PageLinks } from '@app/extraction';
import { FetchError, type PageFetcher } from '@app/fetch';
import { absoluteUrl, parseRobots, siteKey } from '@app/urls';

/** A page's links read on the calling thread (bounded by pageLinks). */
const readLinksInline = async (html: string, pageUrl: string): Promise<PageLinks> => pageLinks(html, pageUrl);

/** robots.txt read for a Crawl-delay, at most. */
const ROBOTS_CHARS = 512 * 1024;

export interface CrawlOptions {
  /** Link hops from the seed; default 2. */
  maxDepth?: number;
  /** HTML pages kept per seed; default 200. */
  maxPages?: number;
  /** Requests in flight per seed (one site); default 2, to stay polite. */
  concurrency?: number;
  /** Passed to the fetcher: 0 makes a re-crawl read the site, not the fetch cache. */
  maxAgeMs?: number;
  timeoutMs?: number;
  signal?: AbortSignal;
  /** The robots.txt user-agent token whose Crawl-delay applies (default `WebResearchBot`, then `*`). */
  userAgent?: string;
  /** The longest Crawl-delay honoured as written, in ms (a site asking for more waits this long); default 30 s. */
  maxCrawlDelayMs?: number;
  /**
   * Reads a page's links and robots meta (default `pageLinks` inline, bounded in markup and
   * tags). The service gives extraction threads with a deadline: a page is hostile.
   */
  readLinks?: (html: string, pageUrl: string) => Promise<PageLinks>;
}

export interface CrawledPage {
  /** The URL fetched (normalised). */
  url: string;
  /** After redirects (normalised); relative links and the page's identity resolve against it. */
  finalUrl: string;
  depth: number;
  contentType: string;
  body: string;
  /** `base64`: a PDF's or Word file's bytes. */
  encoding?: 'base64';
  fetchedAt: string;
}

export interface CrawlResult {
  seed: string;
  pages: CrawledPage[];
  /** URLs given up on and why (`robots_disallowed`, `not_html`, a fetch error code, ...). */
  skipped: Array<{ url: string; reason: string }>;
}

// Links these extensions name are not pages: not worth a request (PDF and Word files are read).
const BINARY_PATH =
  /\.(zip|gz|tgz|rar|7z|png|jpe?g|gif|webp|svg|ico|mp[34]|mov|avi|woff2?|ttf|css|js|json|xml|rss|csv|xlsx?|doc|pptx?)$/i;
const HTML_TYPES = new Set(['text/html', 'application/xhtml+xml']);

/**
 * Breadth-first crawl of one site from a seed: same-site links only, robots.txt and robots meta
 * honoured, non-HTML skipped, the same body under a second URL kept once.
 */
export class Crawler {
  constructor(
    private readonly fetcher: PageFetcher,
    private readonly options: CrawlOptions = {},
  ) {}

  async crawl(seed: string): Promise<CrawlResult> {
    const start = absoluteUrl(seed);
    if (!start) throw new Error(`seed ${JSON.stringify(seed)} is not an http(s) URL`);
    const { maxDepth = 2, maxPages = 200, concurrency = 2 } = this.options;
    const site = siteKey(start);
    const seen = new Set([start]);
    const bodies = new Set<string>();
    const queue = [{ url: start, depth: 0 }];
    const result: CrawlResult = { seed: start, pages: [], skipped: [] };
    // A site's Crawl-delay: one request at a time, that long apart.
    const delayMs = await this.crawlDelayMs(start);
    let last = 0;

    while (queue.length > 0 && result.pages.length < maxPages) {
      this.options.signal?.throwIfAborted();
      if (delayMs > 0) {
        const wait = last + delayMs - Date.now();
        if (wait > 0) await delay(wait, undefined, { signal: this.options.signal });
        last = Date.now();
      }
      const batch = queue.splice(0, Math.min(delayMs > 0 ? 1 : concurrency, maxPages - result.pages.length));
      const visited = await Promise.all(batch.map(({ url, depth }) => this.visit(url, depth, site, result)));
      for (const visit of visited) {
        if (!visit) continue;
        const { page, links, index } = visit;
        seen.add(page.finalUrl);
        const digest = createHash('sha1').update(page.body).digest('hex');
        if (bodies.has(digest)) {
          result.skipped.push({ url: page.url, reason: 'duplicate' });
          continue;
        }
        bodies.add(digest);
        if (index && result.pages.length < maxPages) result.pages.push(page);
        if (page.depth >= maxDepth) continue;
        for (const link of links) {
          if (seen.has(link) || siteKey(link) !== site || BINARY_PATH.test(new URL(link).pathname)) continue;
          seen.add(link);
          queue.push({ url: link, depth: page.depth + 1 });
        }
      }
    }
    return result;
  }

  /** The Crawl-delay robots.txt asks of this crawler on the seed's site, in ms (0 when none or unreadable). */
  private async crawlDelayMs(start: string): Promise<number> {
    const robotsUrl = new URL('/robots.txt', start).href;
    try {
      const fetched = await this.fetcher.fetch(robotsUrl, {
        respectRobots: false,
        maxAgeMs: this.options.maxAgeMs,
        timeoutMs: this.options.timeoutMs,
        signal: this.options.signal,
      });
      if (fetched.status >= 400) return 0;
      // The bounded parser the map's robots verdicts use, on the first 512 KiB (RFC 9309's minimum).
      const seconds =
        parseRobots(fetched.body.slice(0, ROBOTS_CHARS), this.options.userAgent ?? 'WebResearchBot').crawlDelaySec ?? 0;
      return Math.min(this.options.maxCrawlDelayMs ?? 30_000, Math.max(0, seconds * 1000));
    } catch {
      return 0;
    }
  }

  /**
   * The page's followable links (absolute, normalised) and whether it may be indexed, per its
   * robots meta. A page whose links cannot be read (past the thread's deadline) is kept, with
   * no links to follow.
   */
  private async readLinks(body: string, pageUrl: string): Promise<{ links: string[]; index: boolean }> {
    const read = this.options.readLinks ?? readLinksInline;
    const page = await read(body, pageUrl).catch(() => null);
    return page ? { links: page.links.map((link) => link.url), index: !page.noindex } : { links: [], index: true };
  }

  private async visit(url: string, depth: number, site: string | null, result: CrawlResult) {
    const skip = (reason: string) => {
      result.skipped.push({ url, reason });
      return null;
    };
    try {
      // The fetcher reads robots.txt (cached per origin) and refuses a disallowed URL before any request for it.
      const fetched = await this.fetcher.fetch(url, {
        respectRobots: true,
        maxAgeMs: this.options.maxAgeMs,
        timeoutMs: this.options.timeoutMs,
        signal: this.options.signal,
      });
      if (fetched.status >= 400) return skip(`http_${fetched.status}`);
      // A PDF or Word file is kept (it has text to index) but has no links to follow.
      const document = fetched.encoding === 'base64';
      if (!HTML_TYPES.has(fetched.contentType) && !document) return skip('not_html');
      const finalUrl = absoluteUrl(fetched.finalUrl) ?? url;
      if (siteKey(finalUrl) !== site) return skip('redirected_off_site');
      const { links, index } = document ? { links: [], index: true } : await this.readLinks(fetched.body, finalUrl);
      const page: CrawledPage = {
        url,
        finalUrl,
        depth,
        contentType: fetched.contentType,
        body: fetched.body,
        ...(document && { encoding: 'base64' as const }),
        fetchedAt: fetched.fetchedAt,
      };
      return { page, links, index };
    } catch (err) {
      if (err instanceof FetchError) return skip(err.code);
      if (this.options.signal?.aborted) throw err;
      return skip(`error: ${err instanceof Error ? err.message : String(err)}`);
    }
  }
}
