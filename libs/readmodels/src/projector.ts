import { Logger, type LoggerService } from '@nestjs/common';
import type { AllFilter, EventStore, RecordedEvent, Subscription } from '@app/eventstore';
import { isDocumentRefused } from './bson-limits';
import { DEAD_LETTERS, type DeadLetter, deadLetter, deadLetterId } from './dead-letters';
import type { Projection } from './projection';
import { applyEvent, type Handler, handlersFor, ProjectionFailed, unionFilter } from './projection-handlers';
import { applyBatch } from './projection-batch';
import { PositionWaiters, type Waiter } from './position-waiters';
import type { ReadStore } from './read-store.port';
import { deferred } from './deferred';
import type { ProjectorOptions, ProjectorStatus } from './projector-options';

export type { ProjectorOptions, ProjectorStatus } from './projector-options';

/** The step if it is settled within this turn of the event loop, else undefined (it stays pending). */
const readyNow = <T>(step: Promise<T>): Promise<T | undefined> =>
  Promise.race([step, new Promise<undefined>((resolve) => setImmediate(resolve, undefined))]);

/**
 * Follows the log from the projections' checkpoints and keeps their read models up to date.
 *
 * Error policy: any failure (a projection throwing, the read store or the subscription failing) is
 * logged and retried by resubscribing from the last applied position, with backoff: safe because
 * writes are version-guarded, and enough for a read-store blip. After `retries` consecutive
 * failures at one event, each projection that still cannot write it sets it aside: a dead letter
 * (`dead_letters`: the projection, the event and the error), a log line and `onDeadLetter`, and the
 * projection goes on; the others applied it. A document the store refuses (DocumentRefused: a key
 * BSON cannot hold, a document over 16 MB) is set aside at once: the same event makes the same
 * document, so retrying could only hold every other read model back for every team (read-your-writes
 * waits, revocations taking effect late). Only when the dead letter cannot be written either (the
 * store itself is down) does the projector stop: status `failed`, `error` set, `failed` resolves,
 * waiters get false; a restart resumes at that event (checkpoints never pass an event that was
 * neither applied nor set aside).
 */
export class Projector {
  private readonly handlers: Handler[];
  private readonly filter: AllFilter | undefined;
  private readonly prefix: string;
  private readonly batch: number;
  private readonly writeBatch: number;
  private readonly flushMs: number;
  private readonly retries: number;
  private readonly retryDelayMs: number;
  private readonly logger: Pick<LoggerService, 'log' | 'error' | 'warn'>;

  private _position = -1n;
  private _status: ProjectorStatus = 'idle';
  private _error: Error | undefined;
  private caught = deferred<void>();
  private failure = deferred<Error>();
  private readonly waiters = new PositionWaiters();

  private loop: Promise<void> | undefined;
  private subscription: Subscription | undefined;
  private stopping = false;
  /** Bumped by every start: a probe begun in an earlier run must not move `reached`. */
  private epoch = 0;
  private wakeUp: (() => void) | undefined;

  private unsaved = 0;
  private flushTimer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> = Promise.resolve();
  private readonly saved = new Map<string, bigint>();

  private probing = false;
  private reprobe = false;
  private _deadLetters = 0;
  /** The event projections last failed on, and how many times. */
  private failing: { position: bigint; tries: number } | undefined;
  /** Projections that set the event at `position` aside already: a retry of that event skips them. */
  private aside: { position: bigint; handlers: Set<Handler> } | undefined;

  constructor(
    private readonly events: EventStore,
    private readonly store: ReadStore,
    projections: Projection[],
    private readonly options: ProjectorOptions = {},
  ) {
    this.prefix = options.checkpointName ?? 'projector';
    this.batch = options.batch ?? 500;
    this.writeBatch = Math.max(1, options.writeBatch ?? 200);
    this.flushMs = options.flushMs ?? 200;
    this.retries = options.retries ?? 3;
    this.retryDelayMs = options.retryDelayMs ?? 500;
    this.logger = options.logger ?? new Logger('Projector');
    this.handlers = handlersFor(projections, this.prefix);
    this.filter = unionFilter(projections);
  }

