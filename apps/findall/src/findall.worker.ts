import { randomUUID } from 'node:crypto';
import { type BeforeApplicationShutdown, Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { CONFIG, type Config } from '@app/config';
import { RUN_KINDS } from '@app/domain';
import { EVENT_STORE, type EventStore } from '@app/eventstore';
import { RunWorker } from '@app/runs';
import { FindAllExecutor } from './findall.executor';

/** The findall service's run worker (the shared worker library, FindAll runs only). */
@Injectable()
export class FindAllWorker implements OnApplicationBootstrap, BeforeApplicationShutdown {
  readonly worker: RunWorker;

  constructor(@Inject(EVENT_STORE) store: EventStore, @Inject(CONFIG) config: Config, executor: FindAllExecutor) {
    this.worker = new RunWorker(store, RUN_KINDS, [executor], {
      workerId: `findall-${process.pid}-${randomUUID().slice(0, 8)}`,
      leaseSeconds: config.runLeaseSeconds,
      maxConcurrentRunsPerTeam: config.maxConcurrentRunsPerTeam,
    });
  }

  onApplicationBootstrap(): Promise<void> {
    return this.worker.start();
  }

  beforeApplicationShutdown(): Promise<void> {
    return this.worker.stop();
  }
}
