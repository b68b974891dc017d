import { randomUUID } from 'node:crypto';
import type { BeforeApplicationShutdown, OnApplicationBootstrap } from '@nestjs/common';
import type { Config } from '@app/config';
import { RUN_KINDS } from '@app/domain';
import type { EventStore } from '@app/eventstore';
import { type RunExecutor, RunWorker } from './run-worker';

/**
 * A service's run worker in its Nest lifecycle: started at bootstrap, and on shutdown stopped
 * before the event store closes, so its runs are handed back while it can still say so. A
 * service subclasses it with its executors (research: deep runs, tasks, chat; findall: FindAll).
 */
export abstract class ServiceRunWorker implements OnApplicationBootstrap, BeforeApplicationShutdown {
  readonly worker: RunWorker;

  protected constructor(store: EventStore, config: Config, service: string, executors: readonly RunExecutor<never>[]) {
    this.worker = new RunWorker(store, RUN_KINDS, executors, {
      workerId: `${service}-${process.pid}-${randomUUID().slice(0, 8)}`,
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
