import { randomUUID } from 'node:crypto';
import {
  applyDecorators,
  type BeforeApplicationShutdown,
  type DynamicModule,
  Inject,
  Injectable,
  Module,
  type OnApplicationBootstrap,
  SetMetadata,
} from '@nestjs/common';
import { DiscoveryModule, DiscoveryService } from '@nestjs/core';
import { CONFIG, type Config } from '@app/config';
import type { RunServiceName } from '@app/contracts';
import type { RunKind } from '@app/domain';
import { EVENT_STORE, type EventStore } from '@app/eventstore';
import { runBusHandler } from './run-bus.handler';
import { RUN_KIND_LIST } from './run-kinds.token';
import { type RunExecutor, RunWorker } from './run-worker';

const EXECUTES = Symbol('EXECUTES');
const SERVICE = Symbol('RUN_SERVICE');

/** Marks a provider as the executor of its kind: the worker of the kind's service finds it. */
export const RunExecutorOf = (kind: RunKind): ClassDecorator =>
  applyDecorators(Injectable(), SetMetadata(EXECUTES, kind.name));

/**
 * A service's run worker in its Nest lifecycle: it works the kinds of the list whose service is
 * this one, with the executors the app provides for them (`@RunExecutorOf(kind)`), and counts every
 * kind against the per-team limit. Started at bootstrap; on shutdown stopped before the event store
 * closes, so its runs are handed back while it can still say so.
 */
@Injectable()
export class ServiceRunWorker implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private runWorker: RunWorker | undefined;

  constructor(
    @Inject(SERVICE) private readonly service: RunServiceName,
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(CONFIG) private readonly config: Config,
    @Inject(RUN_KIND_LIST) private readonly kinds: readonly RunKind[],
    private readonly discovery: DiscoveryService,
  ) {}

  get worker(): RunWorker {
    if (!this.runWorker) throw new Error('the run worker starts at bootstrap');
    return this.runWorker;
  }

  /** The executors of this service's kinds, one per kind. */
  executors(): RunExecutor[] {
    const mine = new Map(this.kinds.filter((kind) => kind.service === this.service).map((kind) => [kind.name, kind]));
    const found = new Map<string, RunExecutor>();
    for (const wrapper of this.discovery.getProviders()) {
      const name = wrapper.metatype
        ? (Reflect.getMetadata(EXECUTES, wrapper.metatype) as string | undefined)
        : undefined;
      if (name === undefined || !mine.has(name) || !wrapper.instance) continue;
      if (found.has(name)) throw new Error(`two executors for run kind ${name}`);
      found.set(name, wrapper.instance as RunExecutor);
    }
    const missing = [...mine.keys()].filter((name) => !found.has(name));
    if (missing.length > 0)
      throw new Error(`the ${this.service} service has no executor for run kind ${missing.join(', ')}`);
    return [...found.values()];
  }

  onApplicationBootstrap(): Promise<void> {
    this.runWorker = new RunWorker(this.store, this.kinds, this.executors(), {
      workerId: `${this.service}-${process.pid}-${randomUUID().slice(0, 8)}`,
      leaseSeconds: this.config.runLeaseSeconds,
      maxConcurrentRunsPerTeam: this.config.maxConcurrentRunsPerTeam,
    });
    return this.runWorker.start();
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.runWorker?.stop();
  }
}

/** What a service that works runs imports: its bus handler for run requests and its worker. */
@Module({})
export class RunServiceModule {
  static forService(service: RunServiceName): DynamicModule {
    return {
      module: RunServiceModule,
      imports: [DiscoveryModule],
      controllers: [runBusHandler(service)],
      providers: [{ provide: SERVICE, useValue: service }, ServiceRunWorker],
      exports: [ServiceRunWorker],
    };
  }
}
