import { Inject, Injectable } from '@nestjs/common';
import { CONFIG, type Config } from '@app/config';
import { EVENT_STORE, type EventStore } from '@app/eventstore';
import { ServiceRunWorker } from '@app/runs';
import { ChatExecutor } from './chat.executor';
import { SearchRunExecutor } from './search-run.executor';
import { TaskRunExecutor } from './task-run.executor';

/** The research service's run worker: deep search runs, task runs and chat completions. */
@Injectable()
export class ResearchWorker extends ServiceRunWorker {
  constructor(@Inject(EVENT_STORE) store: EventStore, @Inject(CONFIG) config: Config, searchRuns: SearchRunExecutor, taskRuns: TaskRunExecutor, chats: ChatExecutor) {
    super(store, config, 'research', [searchRuns, taskRuns, chats]);
  }
}
