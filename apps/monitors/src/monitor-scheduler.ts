import { randomUUID } from 'node:crypto';
import {
  type BeforeApplicationShutdown,
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
} from '@nestjs/common';
import { SchedulerRegistry } from '@nestjs/schedule';
import { CONFIG, type Config } from '@app/config';
import {
  Conflict,
  MONITOR_STREAM_PREFIX,
  type MonitorCommand,
  monitorDecider,
  type MonitorState,
  monitorStream,
  nextSlot,
  describeBudget,
  PaymentRequired,
} from '@app/domain';
import {
  aggregateStream,
  EVENT_STORE,
  type EventStore,
  type Follower,
  followAll,
  handleCommand,
  type RecordedEvent,
  toDomainEvent,
} from '@app/eventstore';
import { MonitorClock } from './monitor-clock';
import { chargesWithinKeyBudget, keyRoom } from '@app/runs';
import { failedRun, MonitorRunner } from './monitor-runner';

const TICK = 'monitor-due-check';

/**
 * The monitors service's scheduler. It folds every monitor from the log (each replica its own
 * copy) and, on each tick of @nestjs/schedule, for every active monitor whose next slot is due on
 * the injectable clock, appends MonitorRunStarted at the revision it read: among replicas one
 * wins each slot, the others' retry finds the slot covered and decides nothing. A run whose
 * worker stopped is taken over once its lease lapses. The winner runs it and records the event.
 */
