import * as path from 'node:path';
import {
  type DynamicModule,
  Global,
  Inject,
  Injectable,
  Logger,
  Module,
  type OnApplicationShutdown,
  type OnModuleInit,
} from '@nestjs/common';
import { CONFIG, type Config } from '@app/config';
import type { RunKind } from '@app/domain';
import { EVENT_STORE, type EventStore } from '@app/eventstore';
import { RUN_KIND_LIST } from '@app/runs';
import {
  MemoryReadStore,
  Projector,
  READ_STORE,
  ReadModelSnapshots,
  type ReadStore,
  platformProjections,
  pruneCharges,
  pruneChargesOver,
} from '@app/readmodels';

/** How often in-memory read models are written to DATA_DIR while they change (and once at shutdown). */
const SNAPSHOT_EVERY_MS = 60_000;
/** How often charges past CHARGES_RETENTION_DAYS are dropped from the read model. */
const PRUNE_EVERY_MS = 3_600_000;
/** How often the in-memory read model's charges are brought back to CHARGES_MAX_DOCS. */
const BOUND_EVERY_MS = 60_000;
const SNAPSHOT_NAME = Symbol('SNAPSHOT_NAME');

/**
 * Runs the projector inside this process (standalone, or a gateway with in-memory read models):
 * boot waits for the catch-up, so the first request already sees every key and charge.
 */
@Injectable()
export class ProjectorLifecycle implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger('Projector');
  /** In-memory read models are snapshotted to DATA_DIR, so a boot replays only the log's tail. */
  private readonly snapshots: ReadModelSnapshots | null;
  private timer?: NodeJS.Timeout;
  private pruneTimer?: NodeJS.Timeout;
  private boundTimer?: NodeJS.Timeout;

  constructor(
    readonly projector: Projector,
    @Inject(EVENT_STORE) events: EventStore,
    @Inject(READ_STORE) private readonly reads: ReadStore,
    @Inject(CONFIG) private readonly config: Config,
    @Inject(SNAPSHOT_NAME) name: string,
  ) {
    this.snapshots =
      reads instanceof MemoryReadStore
        ? new ReadModelSnapshots(path.join(config.dataDir, 'readmodels', `${name}.snapshot.json`), events, reads)
        : null;
  }

  async onModuleInit(): Promise<void> {
    const started = performance.now();
    if (this.snapshots) {
      try {
        const restored = await this.snapshots.restore();
        this.logger.log({
          msg: restored.restored ? 'read models restored from snapshot' : 'read models replayed from the start',
          position: String(restored.position ?? -1n),
          reason: restored.reason,
          ms: Math.round(performance.now() - started),
        });
      } catch (err) {
        // A snapshot that cannot be read costs a full replay, never the boot.
        this.logger.warn({ msg: 'read-model snapshot unreadable: replaying the log', err: (err as Error).message });
      }
    }
    await this.projector.start();
    await this.projector.caughtUp();
    this.logger.log({
      msg: 'read models caught up',
      position: String(this.projector.position),
      ms: Math.round(performance.now() - started),
    });
    if (this.snapshots) {
      await this.snapshots.identify().catch(() => undefined);
      this.timer = setInterval(() => void this.snapshot(), SNAPSHOT_EVERY_MS);
      this.timer.unref();
    }
    void this.prune();
    this.pruneTimer = setInterval(() => void this.prune(), PRUNE_EVERY_MS);
    this.pruneTimer.unref();
    // In memory, a charge a call kept for CHARGES_RETENTION_DAYS is bounded by traffic, not by a
    // size: the embedded read model also keeps at most CHARGES_MAX_DOCS (MongoDB keeps them on disk).
    if (this.reads instanceof MemoryReadStore) {
      void this.bound();
      this.boundTimer = setInterval(() => void this.bound(), BOUND_EVERY_MS);
      this.boundTimer.unref();
    }
  }

  /** Drops the oldest charges past CHARGES_MAX_DOCS from the read model (the log and the daily totals keep them). */
  private async bound(): Promise<void> {
    try {
      const dropped = await pruneChargesOver(this.reads, this.config.chargesMaxDocs);
      if (dropped > 0)
        this.logger.log({
          msg: 'oldest charges dropped from the read model',
          dropped,
          kept: this.config.chargesMaxDocs,
        });
    } catch (err) {
      this.logger.warn({ msg: 'charges not bounded', err: (err as Error).message });
    }
  }

  /** Drops charges older than CHARGES_RETENTION_DAYS from the read model (the log keeps them). */
  private async prune(): Promise<void> {
    const cutoff = new Date(Date.now() - this.config.chargesRetentionDays * 86_400_000).toISOString();
    try {
      const dropped = await pruneCharges(this.reads, cutoff);
      if (dropped > 0) this.logger.log({ msg: 'old charges dropped from the read model', dropped, before: cutoff });
    } catch (err) {
      this.logger.warn({ msg: 'charges not pruned', err: (err as Error).message });
    }
  }

  async onApplicationShutdown(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    if (this.pruneTimer) clearInterval(this.pruneTimer);
    if (this.boundTimer) clearInterval(this.boundTimer);
    await this.projector.stop();
    await this.snapshot();
  }

  private async snapshot(): Promise<void> {
    if (!this.snapshots) return;
    try {
      // The checkpoints saved with the docs are at most this far: the tail after it is replayed.
      await this.snapshots.save(this.projector.position);
    } catch (err) {
      this.logger.warn({ msg: 'read-model snapshot not written', err: (err as Error).message });
    }
  }
}

/** Global, so the gateway can wait on the in-process projector when there is one. */
@Global()
@Module({})
export class ProjectionModule {
  /** `name` names this process's read-model snapshot file (`DATA_DIR/readmodels/<name>.snapshot.json`). */
  static forRoot(name = 'standalone'): DynamicModule {
    return {
      module: ProjectionModule,
      providers: [
        { provide: SNAPSHOT_NAME, useValue: name },
        {
          provide: Projector,
          inject: [EVENT_STORE, READ_STORE, RUN_KIND_LIST],
          useFactory: (events: EventStore, reads: ReadStore, kinds: readonly RunKind[]) =>
            new Projector(events, reads, platformProjections(kinds)),
        },
        ProjectorLifecycle,
      ],
      exports: [Projector],
    };
  }
}
