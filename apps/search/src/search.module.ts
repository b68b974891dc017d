import * as path from 'node:path';
import { Inject, Logger, Module, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { BusClient } from '@app/bus';
import { CONFIG, type Config } from '@app/config';
import { HealthHandlerModule, ServiceReadiness } from '@app/contracts';
import { ExtractionWorkers } from '@app/extraction';
import { createLanguageModel, LANGUAGE_MODEL } from '@app/language';
import { BraveSearchProvider, SEARCH_PROVIDER, type SearchProvider, SearxngSearchProvider } from '@app/providers';
import { LocalSearchProvider } from '@app/search-engine';
import { BusPageFetcher } from './bus-page-fetcher';
import { SearchHandler } from './search.handler';
import { SearchService } from './search.service';
import { TeamPages } from './team-pages';

const SEARCH_EXTRACTION_WORKERS = Symbol('SEARCH_EXTRACTION_WORKERS');

export function createSearchProvider(config: Config, bus: BusClient, workers?: ExtractionWorkers): SearchProvider {
  switch (config.searchProvider) {
    case 'searxng':
      return new SearxngSearchProvider({
        baseUrl: config.searxngUrl!,
        maxConcurrent: config.searxngMaxConcurrent,
        requestsPerSecond: config.searxngRps,
      });
    case 'brave':
      return new BraveSearchProvider({ apiKey: config.braveApiKey! });
    case 'local': {
      const log = new Logger('LocalIndex');
      return new LocalSearchProvider({
        dataDir: config.dataDir,
        indexDir: config.localIndexDir ? path.resolve(config.localIndexDir) : undefined,
        seeds: config.localIndexSeeds,
        fetcher: config.localIndexSeeds.length ? new BusPageFetcher(bus) : undefined,
        extractCrawled: workers && ((body, options) => workers.extract(body, options)),
        ...(workers && { crawl: { readLinks: (html: string, url: string) => workers.links(html, url) } }),
        refreshMs: config.localIndexRefreshMs,
        cacheBytes: config.localIndexCacheBytes,
        preload: config.localIndexPreload,
        onPreload: (report) =>
          'error' in report
            ? log.warn({ msg: 'the index file could not be read ahead', error: report.error })
            : log.log({
                msg: report.completed ? 'index file read into the page cache' : 'index file read ahead, stopped',
                mb: Math.round(report.bytes / 2 ** 20),
                ms: report.ms,
              }),
        // Replicas sharing a data dir (`start:cluster`) each keep their own copy of the index.
        indexName: config.replica?.includes('#') ? config.replica : undefined,
        // A page left out (its reading failed twice) is a warning: it stays out until the next refresh.
        onUpdate: (report) =>
          log[report.errors.length > 0 ? 'warn' : 'log']({
            msg: 'local index updated',
            ...report,
          }),
        // The search thread died: said once each time, with whether another took its place.
        onSearchThread: (report) =>
          log[report.restarted ? 'warn' : 'error']({
            msg: report.restarted
              ? 'the search thread died; another was started'
              : 'the search thread died too often; searches now run on the main thread',
            ...report,
          }),
      });
    }
  }
}

/** The search service: its bus handlers and providers. Standalone imports this same module. */
@Module({
  imports: [HealthHandlerModule.for('search')],
  controllers: [SearchHandler],
  providers: [
    {
      // Crawled pages are extracted on threads with a deadline (a page can be hostile).
      provide: SEARCH_EXTRACTION_WORKERS,
      inject: [CONFIG],
      useFactory: (config: Config) =>
        config.searchProvider === 'local' && config.localIndexSeeds.length > 0
          ? new ExtractionWorkers({ timeoutMs: config.extractTimeoutMs, size: 1, maxHeapMb: config.extractMaxHeapMb })
          : null,
    },
    {
      provide: SEARCH_PROVIDER,
      inject: [CONFIG, BusClient, SEARCH_EXTRACTION_WORKERS],
      useFactory: (config: Config, bus: BusClient, workers: ExtractionWorkers | null) =>
        createSearchProvider(config, bus, workers ?? undefined),
    },
    { provide: LANGUAGE_MODEL, inject: [CONFIG], useFactory: (config: Config) => createLanguageModel(config) },
    TeamPages,
    SearchService,
  ],
})
export class SearchModule implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('SearchModule');

  constructor(
    @Inject(SEARCH_PROVIDER) private readonly provider: SearchProvider,
    @Inject(SEARCH_EXTRACTION_WORKERS) private readonly workers: ExtractionWorkers | null,
    private readonly readiness: ServiceReadiness,
  ) {}

  /** Builds or loads the index once the bus listens (seeds are crawled through the extraction service). */
  onApplicationBootstrap(): void {
    const started = performance.now();
    const ready = this.provider.ready();
    // Not ready until it can search: a search asked before would wait on the build, past its callers' deadlines.
    this.readiness.waitFor('the search index', ready);
    ready.then(
      () =>
        this.logger.log({
          msg: 'search provider ready',
          provider: this.provider.name,
          ms: Math.round(performance.now() - started),
        }),
      (error: unknown) =>
        this.logger.error({
          msg: 'search provider failed to start',
          provider: this.provider.name,
          err: (error as Error).message,
        }),
    );
  }

  async onApplicationShutdown(): Promise<void> {
    await this.provider.close();
    await this.workers?.close();
  }
}
