import { Logger } from '@nestjs/common';
import {
  BudgetExhausted,
  DomainError,
  PaymentRequired,
  type RecordedCommand,
  type RunKind,
  type StateOf,
  streamOf,
} from '@app/domain';
import { type EventStore, handleCommand } from '@app/eventstore';
import { chargesWithinKeyBudget, keyRoom } from './key-budget-spend';
import { type RunInfo, RunRegistry } from './run-registry';
import { foreground } from './foreground';
import { planTick } from './scheduling';

/**
 * Lets the event loop's waiting I/O (requests, replies) in before a run's next step. A run that
 * works from caches (pages, answers) and an in-process bus awaits only promises that are already
 * settled: without this, a burst of such runs (a task group's) holds every request until it ends.
 */
const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

/** The longest a task group's run waits before a step while foreground work is held (foreground.ts). */
const BACKGROUND_WAIT_MS = 1_000;

/** Why a run's work stops before its end: a cancel, a lost lease, or this process draining. */
/** A command of a run kind: the shared lifecycle's, or a progress fact its executor records. */
type KindCommand = Parameters<RunKind['decider']['decide']>[0];

export type StopReason = 'cancel' | 'lease-lost' | 'shutdown';

/** What an executor gets for one run it works. */
export interface RunContext<State, Command = { type: string }> {
  runId: string;
  /** The run's state as folded when this worker took it (params, progress so far). */
  state: State;
  workerId: string;
  resumed: boolean;
  /** Appends one of the kind's progress commands (the worker id is filled in); a refusal throws. */
  record(command: Command): Promise<void>;
  /** As `record`, and says what was appended at which revisions of the run's stream (nothing: recorded already). */
  recordFacts(command: Command): Promise<RecordedFacts>;
  /** True once the work should stop (checked between steps). */
  stopped(): boolean;
  /** Aborted at the same moment, for calls that can be cut. */
  signal: AbortSignal;
}

/** The events a `record` appended to the run's stream, with their revisions. */
export interface RecordedFacts {
  events: { type: string; revision: bigint }[];
}

/**
 * One kind's work: record progress facts until the run can complete, then return. Returning
 * early (stopped) is fine; throwing fails the run unless it was stopped.
 */
export interface RunExecutor<K extends RunKind = RunKind> {
  kind: K;
  execute(run: RunContext<StateOf<K>, RecordedCommand<K>>): Promise<void>;
}

export interface RunWorkerOptions {
  workerId: string;
  leaseSeconds: number;
  maxConcurrentRunsPerTeam: number;
  /** Runs this process works at once. */
  maxLocalRuns?: number;
  tickMs?: number;
  /** On shutdown, how long runs get to reach a step boundary before their leases are handed back anyway. */
  drainMs?: number;
  /** This replica's wall clock (epoch ms); tests give one that runs ahead of another replica's. */
  clock?: () => number;
}

interface Active {
  info: RunInfo;
  stop: StopReason | null;
  abort: AbortController;
  heartbeat: NodeJS.Timeout;
  done: Promise<void>;
}

/**
 * The run worker of every kind (DESIGN.md 3b). It follows the unfinished runs in the log and, on
 * every tick: takes over runs whose lease lapsed or was handed back (resume from their events),
 * confirms cancels for workers that died, and starts queued runs in request order while their
 * team holds fewer than MAX_CONCURRENT_RUNS_PER_TEAM runs of any kind. Starting is an append at
 * the revision read, so among replicas one wins. Recording a fact twice decides nothing, so a
 * resumed run appends only what is new. On shutdown it stops its runs between steps and hands
 * their leases back (a `*Released` fact), so another replica resumes them at once.
 */
export class RunWorker {
  private readonly logger = new Logger('RunWorker');
  private readonly registry: RunRegistry;
  private readonly executors = new Map<RunKind, RunExecutor>();
  private readonly active = new Map<string, Active>();
  private timer: NodeJS.Timeout | undefined;
  private ticking = false;
  private stopping = false;
  private readonly maxLocalRuns: number;
  private readonly tickMs: number;
  private readonly drainMs: number;