  /** Global position of the last event applied (after start: the lowest checkpoint; -1n before any). */
  get position(): bigint {
    return this._position;
  }
  get status(): ProjectorStatus {
    return this._status;
  }
  get error(): Error | undefined {
    return this._error;
  }
  /** Events set aside since this projector was made (one per projection and event). */
  get deadLetters(): number {
    return this._deadLetters;
  }
  /** Resolves with the error when the projector gives up (see the error policy); never otherwise. */
  get failed(): Promise<Error> {
    return this.failure.promise;
  }

  /**
   * Loads the checkpoints (a projection without one, e.g. a new version, gets its collection
   * cleared and replays from the start), then follows the log. Returns once following;
   * `caughtUp()` tells when the backlog is applied.
   */
  async start(): Promise<void> {
    if (this.loop) throw new Error('projector already started');
    if (this.caught.settled) this.caught = deferred();
    if (this.failure.settled) this.failure = deferred();
    this.epoch++;
    this.stopping = false;
    this._error = undefined;
    this._status = 'catching-up';
    // forget the previous run (a rebuild reset the checkpoints): nothing stale may be flushed
    this._position = this.waiters.reached = -1n;
    this.saved.clear();
    try {
      for (const h of this.handlers) {
        for (const field of h.projection.indexes ?? []) await this.store.ensureIndex(h.projection.collection, field);
        const saved = await this.store.getCheckpoint(h.checkpoint);
        if (saved === undefined) await this.store.clear(h.projection.collection);
        h.from = saved ?? -1n;
        this.saved.set(h.checkpoint, h.from);
      }
      this._position = this.waiters.reached = this.handlers.reduce(
        (min, h) => (h.from < min ? h.from : min),
        this.handlers[0]?.from ?? -1n,
      );
      const head = await this.events.headPosition();
      this.addWaiter(head, (ok) => {
        if (ok && this._status === 'catching-up') this._status = 'live';
        if (ok) this.caught.resolve();
      });
    } catch (err) {
      this.fail(err);
      throw err;
    }
    const loop = (this.loop = this.run().finally(() => {
      if (this.loop === loop) this.loop = undefined; // a failed projector may be started again
    }));
  }

  /** Resolves once the backlog present at start is applied; rejects if the projector fails or stops first. */
  caughtUp(): Promise<void> {
    return this.caught.promise;
  }

  /**
   * Resolves true as soon as every event up to `position` that a projection reads is applied
   * (read-your-writes), false after `timeoutMs` or when the projector stops or fails.
   */
  waitFor(position: bigint, timeoutMs: number): Promise<boolean> {
    if (position <= this.waiters.reached) return Promise.resolve(true);
    if (this._status === 'failed' || this._status === 'stopped') return Promise.resolve(false);
    return new Promise((resolve) => {
      // setTimeout fires at once past 2^31-1 ms: clamp a "forever" timeout
      const timer = setTimeout(() => waiter.done(false), Math.min(timeoutMs, 2 ** 31 - 1));
      const waiter = this.addWaiter(position, (ok) => (clearTimeout(timer), resolve(ok)));
    });
  }

  /** Clears every projection's collection and checkpoint, replays the whole log; resolves when caught up. */
  async rebuild(): Promise<void> {
    if (this.loop) await this.stop();
    for (const h of this.handlers) {
      await this.store.clear(h.projection.collection);
      await this.store.setCheckpoint(h.checkpoint, -1n);
    }
    await this.start();
    await this.caughtUp();
  }

  /** Stops following and saves the checkpoints. The stores stay open (the caller owns them). */
  async stop(): Promise<void> {
    this.stopping = true;
    if (this._status !== 'failed') this._status = 'stopped';
    this.wakeUp?.();
    await this.subscription?.close().catch(() => undefined);
    await this.loop;
    await this.flush();
    if (!this.caught.settled) this.caught.reject(new Error('projector stopped before catching up'));
    this.waiters.settleAll(false);
  }

