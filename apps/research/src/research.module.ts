import { Module } from '@nestjs/common';
import { CONFIG, type Config } from '@app/config';
import { HealthHandlerModule } from '@app/contracts';
import { RunServiceModule } from '@app/runs';
import { createLanguageModel, createResearchModel, LANGUAGE_MODEL } from '@app/language';
import { RESEARCH_MODEL } from '@app/research';
import { ChatExecutor } from './chat.executor';
import { ResearchPortsFactory } from './research-ports';
import { SearchRunExecutor } from './search-run.executor';
import { TaskRunExecutor } from './task-run.executor';

/** The research service: deep search runs, task runs and chat. Standalone imports this same module. */
@Module({
  imports: [HealthHandlerModule.for('research'), RunServiceModule.forService('research')],
  providers: [
    { provide: RESEARCH_MODEL, inject: [CONFIG], useFactory: (config: Config) => createResearchModel(config) },
    { provide: LANGUAGE_MODEL, inject: [CONFIG], useFactory: (config: Config) => createLanguageModel(config) },
    ResearchPortsFactory,
    SearchRunExecutor,
    TaskRunExecutor,
    ChatExecutor,
  ],
})
export class ResearchModule {}
