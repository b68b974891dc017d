import { randomUUID } from 'node:crypto';
import { type BeforeApplicationShutdown, Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { CONFIG, type Config } from '@app/config';
import { RUN_KINDS } from '@app/domain';
import { EVENT_STORE, type EventStore } from '@app/eventstore';
import { RunWorker } from '@app/runs';
import { ChatExecutor } from './chat.executor';
import { SearchRunExecutor } from './search-run.executor';
import { TaskRunExecutor } from './task-run.executor';

/** The research service's run worker: deep search runs, task runs and chat completions. */
@Injectable()
export class ResearchWorker implements OnApplicationBootstrap, BeforeApplicationShutdown {
  readonly worker: RunWorker;

  constructor(@Inject(EVENT_STORE) store: EventStore, @Inject(CONFIG) config: Config, searchRuns: SearchRunExecutor, taskRuns: TaskRunExecutor, chats: ChatExecutor) {
    this.worker = new RunWorker(store, RUN_KINDS, [searchRuns, taskRuns, chats], {
      workerId: `research-${process.pid}-${randomUUID().slice(0, 8)}`,
      leaseSeconds: config.runLeaseSeconds,
      maxConcurrentRunsPerTeam: config.maxConcurrentRunsPerTeam,
    });
  }

  onApplicationBootstrap(): Promise<void> {
    return this.worker.start();
  }

  /** Before the event store closes: hand every run back so another replica resumes it at once. */
  beforeApplicationShutdown(): Promise<void> {
    return this.worker.stop();
  }
}
