import { Inject, Injectable } from '@nestjs/common';
import type { MapLinkDto, MapReply, MapRequest } from '@app/contracts';
import { CONFIG, type Config } from '@app/config';
import { lineItem, totalCredits, Invalid } from '@app/domain';
import { EVENT_STORE, type EventStore } from '@app/eventstore';
import { ExtractionWorkers } from '@app/extraction';
import { FetchError, type FetchOptions, PAGE_FETCHER, type PageFetcher } from '@app/fetch';
import { type ChargeContext, chargeRequest } from '@app/platform';
import { absoluteUrl, normalizeUrl } from '@app/urls';
import { crawlScope, hostPacer, OriginBudget } from './crawl-scope';

/** The bounds of one map call: a site is hostile until bounded. The whole call is MAP_CALL_TIMEOUT_MS. */
export const MAP_BOUNDS = {
  /** Sitemap files read (robots.txt's, /sitemap.xml and the indexes' children). */
  sitemaps: 20,
  sitemapBytes: 10 * 1024 * 1024,
  entriesPerSitemap: 50_000,
  /** HTML pages read for links: the start page and pages it links to. */
  pages: 20,
  pageBytes: 2 * 1024 * 1024,
  /** The share of the call spent gathering (sitemaps and pages, side by side); robots.txt's verdicts take the rest. */
  gatherShare: 0.75,
  /** Candidates gathered before ranking and the limit. */
  candidates: 50_000,
  /** Anchor texts kept per candidate (for `search`). */
  anchors: 5,
  /** URLs asked of robots.txt at once (one read of its rules on a thread): those judged when the deadline comes are listed. */
  verdictBatch: 2_000,
} as const;

const REFUSED = new Set(['invalid_url', 'unsupported_scheme', 'blocked_address']);
const HTML_TYPES = new Set(['text/html', 'application/xhtml+xml']);

interface Found {
  url: string;
  title?: string;
  lastmod?: string;
  /** The texts of the links to it on the pages read. */
  anchors: string[];
  order: number;
}

interface Extra {
  title?: string;
  anchor?: string;
  lastmod?: string;
}

/** The URLs one source (the sitemaps, the pages) found, de-duplicated by their normal form, in the order found. */
class Candidates {
  readonly found = new Map<string, Found>();
  /** Normal forms of addresses that redirected: listed at their target, by every source. */
  readonly moved = new Set<string>();

  constructor(private readonly admit: (url: string) => boolean) {}

  add(url: string, extra: Extra = {}): void {
    const key = normalizeUrl(url);
    let entry = this.found.get(key);
    if (!entry) {
      if (this.found.size >= MAP_BOUNDS.candidates || !this.admit(url)) return;
      this.found.set(key, (entry = { url, anchors: [], order: this.found.size }));
    }
    entry.title ??= extra.title || undefined;
    entry.lastmod ??= extra.lastmod || undefined;
    const anchor = extra.anchor?.trim();
    if (anchor && entry.anchors.length < MAP_BOUNDS.anchors && !entry.anchors.includes(anchor))
      entry.anchors.push(anchor);
  }

  /** `sources` in turn into one list (each admitted its own): a URL keeps its first place and gathers what each source knew of it. */
  static merge(...sources: Candidates[]): Candidates {
    const merged = new Candidates(() => true);
    const moved = new Set(sources.flatMap((source) => [...source.moved]));
    for (const source of sources)
      for (const [key, { url, title, lastmod, anchors }] of source.found) {
        if (moved.has(key)) continue;
        merged.add(url, { title, lastmod });
        for (const anchor of anchors) merged.add(url, { anchor });
      }
    return merged;
  }
}

/**
 * POST /v1/map: a site's URLs, from its sitemaps (robots.txt `Sitemap:` lines, `/sitemap.xml`,
 * indexes and gzip files) and the links of its start page and the pages that links to, read side by
 * side, within MAP_BOUNDS, CRAWL_MAX_ORIGINS (candidates on further origins are left out, so
 * robots.txt is read for that many origins at most) and MAP_CALL_TIMEOUT_MS (gathering stops at
 * three quarters of it; what robots.txt has judged by its end is listed). Every URL robots.txt
 * disallows, or whose robots.txt could not be read in time, is left out; URLs are normalised and
 * de-duplicated (sitemap entries first, then the pages' links), a fetched page that redirects is
 * listed at its target; `search` ranks by title, anchor texts and URL words. What a site sends
 * (robots.txt, sitemaps, pages) is parsed on the extraction threads, each under their deadline.
 */
