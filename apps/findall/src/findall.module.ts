import { Module } from '@nestjs/common';
import { CONFIG, type Config } from '@app/config';
import { HealthHandlerModule } from '@app/contracts';
import { RunServiceModule } from '@app/runs';
import { createLanguageModel, LANGUAGE_MODEL } from '@app/language';
import { FindAllExecutor } from './findall.executor';

/** The findall service: FindAll runs (requests, cancel, extend, enrich) and their worker. Standalone imports this same module. */
@Module({
  imports: [HealthHandlerModule.for('findall'), RunServiceModule.forService('findall')],
  providers: [
    { provide: LANGUAGE_MODEL, inject: [CONFIG], useFactory: (config: Config) => createLanguageModel(config) },
    FindAllExecutor,
  ],
})
export class FindallModule {}
