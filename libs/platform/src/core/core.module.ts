import { type DynamicModule, Global, Inject, Logger, Module, type OnApplicationShutdown } from '@nestjs/common';
import { CONFIG, type Config } from '@app/config';
import { RUN_KINDS, type RunKind } from '@app/domain';
import { EVENT_STORE, type EventStore, openEventStore } from '@app/eventstore';
import { openReadStore, READ_STORE, type ReadStore } from '@app/readmodels';
import { RUN_KIND_LIST } from '@app/runs';
import { SecretBox } from '../secrets';

/**
 * What every process has: validated configuration, the list of run kinds, the event log, the read store and the
 * secret box. Opened once at boot, closed on shutdown (after the app stops taking work).
 */
@Global()
@Module({})
export class CoreModule implements OnApplicationShutdown {
  private readonly logger = new Logger('CoreModule');

  constructor(
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(READ_STORE) private readonly reads: ReadStore,
  ) {}

  /** `kinds`: the list of run kinds this process serves (tests add kinds of their own). */
  static forRoot(config: Config, kinds: readonly RunKind[] = RUN_KINDS): DynamicModule {
    return {
      module: CoreModule,
      providers: [
        { provide: CONFIG, useValue: config },
        { provide: RUN_KIND_LIST, useValue: kinds },
        { provide: EVENT_STORE, useFactory: () => openEventStore(config.eventstoreUrl) },
        {
          provide: READ_STORE,
          useFactory: (): Promise<ReadStore> => openReadStore(config.mongoUrl),
        },
        { provide: SecretBox, useFactory: () => SecretBox.load(config.secretsKey, config.dataDir) },
      ],
      exports: [CONFIG, RUN_KIND_LIST, EVENT_STORE, READ_STORE, SecretBox],
    };
  }

  async onApplicationShutdown(): Promise<void> {
    await Promise.allSettled([this.events.close(), this.reads.close()]);
    this.logger.log('event log and read store closed');
  }
}
