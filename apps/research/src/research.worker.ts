import { randomUUID } from 'node:crypto';
import { type BeforeApplicationShutdown, Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { CONFIG, type Config } from '@app/config';
import { RUN_KINDS } from '@app/domain';
import { EVENT_STORE, type EventStore } from '@app/eventstore';
import { RunWorker } from '@app/runs';
import { SearchRunExecutor } from './search-run.executor';
import { TaskRunExecutor } from './task-run.executor';

/** The research service's run worker: deep search runs and task runs. */
@Injectable()
export class ResearchWorker implements OnApplicationBootstrap, BeforeApplicationShutdown {
  readonly worker: RunWorker;

  constructor(@Inject(EVENT_STORE) store: EventStore, @Inject(CONFIG) config: Config, searchRuns: SearchRunExecutor, taskRuns: TaskRunExecutor) {
    this.worker = new RunWorker(store, RUN_KINDS, [searchRuns, taskRuns], {
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
