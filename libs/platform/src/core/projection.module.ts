import { type DynamicModule, Global, Injectable, Logger, Module, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { EVENT_STORE, type EventStore } from '@app/eventstore';
import { Projector, READ_STORE, type ReadStore } from '@app/readmodels';
import { platformProjections } from '@app/readmodels/projections';

/**
 * Runs the projector inside this process (standalone, or a gateway with in-memory read models):
 * boot waits for the catch-up, so the first request already sees every key and charge.
 */
@Injectable()
export class ProjectorLifecycle implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger('Projector');

  constructor(readonly projector: Projector) {}

  async onModuleInit(): Promise<void> {
    const started = performance.now();
    await this.projector.start();
    await this.projector.caughtUp();
    this.logger.log({ msg: 'read models caught up', position: String(this.projector.position), ms: Math.round(performance.now() - started) });
  }

  async onApplicationShutdown(): Promise<void> {
    await this.projector.stop();
  }
}

/** Global, so the gateway can wait on the in-process projector when there is one. */
@Global()
@Module({})
export class ProjectionModule {
  static forRoot(): DynamicModule {
    return {
      module: ProjectionModule,
      providers: [
        {
          provide: Projector,
          inject: [EVENT_STORE, READ_STORE],
          useFactory: (events: EventStore, reads: ReadStore) => new Projector(events, reads, platformProjections),
        },
        ProjectorLifecycle,
      ],
      exports: [Projector],
    };
  }
}
