import { Inject, Injectable } from '@nestjs/common';
import robotsParser from 'robots-parser';
import type { MapLinkDto, MapReply, MapRequest } from '@app/contracts';
import { DomainError, lineItem, totalCredits } from '@app/domain';
import { EVENT_STORE, type EventStore } from '@app/eventstore';
import { pageLinks, parseSitemap } from '@app/extraction';
import { FetchError, type FetchOptions, PAGE_FETCHER, type PageFetcher } from '@app/fetch';
import { type ChargeContext, chargeRequest } from '@app/platform';
import { absoluteUrl, normalizeUrl } from '@app/urls';
import { crawlScope, hostPacer } from './crawl-scope';

/** The bounds of one map call: a site is hostile until bounded. */
export const MAP_BOUNDS = {
  /** Sitemap files read (robots.txt's, /sitemap.xml and the indexes' children). */
  sitemaps: 20,
  sitemapBytes: 10 * 1024 * 1024,
  entriesPerSitemap: 50_000,
  /** HTML pages read for links: the start page and pages it links to. */
  pages: 20,
  pageBytes: 2 * 1024 * 1024,
  /** The whole call (under the bus timeout, BUS_TIMEOUT_MS, 10 s by default). */
  totalMs: 8_000,
  /** Candidates gathered before ranking and the limit. */
  candidates: 50_000,
} as const;

const REFUSED = new Set(['invalid_url', 'unsupported_scheme', 'blocked_address']);
const HTML_TYPES = new Set(['text/html', 'application/xhtml+xml']);

interface Found {
  url: string;
  title?: string;
  lastmod?: string;
  order: number;
}

/**
 * POST /v1/map: a site's URLs, from its sitemaps (robots.txt `Sitemap:` lines, `/sitemap.xml`,
 * indexes and gzip files) and the links of its start page and the pages that links to, within
 * MAP_BOUNDS. Every URL robots.txt disallows is left out; URLs are normalised and de-duplicated,
 * a fetched page that redirects is listed at its target; `search` ranks by title and URL words.
 */
@Injectable()
export class SiteMapper {
  constructor(
    @Inject(PAGE_FETCHER) private readonly fetcher: PageFetcher,
    @Inject(EVENT_STORE) private readonly events: EventStore,
  ) {}

  async map(request: MapRequest, charge: ChargeContext): Promise<MapReply> {
    const start = absoluteUrl(request.url);
    if (!start) throw new DomainError(422, `url: ${JSON.stringify(request.url)} is not an http(s) URL`);
    const deadline = AbortSignal.timeout(MAP_BOUNDS.totalMs);
    try {
      await this.fetcher.robotsAllowed(start);
    } catch (error) {
      if (error instanceof FetchError && REFUSED.has(error.code)) throw new DomainError(422, `url: ${error.message}`);
    }
    const inScope = crawlScope(start, { include_subdomains: request.include_subdomains });
    const found = new Map<string, Found>();
    const add = (url: string, extra: Omit<Found, 'url' | 'order'> = {}) => {
      const key = normalizeUrl(url);
      const known = found.get(key);
      if (known) {
        known.title ??= extra.title || undefined;
        known.lastmod ??= extra.lastmod;
      } else if (found.size < MAP_BOUNDS.candidates && inScope(url)) {
        found.set(key, { url, ...(extra.title && { title: extra.title }), ...(extra.lastmod && { lastmod: extra.lastmod }), order: found.size });
      }
    };
    const pace = hostPacer((url) => this.fetcher.crawlDelayMs(url).catch(() => 0), deadline);
    const options: FetchOptions = { respectRobots: true, cache: false, beforeHop: pace.before, afterHop: pace.after, signal: deadline };

    if (request.sitemap !== 'skip') await this.readSitemaps(start, add, options);
    if (request.sitemap !== 'only') await this.readPages(start, found, add, options);

    const allowed = await Promise.all([...found.values()].map(async (entry) => ((await this.fetcher.robotsAllowed(entry.url).catch(() => false)) ? entry : null)));
    const ranked = rank(allowed.filter((entry): entry is Found => entry !== null), request.search ?? null);
    const links: MapLinkDto[] = ranked.slice(0, request.limit).map(({ url, title, lastmod }) => ({ url, ...(title && { title }), ...(lastmod && { lastmod }) }));
    const usage = [lineItem('sku_map', 1)];
    const position = await chargeRequest(this.events, charge, usage);
    return { url: start, links, credits: totalCredits(usage), usage, ...(position !== undefined && { position }) };
  }

