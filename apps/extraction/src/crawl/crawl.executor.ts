import { Inject, Logger } from '@nestjs/common';
import { type CrawlPage, crawlRuns, type CrawlState, type RecordedCommand } from '@app/domain';
import { pageLinks } from '@app/extraction';
import { PAGE_FETCHER, type PageFetcher } from '@app/fetch';
import { type RunContext, type RunExecutor, RunExecutorOf } from '@app/runs';
import { normalizeUrl } from '@app/urls';
import { ExtractService } from '../extract.service';
import { CrawlIndexer } from './crawl-indexer';
import { crawlScope, hostPacer, startAddress } from './crawl-scope';

const HTML_TYPES = new Set(['text/html', 'application/xhtml+xml']);

type Running = Exclude<CrawlState, { status: 'absent' }>;

/**
 * Crawl runs, worked here because the extraction service is the one that reads user-supplied
 * URLs (SSRF guard, robots.txt, its fetcher and extraction threads): breadth-first from the start
 * page, each page fetched once (one GET, no page cache, robots.txt honoured, Crawl-delay pacing
 * every request to the host, redirect hops included) and extracted as `/v1/extract` reads it. A
 * page is recorded, with the links it adds to the frontier, before the next request: a worker that
 * takes the run over rebuilds the frontier from the log and reads no recorded page again.
 */
@RunExecutorOf(crawlRuns)
export class CrawlExecutor implements RunExecutor<typeof crawlRuns> {
  readonly kind = crawlRuns;
  private readonly logger = new Logger('CrawlExecutor');

  constructor(
    private readonly extractor: ExtractService,
    @Inject(PAGE_FETCHER) private readonly fetcher: PageFetcher,
    private readonly indexer: CrawlIndexer,
  ) {}

  async execute(run: RunContext<CrawlState, RecordedCommand<typeof crawlRuns>>): Promise<void> {
    if (run.state.status === 'absent') throw new Error(`crawl run ${run.runId} has no request`);
    const state: Running = run.state;
    if (state.progress.termination) return;
    const { params } = state;
    const start = startAddress(params.url);
    const inScope = crawlScope(start, params);
    const { queue, seen, read } = frontier(start, state.progress.pages);
    let count = state.progress.pages.length;
    const pace = hostPacer((url) => this.fetcher.crawlDelayMs(url).catch(() => 0), run.signal);
    // A resumed run waits its delay after the last page the previous worker read.
    if (count > 0 && (await this.fetcher.crawlDelayMs(start).catch(() => 0)) > 0) await pace.before(start);

    while (!run.stopped()) {
      if (count >= params.limit) return run.record({ type: 'RecordCrawlEnd', reason: 'limit_reached' });
      const next = queue.shift();
      if (!next) return run.record({ type: 'RecordCrawlEnd', reason: 'frontier_exhausted' });
      if (read.has(normalizeUrl(next.url))) continue;
      // Disallowed pages are never requested nor listed (robots.txt is read once per origin); a
      // start page robots.txt refuses is listed with the reason, so the empty crawl says why.
      if (!(await this.robotsAllowed(next.url))) {
        if (next.depth > 0) continue;
        await run.record({ type: 'RecordCrawlPage', url: next.url, final_url: null, depth: 0, status: null, title: null, content: null, error: `${next.url}: robots.txt disallows it (or could not be read)`, links: [] });
        count++;
        continue;
      }
      const { result, page, refusal, renders } = await this.extractor.readPage(
        next.url,
        { objective: null, format: params.format, full_content: true, excerpts: false, max_chars_per_result: null, render: params.render },
        { respectRobots: true, cache: false, beforeHop: pace.before, afterHop: pace.after, signal: run.signal },
      );
      if (run.stopped()) return;
      const links: string[] = [];
      if (page && next.depth < params.max_depth && HTML_TYPES.has(page.contentType)) {
        for (const link of pageLinks(page.body, page.finalUrl).links) {
          const key = normalizeUrl(link.url);
          if (seen.has(key) || !inScope(link.url)) continue;
          seen.add(key);
          links.push(link.url);
        }
      }
      await run.record({
        type: 'RecordCrawlPage',
        url: next.url,
        final_url: page?.finalUrl ?? null,
        depth: next.depth,
        status: page?.status ?? refusal?.status ?? null,
        title: result.title,
        content: result.content,
        error: result.error,
        links,
        renders,
      });
      count++;
      read.add(normalizeUrl(next.url));
      if (page) read.add(normalizeUrl(page.finalUrl));
      queue.push(...links.map((url) => ({ url, depth: next.depth + 1 })));
      if (params.index && result.error === null && result.content) {
        await this.indexer.add(run.runId, { url: page?.finalUrl ?? next.url, title: result.title, content: result.content, format: params.format }).catch((error: unknown) => {
          this.logger.warn({ msg: 'crawled page not indexed', crawl_id: run.runId, url: next.url, err: (error as Error).message });
        });
      }
    }
  }

  private robotsAllowed(url: string): Promise<boolean> {
    return this.fetcher.robotsAllowed(url).catch(() => false);
  }
}

/**
 * The frontier as the recorded pages left it: the start page, then every page's new links in the
 * order they were recorded (breadth-first), less the pages read (by address and final address).
 */
export function frontier(start: string, pages: readonly CrawlPage[]): { queue: { url: string; depth: number }[]; seen: Set<string>; read: Set<string> } {
  const seen = new Set([normalizeUrl(start)]);
  const queue = [{ url: start, depth: 0 }];
  const read = new Set<string>();
  for (const page of pages) {
    read.add(normalizeUrl(page.url));
    if (page.final_url) read.add(normalizeUrl(page.final_url));
    for (const link of page.links) {
      seen.add(normalizeUrl(link));
      queue.push({ url: link, depth: page.depth + 1 });
    }
  }
  return { queue: queue.filter((entry) => !read.has(normalizeUrl(entry.url))), seen, read };
}
