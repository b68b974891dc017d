/**
 * TEST DOUBLE, not a server: a hand-written, scripted stand-in for the parts of
 * @eventstore/db-client's EventStoreDBClient (6.x) that EsdbEventStore uses. No EventStoreDB server
 * can run on this machine, so the adapter's own logic (paging and filtering of $all, error and
 * position mapping, closing) is unit-tested against this fake; what a real server does is the
 * shared contract suite's job (esdb.event-store.spec.ts, run when ESDB_TEST_URL is set).
 *
 * It returns what the client returns (resolved events, append results, Readables with cancel /
 * unsubscribe) for a log held in memory, and plays a server's behaviour only where a test scripts
 * it: how a filtered subscription ends its catch-up (quiet, a checkpoint, or caughtUp), positions
 * missing from stream reads, append errors.
 */
import { Readable } from 'node:stream';
import {
  type AllStreamResolvedEvent,
  type AppendResult,
  type EventStoreDBClient,
  type Position,
  StreamNotFoundError,
} from '@eventstore/db-client';

type Recorded = NonNullable<AllStreamResolvedEvent['event']>;

/** The client's `ReadStream` / `Subscription` are object-mode Readables; this is enough of both. */
class ScriptedReadable<T> extends Readable {
  cancelled = false;

  constructor() {
    super({ objectMode: true, read: () => undefined });
  }

  /** grpc-js ends the stream once a cancelled call's status arrives (the error is swallowed). */
  private end(): Promise<void> {
    this.cancelled = true;
    return new Promise((resolve) =>
      setImmediate(() => {
        if (!this.destroyed && !this.readableEnded) this.push(null);
        resolve();
      }),
    );
  }

  cancel = () => this.end();
  unsubscribe = () => this.end();

  declare [Symbol.asyncIterator]: () => AsyncIterableIterator<T>;
}

/**
 * How a catch-up subscription to $all behaves once it has sent the stored events that pass its
 * filter (those up to `deliverUpTo`, default all): `quiet` is a server before 23.10 that says
 * nothing more, `checkpoint` one that reports a checkpoint at the end of the log, `caughtUp` 23.10+.
 */
export interface SubscriptionScript {
  deliverUpTo?: bigint;
  then: 'quiet' | 'checkpoint' | 'caughtUp';
}

const U64_MAX = 2n ** 64n - 1n;

export class ScriptedEsdbClient {
  /** $all, in order. */
  readonly log: Recorded[] = [];
  subscriptionScript: SubscriptionScript = { then: 'caughtUp' };
  /** Stream reads from servers before 22.6 carry no position: the client reads the unset field as 0, -1 as 2^64-1. */
  streamReadPositions: 'present' | 'unset' | 'minus-one' = 'present';
  /** Thrown by the next appends, if set. */
  appendError: unknown;
  /** Whether an append result carries a position (a repeated, idempotent append may not). */
  reportAppendPosition = true;

  readonly subscriptions: ScriptedReadable<AllStreamResolvedEvent>[] = [];
  /** Every event a readAll streamed to the adapter (what an unfiltered scan costs). */
  streamed = 0;
  disposed = false;
  private nextPosition = 1_000n;

  /** The adapter takes an EventStoreDBClient: this is one as far as the adapter can tell. */
  asClient(): EventStoreDBClient {
    return this as unknown as EventStoreDBClient;
  }

  /** Stores an event as the server would (a position and the stream's next revision). */
  add(stream: string, type = 'Happened', data: Record<string, unknown> = {}): Recorded {
    const revision = BigInt(this.log.filter((e) => e.streamId === stream).length);
    const position = this.nextPosition;
    this.nextPosition += 100n;
    const event = {
      streamId: stream,
      id: `00000000-0000-4000-8000-${position.toString().padStart(12, '0')}`,
      revision,
      type,
      data,
      metadata: undefined,
      isJson: true,
      created: new Date(0),
      position: { commit: position, prepare: position },
    } as unknown as Recorded;
    this.log.push(event);
    return event;
  }

  async appendToStream(
    stream: string,
    events: ReadonlyArray<{ id: string; type: string; data: unknown }>,
  ): Promise<AppendResult> {
    if (this.appendError) throw this.appendError;
    let last: Recorded | undefined;
    for (const event of events) {
      last = this.add(stream, event.type, event.data as Record<string, unknown>);
      (last as { id: string }).id = event.id;
    }
    return {
      success: true,
      nextExpectedRevision: last?.revision ?? -1n,
      position: this.reportAppendPosition && last ? last.position : undefined,
    };
  }

