import * as path from 'node:path';
import { Inject, Logger, Module, type OnApplicationShutdown } from '@nestjs/common';
import { CONFIG, type Config } from '@app/config';
import { HealthHandlerModule } from '@app/contracts';
import { ExtractionWorkers } from '@app/extraction';
import { BrowserRenderer, HttpFetcher, PAGE_FETCHER, type PageFetcher } from '@app/fetch';
import { RunServiceModule } from '@app/runs';
import { CrawlExecutor } from './crawl/crawl.executor';
import { CrawlIndexer } from './crawl/crawl-indexer';
import { SiteMapper } from './crawl/site-map';
import { ExtractService } from './extract.service';
import { ExtractionHandler } from './extraction.handler';

/**
 * The extraction service: the only place that opens connections to user-supplied URLs (the
 * SSRF-guarded fetcher, cached under DATA_DIR): extraction, site maps and crawl runs (whose
 * worker is here). Standalone imports this same module.
 */
@Module({
  imports: [HealthHandlerModule.for('extraction'), RunServiceModule.forService('extraction')],
  controllers: [ExtractionHandler],
  providers: [
    {
      provide: PAGE_FETCHER,
      inject: [CONFIG, ExtractionWorkers],
      useFactory: (config: Config, workers: ExtractionWorkers) =>
        new HttpFetcher({
          allowHosts: config.fetchAllowHosts,
          cacheDir: path.join(config.dataDir, 'fetch-cache'),
          cacheMaxBytes: config.pageCacheMaxMb * 1024 * 1024,
          maxConcurrency: config.fetchMaxConcurrency,
          // robots.txt is a site's text like any page: read on the extraction threads, under their deadline.
          robotsReader: { read: (text, userAgent, urls) => workers.robots(text, userAgent, urls) },
        }),
    },
    {
      provide: ExtractionWorkers,
      inject: [CONFIG],
      useFactory: (config: Config) =>
        new ExtractionWorkers({
          timeoutMs: config.extractTimeoutMs,
          documentTimeoutMs: config.extractDocumentTimeoutMs,
          size: config.extractThreads || undefined,
          maxHeapMb: config.extractMaxHeapMb,
        }),
    },
    {
      // Script-filled pages, rendered in a headless Chromium launched on first use.
      provide: BrowserRenderer,
      inject: [CONFIG],
      useFactory: (config: Config) =>
        new BrowserRenderer({
          executablePath: config.browserPath,
          poolSize: config.browserPoolSize,
          timeoutMs: config.renderTimeoutMs,
          queueMax: config.renderQueueMax,
          allowHosts: config.fetchAllowHosts,
          log: new Logger('BrowserRenderer'),
        }),
    },
    ExtractService,
    SiteMapper,
    CrawlIndexer,
    CrawlExecutor,
  ],
  exports: [ExtractService, PAGE_FETCHER, ExtractionWorkers],
})
export class ExtractionModule implements OnApplicationShutdown {
  constructor(
    @Inject(PAGE_FETCHER) private readonly fetcher: PageFetcher,
    private readonly workers: ExtractionWorkers,
    private readonly renderer: BrowserRenderer,
  ) {}

  async onApplicationShutdown(): Promise<void> {
    await Promise.all([this.fetcher.close(), this.workers.close(), this.renderer.close()]);
  }
}