  private async run(): Promise<void> {
    let failures = 0;
    while (!this.stopping) {
      let error: unknown = new Error('subscription ended');
      let sub: Subscription | undefined;
      try {
        sub = this.subscription = this.events.subscribeToAll({
          after: this._position >= 0n ? this._position : undefined,
          filter: this.filter,
        });
        const events = sub[Symbol.asyncIterator]();
        let step = events.next();
        while (!this.stopping) {
          this.whenIdle(step);
          const { done, value: first } = await step;
          if (done || this.stopping) break;
          step = events.next();
          // and what the subscription holds already, without waiting for more: written together
          const batch = [first];
          while (batch.length < this.writeBatch) {
            const ready = await readyNow(step);
            if (!ready || ready.done) break;
            batch.push(ready.value);
            step = events.next();
          }
          const fresh = batch.filter((event) => event.position > this._position); // redelivered after a resubscribe
          if (fresh.length === 0) continue;
          // in order and filtered alike: nothing we read lies between the last event and these
          this.waiters.raise(fresh[0]!.position - 1n);
          const batched = fresh.length > 1 && (await this.applyTogether(fresh));
          for (const event of fresh) {
            if (!batched) await this.applyAlone(event);
            failures = 0;
            this.advance(event.position);
          }
        }
      } catch (err) {
        error = err;
      } finally {
        await sub?.close().catch(() => undefined);
      }
      if (this.stopping) return;
      failures++;
      if (failures > this.retries) return this.fail(error);
      this.logger.warn(
        `projector failed at position ${this._position} (attempt ${failures}/${this.retries}), retrying: ${String(error)}`,
      );
      await this.sleep(this.retryDelayMs * 2 ** (failures - 1));
    }
  }

  /**
   * Several events at once, each document read once and written once (applyBatch): true when all
   * applied. Not while an event of them is being retried or was set aside by some projections, and
   * false on any failure: the caller then applies them one by one, where the error policy lives
   * (what was written here is skipped there by the version guard).
   */
  private async applyTogether(events: RecordedEvent[]): Promise<boolean> {
    const first = events[0]!.position;
    const last = events[events.length - 1]!.position;
    const within = (position: bigint | undefined) => position !== undefined && position >= first && position <= last;
    if (within(this.failing?.position) || within(this.aside?.position)) return false;
    try {
      await applyBatch(this.store, this.handlers, events);
      return true;
    } catch {
      return false;
    }
  }

  /** One event to every projection that reads it, with the error policy (see the class comment). */
  private async applyAlone(event: RecordedEvent): Promise<void> {
    this.waiters.raise(event.position - 1n);
    try {
      await applyEvent(this.store, this.handlersFor(event), event);
    } catch (err) {
      if (!(err instanceof ProjectionFailed)) throw err;
      // A refused document is set aside now; the other failures are retried.
      const refused = err.failures.filter((f) => isDocumentRefused(f.error));
      await this.writeDeadLetters(event, refused);
      const transient = refused.length ? err.failures.filter((f) => !isDocumentRefused(f.error)) : err.failures;
      if (transient.length > 0) {
        const failed = transient === err.failures ? err : new ProjectionFailed(event, transient);
        // Tried `retries` times already: set it aside where it cannot be written.
        const tries = event.position === this.failing?.position ? this.failing.tries + 1 : 1;
        this.failing = { position: event.position, tries };
        if (tries <= this.retries) throw failed;
        await this.setAside(failed);
      }
    }
  }

  /**
   * The projections that still cannot write the event (tried once more, so a store that came back
   * meanwhile is not mistaken for a refusal) set it aside as dead letters. A dead letter that cannot
   * be written (the store is down) throws, and the projector retries and in the end stops.
   */
  private async setAside(failed: ProjectionFailed): Promise<void> {
    const { event } = failed;
    let still: ProjectionFailed | undefined;
    try {
      await applyEvent(this.store, new Set(failed.failures.map((f) => f.handler)), event);
    } catch (err) {
      if (!(err instanceof ProjectionFailed)) throw err;
      still = err;
    }
    await this.writeDeadLetters(event, still?.failures ?? []);
  }

  /** Writes the dead letters of the event's failures (one that cannot be written throws) and remembers them for retries of that event. */
  private async writeDeadLetters(event: RecordedEvent, failures: ProjectionFailed['failures']): Promise<void> {
    for (const { handler, error } of failures) {
      const letter: DeadLetter = deadLetter(handler.projection, event, error);
      await this.store.upsert(DEAD_LETTERS, deadLetterId(letter), { ...letter }, event.position);
      if (this.aside?.position !== event.position) this.aside = { position: event.position, handlers: new Set() };
      this.aside.handlers.add(handler);
      this._deadLetters++;
      this.logger.error(
        `projection ${letter.projection} cannot write event ${event.id} (${event.type}, position ${letter.position}): set aside in ${DEAD_LETTERS}: ${letter.error}`,
      );
      this.options.onDeadLetter?.(letter);
    }
  }