  constructor(
    private readonly store: EventStore,
    /** Every run kind in the system: the per-team limit counts them all. */
    kinds: readonly RunKind[],
    executors: readonly RunExecutor[],
    private readonly options: RunWorkerOptions,
  ) {
    for (const executor of executors) this.executors.set(executor.kind, executor);
    this.maxLocalRuns = options.maxLocalRuns ?? 8;
    this.tickMs = options.tickMs ?? 250;
    this.drainMs = options.drainMs ?? 3_000;
    this.registry = new RunRegistry(
      store,
      kinds,
      (run, event, stream) => {
        // A cancel (requested, or already final) stops the work before its next step.
        const active = this.active.get(stream);
        if (active && (run?.cancel_requested || event.type === `${active.info.kind.prefix}Cancelled`))
          this.halt(active, 'cancel');
        this.kick();
      },
      (error) =>
        this.logger.warn({
          msg: 'run log subscription dropped; resubscribing',
          worker_id: this.workerId,
          err: errorText(error),
        }),
    );
  }

  private wallClock(): number {
    return this.options.clock ? this.options.clock() : Date.now();
  }

  get workerId(): string {
    return this.options.workerId;
  }

  /** Runs this process is working now (stream names). */
  get working(): string[] {
    return [...this.active.keys()];
  }

  async start(): Promise<void> {
    await this.registry.start();
    this.timer = setInterval(() => this.kick(), this.tickMs);
    this.timer.unref();
    this.kick();
  }

  /** Drain: take no new run, stop the runs between steps, hand their leases back. */
  async stop(): Promise<void> {
    if (this.stopping) return;
    this.stopping = true;
    clearInterval(this.timer);
    this.queuedHold?.();
    const running = [...this.active.values()];
    for (const active of running) this.halt(active, 'shutdown');
    const drained = Promise.allSettled(running.map((active) => active.done));
    let bound: NodeJS.Timeout | undefined;
    await Promise.race([drained, new Promise((resolve) => (bound = setTimeout(resolve, this.drainMs)))]);
    clearTimeout(bound);
    // Runs still inside a long step are handed back now; their late records are refused.
    await Promise.all(
      running.filter((active) => this.active.has(active.info.stream)).map((active) => this.release(active.info)),
    );
    await this.registry.stop();
  }

  private halt(active: Active, reason: StopReason): void {
    if (active.stop !== null) return;
    active.stop = reason;
    active.abort.abort();
  }

  private kick(): void {
    if (this.ticking || this.stopping) return;
    this.ticking = true;
    this.tick()
      .catch((error: unknown) =>
        this.logger.error({ msg: 'run scheduling failed', worker_id: this.workerId, err: errorText(error) }),
      )
      .finally(() => (this.ticking = false));
  }

  /** Held while a run asked for one by one waits in this worker's queue (released once none does). */
  private queuedHold: (() => void) | undefined;

  private async tick(): Promise<void> {
    const waiting = [...this.registry.runs.values()].some(
      (run) => run.status === 'queued' && !run.in_group && this.executors.has(run.kind),
    );
    if (waiting && !this.queuedHold) this.queuedHold = foreground.hold();
    else if (!waiting && this.queuedHold) {
      this.queuedHold();
      this.queuedHold = undefined;
    }
    const actions = planTick({
      runs: [...this.registry.runs.values()],
      now: this.wallClock(),
      monotonicNow: performance.now(),
      leaseMs: this.options.leaseSeconds * 1000,
      active: new Set(this.active.keys()),
      works: (kind) => this.executors.has(kind),
      maxLocalRuns: this.maxLocalRuns,
      maxConcurrentRunsPerTeam: this.options.maxConcurrentRunsPerTeam,
    });
    for (const { type, run } of actions) {
      if (this.stopping) return;
      // Its worker died or handed it back: a cancelled run only needs confirming, any other is resumed here.
      if (type === 'confirm-cancel')
        await this.command(run, { type: 'ConfirmCancelled' }).catch((error) =>
          this.refused(run, 'confirm cancel', error),
        );
      else await this.take(run, type === 'resume');
    }
  }