@Injectable()
export class SiteMapper {
  constructor(
    @Inject(PAGE_FETCHER) private readonly fetcher: PageFetcher,
    @Inject(EVENT_STORE) private readonly events: EventStore,
    private readonly workers: ExtractionWorkers,
    @Inject(CONFIG) private readonly config: Config,
  ) {}

  async map(request: MapRequest, charge: ChargeContext): Promise<MapReply> {
    const start = absoluteUrl(request.url);
    if (!start) throw new Invalid(`url: ${JSON.stringify(request.url)} is not an http(s) URL`);
    const deadline = AbortSignal.timeout(this.config.mapCallTimeoutMs);
    const gathering = AbortSignal.any([
      deadline,
      AbortSignal.timeout(Math.round(this.config.mapCallTimeoutMs * MAP_BOUNDS.gatherShare)),
    ]);
    try {
      await this.fetcher.robotsAllowed(start, gathering);
    } catch (error) {
      if (error instanceof FetchError && REFUSED.has(error.code)) throw new Invalid(`url: ${error.message}`);
    }
    const inScope = crawlScope(start, { include_subdomains: request.include_subdomains });
    const origins = new OriginBudget(this.config.crawlMaxOrigins, start);
    const admit = (url: string) => inScope(url) && origins.admit(url);
    const pace = hostPacer((url) => this.fetcher.crawlDelayMs(url).catch(() => 0), gathering);
    const options: FetchOptions = {
      respectRobots: true,
      cache: false,
      beforeHop: pace.before,
      afterHop: pace.after,
      signal: gathering,
    };

    // Side by side, so a slow or huge sitemap does not keep the start page and its links from being read.
    const fromSitemaps = new Candidates(admit);
    const fromPages = new Candidates(admit);
    await Promise.all([
      request.sitemap !== 'skip' && this.readSitemaps(start, fromSitemaps, options, origins),
      request.sitemap !== 'only' && this.readPages(start, fromPages, options),
    ]);
    const found = Candidates.merge(fromSitemaps, fromPages).found;

    const links: MapLinkDto[] = [];
    // In rank order, robots.txt asked about as many as the limit needs, a batch at a time.
    const ranked = rank([...found.values()], request.search ?? null);
    for (
      let at = 0;
      at < ranked.length && links.length < request.limit && !deadline.aborted;
      at += MAP_BOUNDS.verdictBatch
    ) {
      const slice = ranked.slice(at, at + MAP_BOUNDS.verdictBatch);
      const allowed = await this.fetcher.robotsFilter(
        slice.map((entry) => entry.url),
        deadline,
      );
      slice.forEach(({ url, title, lastmod }, i) => {
        if (allowed[i] && links.length < request.limit)
          links.push({ url, ...(title && { title }), ...(lastmod && { lastmod }) });
      });
    }
    const usage = [lineItem('sku_map', 1)];
    const position = await chargeRequest(this.events, charge, usage);
    return { url: start, links, credits: totalCredits(usage), usage, ...(position !== undefined && { position }) };
  }

  /** robots.txt's `Sitemap:` lines and /sitemap.xml, indexes followed, within the sitemap budget and the origins admitted. */
  private async readSitemaps(
    start: string,
    candidates: Candidates,
    options: FetchOptions,
    origins: OriginBudget,
  ): Promise<void> {
    const origin = new URL(start).origin;
    const queue: string[] = [...(await this.fetcher.robotsSitemaps(start, options.signal).catch(() => []))];
    queue.push(`${origin}/sitemap.xml`);
    const read = new Set<string>();
    while (queue.length > 0 && read.size < MAP_BOUNDS.sitemaps && !options.signal?.aborted) {
      const url = absoluteUrl(queue.shift()!);
      if (!url || read.has(normalizeUrl(url)) || !origins.admit(url)) continue;
      read.add(normalizeUrl(url));
      try {
        const body = (
          await this.fetcher.fetch(url, {
            ...options,
            respectRobots: false,
            gunzip: true,
            maxBytes: MAP_BOUNDS.sitemapBytes,
          })
        ).body;
        const sitemap = await this.workers.sitemap(body, MAP_BOUNDS.entriesPerSitemap);
        for (const entry of sitemap.entries) {
          const loc = absoluteUrl(entry.loc);
          if (!loc) continue;
          if (sitemap.kind === 'index') queue.push(loc);
          else candidates.add(loc, entry.lastmod ? { lastmod: entry.lastmod } : {});
        }
      } catch {
        // Unreadable, or not read in time: the next sitemap.
      }
    }
  }

