import * as path from 'node:path';
import { Inject, Module, type OnApplicationShutdown } from '@nestjs/common';
import { CONFIG, type Config } from '@app/config';
import { HealthHandlerModule } from '@app/contracts';
import { HttpFetcher, PAGE_FETCHER, type PageFetcher } from '@app/providers/fetch';
import { ExtractService } from './extract.service';
import { ExtractionHandler } from './extraction.handler';

/**
 * The extraction service: the only place that opens connections to user-supplied URLs (the
 * SSRF-guarded fetcher, cached under DATA_DIR). Standalone imports this same module.
 */
@Module({
  imports: [HealthHandlerModule.for('extraction')],
  controllers: [ExtractionHandler],
  providers: [
    {
      provide: PAGE_FETCHER,
      inject: [CONFIG],
      useFactory: (config: Config) =>
        new HttpFetcher({ allowHosts: config.fetchAllowHosts, cacheDir: path.join(config.dataDir, 'fetch-cache') }),
    },
    ExtractService,
  ],
  exports: [ExtractService, PAGE_FETCHER],
})
export class ExtractionModule implements OnApplicationShutdown {
  constructor(@Inject(PAGE_FETCHER) private readonly fetcher: PageFetcher) {}

  async onApplicationShutdown(): Promise<void> {
    await this.fetcher.close();
  }
}