  /** Starts (or takes over) a run; false when another worker got it first. */
  private async take(run: RunInfo, takeover: boolean): Promise<boolean> {
    let state: unknown;
    try {
      const result = await this.command(run, {
        type: 'StartRun',
        worker_id: this.workerId,
        lease_seconds: this.options.leaseSeconds,
        takeover,
      });
      if (result.events.length === 0) return false;
      state = result.state;
    } catch (error) {
      if (error instanceof DomainError) return false;
      throw error;
    }
    this.logger.log({
      msg: takeover ? 'run taken over' : 'run started',
      kind: run.kind.name,
      run_id: run.run_id,
      worker_id: this.workerId,
    });
    const active: Active = {
      info: run,
      stop: null,
      abort: new AbortController(),
      heartbeat: setInterval(() => void this.heartbeat(active), (this.options.leaseSeconds * 1000) / 3),
      done: Promise.resolve(),
    };
    this.active.set(run.stream, active);
    if (run.cancel_requested) this.halt(active, 'cancel');
    // A run asked for one by one is foreground work: group runs step aside while it works.
    const release = run.in_group ? undefined : foreground.hold();
    active.done = this.execute(active, state, takeover).finally(() => {
      release?.();
      clearInterval(active.heartbeat);
      this.active.delete(run.stream);
      this.kick();
    });
    return true;
  }

  private async heartbeat(active: Active): Promise<void> {
    try {
      await this.command(active.info, {
        type: 'Heartbeat',
        worker_id: this.workerId,
        lease_seconds: this.options.leaseSeconds,
      });
    } catch (error) {
      if (error instanceof DomainError) this.halt(active, 'lease-lost');
      else
        this.logger.warn({
          msg: 'heartbeat failed',
          kind: active.info.kind.name,
          run_id: active.info.run_id,
          err: errorText(error),
        });
    }
  }

  private command(run: RunInfo, command: KindCommand) {
    const now = () => new Date(this.wallClock()).toISOString();
    const spendCharges = chargesWithinKeyBudget(
      this.store,
      { id: run.run_id, team_id: run.team_id, key_id: run.key_id },
      now,
    );
    return handleCommand(this.store, streamOf(run.kind, run.run_id), run.kind.decider, command, {
      now,
      metadata: { correlation_id: run.run_id, causation_id: this.workerId },
      // A step its key cannot pay for is refused like one past the run's own budget: the run ends with what it has.
      beforeAppend: async (decided, state, expected) => {
        try {
          return await spendCharges(decided, state, expected);
        } catch (error) {
          throw error instanceof PaymentRequired ? new BudgetExhausted(error.message) : error;
        }
      },
    });
  }

  /** Credits the run's key may still spend in its period (undefined: the key has no budget). */
  private async keyRoom(run: RunInfo): Promise<number | undefined> {
    return (await keyRoom(this.store, run.team_id, run.key_id, new Date(this.wallClock()).toISOString()))?.room;
  }

  /**
   * Completes a run, its charge cut to what its key may still spend: another call of the same key
   * can spend it meanwhile, so a completion refused for the key's budget reads it again (at worst
   * the run is charged nothing more and ends `budget_exhausted`).
   */
  private async complete(run: RunInfo, termination_reason?: 'budget_exhausted'): Promise<void> {
    const worker_id = this.workerId;
    for (let attempt = 1; ; attempt++) {
      const credit_limit = await this.keyRoom(run);
      try {
        await this.command(run, {
          type: 'CompleteRun',
          worker_id,
          ...(termination_reason && { termination_reason }),
          ...(credit_limit !== undefined && { credit_limit }),
        });
        return;
      } catch (error) {
        if (!(error instanceof BudgetExhausted) || attempt >= 5) throw error;
      }
    }
  }

