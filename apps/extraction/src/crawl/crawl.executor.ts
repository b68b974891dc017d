import { Inject, Logger } from '@nestjs/common';
import { CONFIG, type Config } from '@app/config';
import { type CrawlPage, crawlRuns, type CrawlState, type RecordedCommand } from '@app/domain';
import { ExtractionWorkers } from '@app/extraction';
import { PAGE_FETCHER, type PageFetcher } from '@app/fetch';
import { type RunContext, type RunExecutor, RunExecutorOf } from '@app/runs';
import { normalizeUrl } from '@app/urls';
import { ExtractService } from '../extract.service';
import { CrawlIndexer } from './crawl-indexer';
import { crawlScope, hostPacer, OriginBudget, startAddress } from './crawl-scope';

const HTML_TYPES = new Set(['text/html', 'application/xhtml+xml']);

type Running = Exclude<CrawlState, { status: 'absent' }>;

/**
 * Crawl runs, worked here because the extraction service is the one that reads user-supplied
 * URLs (SSRF guard, robots.txt, its fetcher and extraction threads): breadth-first from the start
 * page, each page fetched once (one GET, no page cache, robots.txt honoured, Crawl-delay pacing
 * every request to the host, redirect hops included) and extracted as `/v1/extract` reads it. A
 * page is recorded, with the links it adds to the frontier, before the next request: a worker that
 * takes the run over rebuilds the frontier from the log and reads no recorded page again. What
 * the site sends is parsed on the extraction threads, under their deadline (robots.txt, the
 * content, the links): a page that fails or runs out of time at any step is recorded as that
 * page's error and the crawl goes on. A page is listed at its own address (where its redirects
 * ended), with `source_url` the address that led there; a page reached again by another address
 * is not read twice. Links go to at most CRAWL_MAX_ORIGINS origins.
 */
@RunExecutorOf(crawlRuns)
export class CrawlExecutor implements RunExecutor<typeof crawlRuns> {
  readonly kind = crawlRuns;
  private readonly logger = new Logger('CrawlExecutor');

  constructor(
    private readonly extractor: ExtractService,
    @Inject(PAGE_FETCHER) private readonly fetcher: PageFetcher,
    private readonly indexer: CrawlIndexer,
    private readonly workers: ExtractionWorkers,
    @Inject(CONFIG) private readonly config: Config,
  ) {}