  /** robots.txt's `Sitemap:` lines and /sitemap.xml, indexes followed, within the sitemap budget. */
  private async readSitemaps(start: string, add: (url: string, extra?: { lastmod?: string }) => void, options: FetchOptions): Promise<void> {
    const origin = new URL(start).origin;
    const queue: string[] = [];
    try {
      const robotsUrl = `${origin}/robots.txt`;
      const robots = await this.fetcher.fetch(robotsUrl, { ...options, respectRobots: false, maxBytes: 512 * 1024 });
      queue.push(...robotsParser(robotsUrl, robots.body).getSitemaps());
    } catch {
      // No robots.txt: /sitemap.xml is still asked for.
    }
    queue.push(`${origin}/sitemap.xml`);
    const read = new Set<string>();
    while (queue.length > 0 && read.size < MAP_BOUNDS.sitemaps && !options.signal?.aborted) {
      const url = absoluteUrl(queue.shift()!);
      if (!url || read.has(normalizeUrl(url))) continue;
      read.add(normalizeUrl(url));
      let body: string;
      try {
        body = (await this.fetcher.fetch(url, { ...options, respectRobots: false, gunzip: true, maxBytes: MAP_BOUNDS.sitemapBytes })).body;
      } catch {
        continue;
      }
      const sitemap = parseSitemap(body, MAP_BOUNDS.entriesPerSitemap);
      for (const entry of sitemap.entries) {
        const loc = absoluteUrl(entry.loc);
        if (!loc) continue;
        if (sitemap.kind === 'index') queue.push(loc);
        else add(loc, entry.lastmod ? { lastmod: entry.lastmod } : {});
      }
    }
  }

  /** The start page and the in-scope pages it links to, within the page budget; redirects listed at their target. */
  private async readPages(start: string, found: Map<string, Found>, add: (url: string, extra?: { title?: string }) => void, options: FetchOptions): Promise<void> {
    const queue = [start];
    const visited = new Set<string>();
    while (queue.length > 0 && visited.size < MAP_BOUNDS.pages && !options.signal?.aborted) {
      const url = queue.shift()!;
      const key = normalizeUrl(url);
      if (visited.has(key)) continue;
      visited.add(key);
      if (!(await this.fetcher.robotsAllowed(url).catch(() => false))) continue;
      try {
        const page = await this.fetcher.fetch(url, { ...options, maxBytes: MAP_BOUNDS.pageBytes });
        const finalUrl = absoluteUrl(page.finalUrl) ?? url;
        const read = HTML_TYPES.has(page.contentType) ? pageLinks(page.body, finalUrl) : null;
        if (normalizeUrl(finalUrl) !== key) {
          // Listed where it answers: the address that redirected is dropped.
          const moved = found.get(key);
          found.delete(key);
          visited.add(normalizeUrl(finalUrl));
          add(finalUrl, { title: read?.title ?? moved?.title });
        } else add(url, { title: read?.title ?? undefined });
        for (const link of read?.links ?? []) {
          add(link.url, { title: link.text || undefined });
          if (!visited.has(normalizeUrl(link.url)) && found.has(normalizeUrl(link.url))) queue.push(link.url);
        }
      } catch {
        // A page that fails keeps its place in the list (it is linked), its links unread.
        if (url === start) add(start);
      }
    }
  }
}

const words = (text: string) => text.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter((word) => word.length > 1);

/** With `search`: by how many of its words the title (twice the weight) and the URL hold, ties in found order. */
export function rank<T extends { url: string; title?: string; order: number }>(entries: T[], search: string | null): T[] {
  const terms = search ? [...new Set(words(search))] : [];
  if (terms.length === 0) return [...entries].sort((a, b) => a.order - b.order);
  const score = (entry: T) => {
    const title = new Set(words(entry.title ?? ''));
    const url = words(decodeURIComponentSafe(entry.url));
    return terms.reduce((sum, term) => sum + (title.has(term) ? 2 : 0) + (url.some((word) => word.startsWith(term)) ? 1 : 0), 0);
  };
  return entries
    .map((entry) => ({ entry, score: score(entry) }))
    .sort((a, b) => b.score - a.score || a.entry.order - b.entry.order)
    .map(({ entry }) => entry);
}

function decodeURIComponentSafe(url: string): string {
  try {
    return decodeURIComponent(url);
  } catch {
    return url;
  }
}