@Injectable()
export class MonitorScheduler implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('MonitorScheduler');
  readonly workerId = `monitors-${process.pid}-${randomUUID().slice(0, 8)}`;
  private readonly monitors = new Map<string, MonitorState>();
  /** Runs this process is executing (by event id). */
  private readonly executing = new Set<string>();
  private follower: Follower | undefined;
  private ticking = false;
  private stopping = false;

  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(CONFIG) private readonly config: Config,
    private readonly clock: MonitorClock,
    private readonly runner: MonitorRunner,
    private readonly schedules: SchedulerRegistry,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const filter = { streamPrefixes: [MONITOR_STREAM_PREFIX] };
    let after: bigint | undefined;
    for (;;) {
      const batch = await this.store.readAll({ after, maxCount: 1_000, filter });
      for (const event of batch) this.apply(event);
      if (batch.length > 0) after = batch[batch.length - 1]!.position;
      if (batch.length < 1_000) break;
    }
    // Taken up again from the last event applied whenever the subscription drops.
    this.follower = followAll(this.store, (event) => this.apply(event), {
      after,
      filter,
      onDrop: (error) =>
        this.logger.warn({
          msg: 'monitor log subscription dropped; resubscribing',
          worker_id: this.workerId,
          err: String(error),
        }),
    });
    const timer = setInterval(() => this.kick(), this.config.monitorTickMs);
    timer.unref();
    this.schedules.addInterval(TICK, timer);
    this.kick();
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.stopping = true;
    if (this.schedules.doesExist('interval', TICK)) this.schedules.deleteInterval(TICK);
    await this.follower?.stop();
  }

  /** A monitor's state as this replica has folded it. */
  state(monitorId: string): MonitorState | undefined {
    return this.monitors.get(monitorId);
  }

  /** Checks at once (after a manual run was started here, or a change). */
  kick(): void {
    if (this.ticking || this.stopping) return;
    this.ticking = true;
    this.tick()
      .catch((error: unknown) =>
        this.logger.error({ msg: 'monitor due check failed', worker_id: this.workerId, err: (error as Error).message }),
      )
      .finally(() => (this.ticking = false));
  }

  private apply(recorded: RecordedEvent): void {
    const id = recorded.stream.slice(MONITOR_STREAM_PREFIX.length);
    const event = toDomainEvent(recorded, monitorDecider);
    const next = monitorDecider.evolve(this.monitors.get(id) ?? monitorDecider.initialState, event);
    this.monitors.set(id, next);
    if (event.type === 'MonitorRunStarted' || event.type === 'MonitorRunTakenOver') this.kick();
  }

  private async tick(): Promise<void> {
    const now = this.clock.now();
    // Scheduled runs of a team at once, whichever replica holds them (every replica folds every
    // monitor): past MAX_CONCURRENT_RUNS_PER_TEAM a due monitor waits for a later tick (its slots
    // are not lost: the run that starts covers them).
    const running = new Map<string, number>();
    for (const monitor of this.monitors.values()) {
      if (monitor.status !== 'absent' && monitor.status !== 'deleted' && monitor.running)
        running.set(monitor.team_id, (running.get(monitor.team_id) ?? 0) + 1);
    }
    for (const [id, monitor] of this.monitors) {
      if (this.stopping) return;
      if (monitor.status === 'absent' || monitor.status === 'deleted') continue;
      const run = monitor.running;
      if (run) {
        if (this.executing.has(run.event_id)) continue;
        if (run.worker_id === this.workerId) {
          this.execute(id, run.event_id);
          continue;
        }
        if (Date.parse(now) >= Date.parse(run.lease_until))
          await this.command(
            id,
            { type: 'TakeOverRun', worker_id: this.workerId, lease_seconds: this.leaseSeconds },
            now,
          ).catch((e) => this.refused(id, 'take over', e));
        continue;
      }
      if (monitor.status !== 'active') continue;
      const due = nextSlot(
        { cadence: monitor.settings.cadence, cron: monitor.settings.cron, anchor: monitor.created_at },
        monitor.scheduled_through,
      );
      if (Date.parse(due) > Date.parse(now)) continue;
      if ((running.get(monitor.team_id) ?? 0) >= this.config.maxConcurrentRunsPerTeam) continue;
      running.set(monitor.team_id, (running.get(monitor.team_id) ?? 0) + 1);
      const result = await this.command(
        id,
        {
          type: 'StartScheduledRun',
          event_id: `mev_${randomUUID()}`,
          worker_id: this.workerId,
          lease_seconds: this.leaseSeconds,
        },
        now,
      ).catch((e) => {
        this.refused(id, 'start a scheduled run', e);
        return undefined;
      });
      const started = result?.events.find((e) => e.type === 'MonitorRunStarted');
      if (started) this.execute(id, (started.data as { event_id: string }).event_id);
    }
  }

  /** A run's lease (RUN_LEASE_SECONDS): another replica takes over a run whose worker stopped this long ago. */
  get leaseSeconds(): number {
    return this.config.runLeaseSeconds;
  }

  /** The scheduler's time (the injectable clock): every monitor command is decided at it. */
  now(): string {
    return this.clock.now();
  }

  command(
    monitorId: string,
    command: MonitorCommand,
    now = this.clock.now(),
    caller: Record<string, string | undefined> = {},
    /** Whose key's budget what it charges counts against (a run's record). */
    payer?: { id: string; team_id: string; key_id: string },
  ) {
    const metadata = {
      correlation_id: monitorId,
      causation_id: this.workerId,
      team_id: caller.team_id,
      key_id: caller.key_id,
      request_id: caller.request_id,
    };
    return handleCommand(this.store, monitorStream(monitorId), monitorDecider, command, {
      now,
      metadata,
      ...(payer && { beforeAppend: chargesWithinKeyBudget(this.store, payer, () => now) }),
    });
  }

  /** Runs a started run of this worker and records its event (once, whoever asks). */
  private execute(monitorId: string, eventId: string): void {
    if (this.executing.has(eventId)) return;
    this.executing.add(eventId);
    void (async () => {
      try {
        // Re-read from the log: the run may have been taken over since this replica folded it.
        const { state } = await aggregateStream(this.store, monitorStream(monitorId), monitorDecider);
        if (
          state.status === 'absent' ||
          state.running?.event_id !== eventId ||
          state.running.worker_id !== this.workerId
        )
          return;
        const slots = state.running.slots_covered;
        const ranAt = this.clock.now();
        // The key that made the monitor pays for its runs: once its budget is spent, a run does no
        // work and is an error event saying so (charged nothing).
        const refused = (detail: string) => ({ event: failedRun(state, eventId, slots, ranAt, detail), renders: 0 });
        const left = await keyRoom(this.store, state.team_id, state.key_id, ranAt);
        const outcome =
          left && left.room < 1
            ? refused(describeBudget(left.budget, left.spent, ranAt))
            : await this.runner.run(state, eventId, slots, ranAt);
        const record = ({ event, renders }: typeof outcome) =>
          this.command(
            monitorId,
            { type: 'RecordMonitorEvent', worker_id: this.workerId, event, ...(renders > 0 && { renders }) },
            undefined,
            {},
            { id: monitorId, team_id: state.team_id, key_id: state.key_id },
          );
        const { event } = await record(outcome).then(
          () => outcome,
          async (error: unknown) => {
            // Another call of the key spent what was left meanwhile: the run is recorded refused.
            if (!(error instanceof PaymentRequired)) throw error;
            const instead = refused(error.message);
            await record(instead);
            return instead;
          },
        );
        this.logger.log({
          msg: 'monitor ran',
          monitor_id: monitorId,
          event_id: eventId,
          status: event.status,
          slots_covered: event.slots_covered,
        });
      } catch (error) {
        this.refused(monitorId, `record run ${eventId}`, error);
      } finally {
        this.executing.delete(eventId);
      }
    })();
  }

  private refused(monitorId: string, what: string, error: unknown): void {
    // A conflict another replica won is expected; anything else is logged with the monitor.
    const level = error instanceof Conflict ? 'debug' : 'warn';
    this.logger[level]({
      msg: `could not ${what}`,
      monitor_id: monitorId,
      worker_id: this.workerId,
      err: (error as Error).message,
    });
  }
}