  private async release(run: RunInfo): Promise<void> {
    try {
      await this.command(run, { type: 'ReleaseRun', worker_id: this.workerId });
      this.logger.log({ msg: 'run handed back', kind: run.kind.name, run_id: run.run_id, worker_id: this.workerId });
    } catch (error) {
      this.refused(run, 'hand back', error);
    }
  }

  /** An append that did not go through: logged with the run, never swallowed. */
  private refused(run: RunInfo, what: string, error: unknown): void {
    this.logger.warn({
      msg: `could not ${what}`,
      kind: run.kind.name,
      run_id: run.run_id,
      worker_id: this.workerId,
      err: errorText(error),
    });
  }

  /**
   * Before a run's step: the event loop's waiting I/O goes first; a task group's run also waits
   * while foreground work is held (up to BACKGROUND_WAIT_MS), so requests and single runs are not
   * slowed by a group of thousands working from caches.
   */
  private async beforeStep(run: RunInfo): Promise<void> {
    if (run.in_group) await foreground.idle(BACKGROUND_WAIT_MS);
    await yieldToEventLoop();
  }

  private async execute(active: Active, state: unknown, resumed: boolean): Promise<void> {
    const run = active.info;
    const executor = this.executors.get(run.kind)!;
    const worker_id = this.workerId;
    const context: RunContext<StateOf<RunKind>, RecordedCommand<RunKind>> = {
      runId: run.run_id,
      state: state as StateOf<RunKind>,
      workerId: worker_id,
      resumed,
      record: async (command) => {
        await this.beforeStep(run);
        await this.command(run, { ...command, worker_id });
      },
      recordFacts: async (command) => {
        await this.beforeStep(run);
        const result = await this.command(run, { ...command, worker_id });
        return { events: result.events.map((event) => ({ type: event.type, revision: event.revision })) };
      },
      stopped: () => active.stop !== null,
      signal: active.abort.signal,
    };
    try {
      if (active.stop === null) await executor.execute(context);
      await this.finish(active);
    } catch (error) {
      if (active.stop !== null) {
        // Stopped for a reason that is not a failure: the error is the stop showing through a step.
        this.logger.log({
          msg: 'run stopped',
          reason: active.stop,
          kind: run.kind.name,
          run_id: run.run_id,
          err: errorText(error),
        });
        await this.finish(active);
        return;
      }
      if (error instanceof BudgetExhausted) {
        // A step would have passed the run's budget: it ends with what it has.
        this.logger.log({
          msg: 'run budget exhausted',
          kind: run.kind.name,
          run_id: run.run_id,
          err: errorText(error),
        });
        await this.complete(run, 'budget_exhausted').catch((failure) =>
          this.refused(run, 'complete on its budget', failure),
        );
        return;
      }
      const reason = errorText(error);
      this.logger.error({ msg: 'run failed', kind: run.kind.name, run_id: run.run_id, worker_id, err: reason });
      await this.command(run, { type: 'FailRun', worker_id, error: `${run.kind.name} run failed: ${reason}` }).catch(
        (failure) => this.refused(run, 'record the failure', failure),
      );
    }
  }

  /** The end of this worker's part: complete, confirm a cancel, or hand the run back. */
  private async finish(active: Active): Promise<void> {
    const run = active.info;
    const worker_id = this.workerId;
    switch (active.stop) {
      case null:
        await this.complete(run);
        this.logger.log({ msg: 'run completed', kind: run.kind.name, run_id: run.run_id });
        return;
      case 'cancel':
        await this.command(run, { type: 'ConfirmCancelled', worker_id }).catch((error) =>
          this.refused(run, 'confirm cancel', error),
        );
        return;
      case 'shutdown':
        await this.release(run);
        return;
      case 'lease-lost':
        this.logger.warn({
          msg: 'run lease lost; another worker has it',
          kind: run.kind.name,
          run_id: run.run_id,
          worker_id,
        });
        return;
    }
  }
}

const errorText = (error: unknown): string => (error instanceof Error ? error.message : String(error));
