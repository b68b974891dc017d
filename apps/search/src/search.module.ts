import * as path from 'node:path';
import { Inject, Logger, Module, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { BusClient } from '@app/bus';
import { CONFIG, type Config } from '@app/config';
import { HealthHandlerModule } from '@app/contracts';
import { createLanguageModel, LANGUAGE_MODEL } from '@app/providers/llm';
import { BraveSearchProvider, LocalSearchProvider, SEARCH_PROVIDER, type SearchProvider, SearxngSearchProvider } from '@app/providers/search';
import { BusPageFetcher } from './bus-page-fetcher';
import { SearchHandler } from './search.handler';
import { SearchService } from './search.service';

export function createSearchProvider(config: Config, bus: BusClient): SearchProvider {
  switch (config.searchProvider) {
    case 'searxng':
      return new SearxngSearchProvider({ baseUrl: config.searxngUrl!, maxConcurrent: config.searxngMaxConcurrent, requestsPerSecond: config.searxngRps });
    case 'brave':
      return new BraveSearchProvider({ apiKey: config.braveApiKey! });
    case 'local':
      return new LocalSearchProvider({
        dataDir: config.dataDir,
        indexDir: config.localIndexDir ? path.resolve(config.localIndexDir) : undefined,
        seeds: config.localIndexSeeds,
        fetcher: config.localIndexSeeds.length ? new BusPageFetcher(bus) : undefined,
        refreshMs: config.localIndexRefreshMs,
        // Replicas sharing a data dir (`start:cluster`) each keep their own copy of the index.
        indexName: config.replica?.includes('#') ? config.replica : undefined,
        onUpdate: (report) => new Logger('LocalIndex').log({ msg: 'local index updated', ...report }),
      });
  }
}

/** The search service: its bus handlers and providers. Standalone imports this same module. */
@Module({
  imports: [HealthHandlerModule.for('search')],
  controllers: [SearchHandler],
  providers: [
    { provide: SEARCH_PROVIDER, inject: [CONFIG, BusClient], useFactory: createSearchProvider },
    { provide: LANGUAGE_MODEL, inject: [CONFIG], useFactory: (config: Config) => createLanguageModel(config) },
    SearchService,
  ],
})
export class SearchModule implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('SearchModule');

  constructor(@Inject(SEARCH_PROVIDER) private readonly provider: SearchProvider) {}

  /** Builds or loads the index once the bus listens (seeds are crawled through the extraction service). */
  onApplicationBootstrap(): void {
    const started = performance.now();
    this.provider.ready().then(
      () => this.logger.log({ msg: 'search provider ready', provider: this.provider.name, ms: Math.round(performance.now() - started) }),
      (error: unknown) => this.logger.error({ msg: 'search provider failed to start', provider: this.provider.name, err: (error as Error).message }),
    );
  }

  async onApplicationShutdown(): Promise<void> {
    await this.provider.close();
  }
}