  readAll(options: { fromPosition?: Position | 'start' | 'end'; direction?: string; maxCount?: number } = {}) {
    const from = options.fromPosition ?? 'start';
    const backwards = options.direction === 'backwards';
    const events = backwards ? [...this.log].reverse() : this.log;
    const selected = events.filter(
      (e) =>
        typeof from === 'string'
          ? true
          : backwards
            ? e.position.commit <= from.commit
            : e.position.commit >= from.commit, // reads are inclusive
    );
    return this.stream(selected.slice(0, options.maxCount ?? selected.length), (event) => {
      this.streamed++;
      return { event, commitPosition: event.position.commit };
    });
  }

  readStream(
    stream: string,
    options: { direction?: string; fromRevision?: bigint | 'start' | 'end'; maxCount?: number },
  ) {
    const backwards = options.direction === 'backwards';
    let events = this.log.filter((e) => e.streamId === stream);
    if (backwards) events = events.reverse();
    const from = options.fromRevision;
    if (typeof from === 'bigint') events = events.filter((e) => (backwards ? e.revision <= from : e.revision >= from));
    // The client reports an absent stream while iterating, as a StreamNotFoundError.
    const absent = this.log.some((e) => e.streamId === stream) ? undefined : new StreamNotFoundError(undefined, stream);
    return this.stream(
      events.slice(0, options.maxCount ?? events.length),
      (event) => ({ event: { ...event, position: this.streamReadPosition(event) } }),
      absent,
    );
  }

  subscribeToAll(options: {
    fromPosition?: Position | 'start' | 'end';
    filter?: {
      filterOn?: string;
      prefixes?: string[];
      regex?: string;
      checkpointReached?: (subscription: unknown, position: Position) => Promise<void> | void;
    };
  }) {
    const from = options.fromPosition;
    const filter = options.filter;
    const script = this.subscriptionScript;
    const passes = (e: Recorded) => {
      if (!filter) return true;
      const value = filter.filterOn === 'eventType' ? e.type : e.streamId;
      if (filter.regex) return new RegExp(filter.regex).test(value);
      return (filter.prefixes ?? []).some((prefix) => value.startsWith(prefix));
    };
    const subscription = new ScriptedReadable<AllStreamResolvedEvent>();
    this.subscriptions.push(subscription);
    const stored = this.log.filter(
      (e) =>
        (from === undefined || typeof from === 'string' || e.position.commit > from.commit) && // exclusive
        (script.deliverUpTo === undefined || e.position.commit <= script.deliverUpTo),
    );
    void (async () => {
      for (const event of stored) {
        await new Promise((resolve) => setImmediate(resolve));
        if (subscription.cancelled) return;
        if (passes(event)) subscription.push({ event, commitPosition: event.position.commit });
      }
      await new Promise((resolve) => setImmediate(resolve));
      if (subscription.cancelled) return;
      const end = this.log[this.log.length - 1]?.position ?? { commit: 0n, prepare: 0n };
      // As the client does: the checkpoint callback runs in order with the events, `this` the subscription.
      if (script.then === 'checkpoint') await filter?.checkpointReached?.call(subscription, subscription, end);
      if (script.then === 'caughtUp') subscription.emit('caughtUp');
    })();
    return subscription;
  }

  async dispose(): Promise<void> {
    this.disposed = true;
  }

  private streamReadPosition(event: Recorded): Position {
    if (this.streamReadPositions === 'unset') return { commit: 0n, prepare: 0n };
    if (this.streamReadPositions === 'minus-one') return { commit: U64_MAX, prepare: U64_MAX };
    return event.position;
  }

  /** A client read: an object-mode Readable of resolved events, with cancel(). */
  private stream<T>(events: Recorded[], resolve: (event: Recorded) => T, error?: Error): ScriptedReadable<T> {
    const read = new ScriptedReadable<T>();
    void (async () => {
      for (const event of events) {
        await new Promise((done) => setImmediate(done));
        if (read.cancelled || read.destroyed) return;
        read.push(resolve(event));
      }
      await new Promise((done) => setImmediate(done));
      if (read.cancelled || read.destroyed) return;
      if (error) read.destroy(error);
      else read.push(null);
    })();
    return read;
  }
}