  async execute(run: RunContext<CrawlState, RecordedCommand<typeof crawlRuns>>): Promise<void> {
    if (run.state.status === 'absent') throw new Error(`crawl run ${run.runId} has no request`);
    const state: Running = run.state;
    if (state.progress.termination) return;
    const { params } = state;
    const start = startAddress(params.url);
    const inScope = crawlScope(start, params);
    const { queue, seen, read } = frontier(start, state.progress.pages);
    const origins = new OriginBudget(
      this.config.crawlMaxOrigins,
      start,
      ...state.progress.pages.flatMap((page) => page.links),
    );
    let count = state.progress.pages.length;
    /** Set once the team's index refused a page: later pages are not offered. */
    let indexRefused = false;
    const indexRun = { crawlId: run.runId, teamId: state.team_id, workerId: run.workerId };
    const refusedToIndex = (url: string, reason: string) => {
      // The team's index is full (or this crawl's pages were removed): the crawl reads on, unindexed.
      indexRefused = true;
      this.logger.warn({
        msg: 'crawl pages no longer indexed',
        crawl_id: run.runId,
        team_id: state.team_id,
        url,
        reason,
      });
    };
    if (params.index && run.resumed && count > 0) {
      const outcome = await this.indexer.resume(indexRun, params.format).catch((error: unknown) => {
        this.logger.warn({
          msg: 'resumed crawl: last page not indexed',
          crawl_id: run.runId,
          err: (error as Error).message,
        });
        return null;
      });
      if (outcome && !outcome.indexed && outcome.refusal) refusedToIndex(params.url, outcome.refusal);
    }
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
      if (!(await this.robotsAllowed(next.url, run.signal))) {
        if (next.depth > 0) continue;
        await run.record({
          type: 'RecordCrawlPage',
          url: next.url,
          source_url: null,
          final_url: null,
          depth: 0,
          status: null,
          title: null,
          content: null,
          error: `${next.url}: robots.txt disallows it (or could not be read)`,
          links: [],
        });
        count++;
        continue;
      }
      const { result, page, refusal, renders } = await this.extractor.readPage(
        next.url,
        {
          objective: null,
          format: params.format,
          full_content: true,
          excerpts: false,
          max_chars_per_result: null,
          render: params.render,
        },
        { respectRobots: true, cache: false, beforeHop: pace.before, afterHop: pace.after, signal: run.signal },
      );
      if (run.stopped()) return;
      const finalUrl = page?.finalUrl ?? null;
      const moved = finalUrl !== null && normalizeUrl(finalUrl) !== normalizeUrl(next.url);
      // Reached again by another address (a redirect to a page already read): not a page of its own.
      if (moved && read.has(normalizeUrl(finalUrl))) {
        read.add(normalizeUrl(next.url));
        continue;
      }
      let error = result.error;
      const links: string[] = [];
      if (page && error === null && next.depth < params.max_depth && HTML_TYPES.has(page.contentType)) {
        try {
          for (const link of (await this.workers.links(page.body, page.finalUrl)).links) {
            const key = normalizeUrl(link.url);
            if (seen.has(key) || !inScope(link.url) || !origins.admit(link.url)) continue;
            seen.add(key);
            links.push(link.url);
          }
        } catch (failure) {
          // Links past the thread's deadline or heap: the page is that error, recorded before anything else.
          error = `${next.url}: ${(failure as Error).message}`;
          links.length = 0;
        }
      }
      const recorded = await run.recordFacts({
        type: 'RecordCrawlPage',
        url: moved ? finalUrl : next.url,
        source_url: moved ? next.url : null,
        final_url: finalUrl,
        depth: next.depth,
        status: page?.status ?? refusal?.status ?? null,
        title: error === null ? result.title : null,
        content: error === null ? result.content : null,
        error,
        links,
        renders,
      });
      count++;
      read.add(normalizeUrl(next.url));
      if (finalUrl) read.add(normalizeUrl(finalUrl));
      queue.push(...links.map((url) => ({ url, depth: next.depth + 1 })));
      // The page as recorded (its content capped there) joins the team's pages: the index event
      // names the crawl event, so every search replica reads the page from the log.
      const pageRevision = recorded.events.find((event) => event.type === 'CrawlPageRead')?.revision;
      if (params.index && error === null && result.content && pageRevision !== undefined && !indexRefused) {
        const outcome = await this.indexer
          .add(indexRun, { url: finalUrl ?? next.url, format: params.format, revision: pageRevision })
          .catch((failure: unknown) => {
            this.logger.warn({
              msg: 'crawled page not indexed',
              crawl_id: run.runId,
              url: next.url,
              err: (failure as Error).message,
            });
            return null;
          });
        if (outcome && !outcome.indexed && outcome.refusal) refusedToIndex(next.url, outcome.refusal);
      }
    }
  }

  private robotsAllowed(url: string, signal: AbortSignal): Promise<boolean> {
    return this.fetcher.robotsAllowed(url, signal).catch(() => false);
  }
}

/**
 * The frontier as the recorded pages left it: the start page, then every page's new links in the
 * order they were recorded (breadth-first), less the pages read (by address and final address).
 */
export function frontier(
  start: string,
  pages: readonly CrawlPage[],
): { queue: { url: string; depth: number }[]; seen: Set<string>; read: Set<string> } {
  const seen = new Set([normalizeUrl(start)]);
  const queue = [{ url: start, depth: 0 }];
  const read = new Set<string>();
  for (const page of pages) {
    read.add(normalizeUrl(page.url));
    if (page.source_url) read.add(normalizeUrl(page.source_url));
    if (page.final_url) read.add(normalizeUrl(page.final_url));
    for (const link of page.links) {
      seen.add(normalizeUrl(link));
      queue.push({ url: link, depth: page.depth + 1 });
    }
  }
  return { queue: queue.filter((entry) => !read.has(normalizeUrl(entry.url))), seen, read };
}
