import { Module } from '@nestjs/common';
import { CONFIG, type Config } from '@app/config';
import { HealthHandlerModule } from '@app/contracts';
import { createLanguageModel, LANGUAGE_MODEL } from '@app/language';
import { FindAllExecutor } from './findall.executor';
import { FindAllHandler } from './findall.handler';
import { FindAllWorker } from './findall.worker';

/** The findall service: FindAll runs (requests, cancel, extend, enrich) and their worker. Standalone imports this same module. */
@Module({
  imports: [HealthHandlerModule.for('findall')],
  controllers: [FindAllHandler],
  providers: [{ provide: LANGUAGE_MODEL, inject: [CONFIG], useFactory: (config: Config) => createLanguageModel(config) }, FindAllExecutor, FindAllWorker],
})
export class FindallModule {}