  /** The handlers an event goes to: all, less those that set it aside already (when it is retried for others). */
  private handlersFor(event: RecordedEvent): Handler[] {
    const aside = this.aside;
    return aside?.position === event.position ? this.handlers.filter((h) => !aside.handlers.has(h)) : this.handlers;
  }

  private advance(position: bigint): void {
    this._position = position;
    this.waiters.raise(position);
    if (++this.unsaved >= this.batch) void this.flush();
    else this.flushTimer ??= setTimeout(() => void this.flush(), this.flushMs).unref();
  }

  /** Saves each projection's checkpoint (the applied position, or its own if ahead); serialized. */
  private flush(): Promise<void> {
    clearTimeout(this.flushTimer);
    this.flushTimer = undefined;
    this.unsaved = 0;
    const position = this._position;
    this.flushing = this.flushing.then(async () => {
      const targets = new Map<string, bigint>();
      for (const h of this.handlers) {
        const target = position > h.from ? position : h.from;
        const saved = this.saved.get(h.checkpoint);
        if (saved === undefined || saved === target) continue; // not loaded (never started) or unchanged
        targets.set(h.checkpoint, target);
      }
      if (targets.size === 0) return;
      try {
        // one round trip for all of them: readers poll these (a gateway over MongoDB waits on them)
        await this.store.setCheckpoints(targets);
        for (const [name, target] of targets) this.saved.set(name, target);
      } catch (err) {
        // the next flush retries; a dead store also fails the event loop, which owns the policy
        this.logger.error(`saving checkpoints ${[...targets.keys()].join(', ')} failed: ${String(err)}`);
      }
    });
    return this.flushing;
  }

  /**
   * With a filtered subscription, events the projections do not read are never delivered, so a
   * waiter on such a position (or the catch-up target, the head) may never be passed by a
   * delivered event. The probe asks the log for the first relevant event after `position`:
   * nothing relevant lies before it (or up to the head, if none), so `reached` may jump there.
   * Run only when a waiter registers or the subscription goes idle with waiters pending (never
   * per event during a busy catch-up, when delivered events already move `reached`); coalesced.
   */
  private probe(): void {
    if (!this.filter) return;
    if (this.probing) {
      this.reprobe = true;
      return;
    }
    this.probing = true;
    void (async () => {
      try {
        do {
          this.reprobe = false;
          const epoch = this.epoch;
          const from = this._position;
          const head = await this.events.headPosition(); // before readAll: anything later is beyond head
          const [next] = await this.events.readAll({
            after: from >= 0n ? from : undefined,
            filter: this.filter,
            maxCount: 1,
          });
          // a probe begun before a restart/rebuild must not move the new run's `reached`
          if (epoch === this.epoch) this.waiters.raise(next && next.position - 1n < head ? next.position - 1n : head);
        } while (this.reprobe && this.waiters.size);
      } catch (err) {
        this.logger.warn(`projector probe failed: ${String(err)}`);
      } finally {
        this.probing = false;
      }
    })();
  }

  /** Waits for `position` (see PositionWaiters); one not reached yet may be reached already: probe. */
  private addWaiter(position: bigint, done: (reached: boolean) => void): Waiter {
    const waiter = this.waiters.add(position, done);
    if (position > this.waiters.reached) this.probe();
    return waiter;
  }

  /**
   * The subscription's next event is not ready within this turn: it is idle. Saves the checkpoints
   * now rather than at the flush timer (readers in other processes wait on them: a gateway over
   * MongoDB answers a command once they pass its position), and probes for waiters.
   */
  private whenIdle(step: Promise<unknown>): void {
    let ready = false;
    step.then(
      () => (ready = true),
      () => (ready = true),
    );
    setImmediate(() => {
      if (ready) return;
      if (this.unsaved > 0) void this.flush();
      if (this.filter && this.waiters.size) this.probe();
    });
  }

  private fail(err: unknown): void {
    const error = err instanceof Error ? err : new Error(String(err));
    this._status = 'failed';
    this._error = error;
    this.logger.error(`projector stopped at position ${this._position}: ${error.stack ?? error.message}`);
    if (!this.caught.settled) this.caught.reject(error);
    this.failure.resolve(error);
    this.waiters.settleAll(false);
    void this.flush();
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => ((this.wakeUp = undefined), resolve()), ms);
      this.wakeUp = () => (clearTimeout(timer), (this.wakeUp = undefined), resolve());
    });
  }
}
