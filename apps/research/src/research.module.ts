import { Module } from '@nestjs/common';
import { CONFIG, type Config } from '@app/config';
import { HealthHandlerModule } from '@app/contracts';
import { createResearchModel, RESEARCH_MODEL } from '@app/providers/llm/research';
import { ResearchHandler } from './research.handler';
import { RunWorker } from './run-worker';

/** The research service: deep search runs (and later tasks and chat). Standalone imports this same module. */
@Module({
  imports: [HealthHandlerModule.for('research')],
  controllers: [ResearchHandler],
  providers: [{ provide: RESEARCH_MODEL, inject: [CONFIG], useFactory: (config: Config) => createResearchModel(config) }, RunWorker],
})
export class ResearchModule {}