  /** The start page and the in-scope pages it links to, within the page budget; redirects listed at their target. */
  private async readPages(start: string, candidates: Candidates, options: FetchOptions): Promise<void> {
    const { found } = candidates;
    const queue = [start];
    const visited = new Set<string>();
    while (queue.length > 0 && visited.size < MAP_BOUNDS.pages && !options.signal?.aborted) {
      const url = queue.shift()!;
      const key = normalizeUrl(url);
      if (visited.has(key)) continue;
      visited.add(key);
      if (!(await this.fetcher.robotsAllowed(url, options.signal).catch(() => false))) continue;
      try {
        const page = await this.fetcher.fetch(url, { ...options, maxBytes: MAP_BOUNDS.pageBytes });
        const finalUrl = absoluteUrl(page.finalUrl) ?? url;
        const read = HTML_TYPES.has(page.contentType)
          ? await this.workers.links(page.body, finalUrl).catch(() => null)
          : null;
        if (normalizeUrl(finalUrl) !== key) {
          // Listed where it answers: the address that redirected is dropped.
          const moved = found.get(key);
          found.delete(key);
          candidates.moved.add(key);
          visited.add(normalizeUrl(finalUrl));
          candidates.add(finalUrl, { title: read?.title ?? moved?.title });
          for (const anchor of moved?.anchors ?? []) candidates.add(finalUrl, { anchor });
        } else candidates.add(url, { title: read?.title ?? undefined });
        for (const link of read?.links ?? []) {
          candidates.add(link.url, { anchor: link.text });
          if (!visited.has(normalizeUrl(link.url)) && found.has(normalizeUrl(link.url))) queue.push(link.url);
        }
      } catch {
        // A page that fails keeps its place in the list (it is linked), its links unread.
        if (url === start) candidates.add(start);
      }
    }
  }
}

const words = (text: string) =>
  text
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word.length > 1);

/**
 * With `search`: each word of the search counts where a candidate has it, by field (its title 3,
 * the texts of links to it 2, a word of its URL that starts with it 1), weighed by how rare the
 * word is among the candidates (a word every page's title holds, such as the site's name, tells
 * little) and, in a title or anchor, by how short that text is against the others (a page titled
 * by the words searched for beats a home page whose long title mentions them among others, as in
 * BM25F); ties in found order.
 */
export function rank<T extends { url: string; title?: string; anchors?: readonly string[]; order: number }>(
  entries: T[],
  search: string | null,
): T[] {
  const terms = search ? [...new Set(words(search))] : [];
  if (terms.length === 0) return [...entries].sort((a, b) => a.order - b.order);
  const fields = entries.map((entry) => {
    const title = words(entry.title ?? '');
    const anchors = (entry.anchors ?? []).flatMap(words);
    return {
      title: new Set(title),
      titleLength: title.length,
      anchors: new Set(anchors),
      anchorLength: anchors.length,
      url: words(decodeURIComponentSafe(entry.url.replace(/^https?:\/\/[^/]+/, ''))),
    };
  });
  const average = (lengths: number[]) =>
    Math.max(1, lengths.reduce((sum, n) => sum + n, 0) / Math.max(1, lengths.filter((n) => n > 0).length));
  const titleAverage = average(fields.map((f) => f.titleLength));
  const anchorAverage = average(fields.map((f) => f.anchorLength));
  const norm = (length: number, mean: number) => 1 / (0.25 + (0.75 * length) / mean);
  const has = (f: (typeof fields)[number], term: string) => ({
    title: f.title.has(term),
    anchor: f.anchors.has(term),
    url: f.url.some((word) => word.startsWith(term)),
  });
  const weight = new Map(
    terms.map((term) => {
      const df = fields.filter((f) => Object.values(has(f, term)).some(Boolean)).length;
      return [term, Math.log(1 + entries.length / (1 + df))];
    }),
  );
  const score = (f: (typeof fields)[number]) =>
    terms.reduce((sum, term) => {
      const h = has(f, term);
      const title = h.title ? 3 * norm(f.titleLength, titleAverage) : 0;
      const anchor = h.anchor ? 2 * norm(f.anchorLength, anchorAverage) : 0;
      return sum + weight.get(term)! * (title + anchor + (h.url ? 1 : 0));
    }, 0);
  return entries
    .map((entry, index) => ({ entry, score: score(fields[index]!) }))
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
