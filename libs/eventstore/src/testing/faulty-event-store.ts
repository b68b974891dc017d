import type {
  AllFilter,
  AppendResult,
  EventStore,
  ExpectedRevision,
  NewEvent,
  ReadAllOptions,
  ReadStreamOptions,
  RecordedEvent,
  SubscribeToAllOptions,
  SubscribeToStreamOptions,
  Subscription,
} from '../event-store.port';

/** What a dropped subscription throws: the shape of a server going away under a live client. */
export class SubscriptionDropped extends Error {
  constructor() {
    super('subscription dropped (fault injected)');
    this.name = 'SubscriptionDropped';
  }
}

/**
 * A fault-injecting wrapper around a real event store (tests only): everything goes to the real
 * adapter, except that on cue live subscriptions are dropped (their iteration throws, as when
 * EventStoreDB restarts or changes leader) and appends fail. Resubscription and retry paths are
 * tested with it without an EventStoreDB server.
 */
export class FaultyEventStore implements EventStore {
  private readonly live = new Set<{ drop: (error: Error) => void }>();
  private failingAppends = 0;
  private appendError: () => Error = () => new Error('append failed (fault injected)');
  private failingStreams: (stream: string) => boolean = () => true;
  subscriptionsOpened = 0;

  constructor(readonly inner: EventStore) {}

  /** Drops every subscription open now; returns how many. */
  dropSubscriptions(error: Error = new SubscriptionDropped()): number {
    const count = this.live.size;
    for (const s of [...this.live]) s.drop(error);
    return count;
  }

  /** The next `count` appends (to the streams `where` picks: any by default) fail with `error`; nothing is written. */
  failAppends(count: number, error?: () => Error, where: (stream: string) => boolean = () => true): void {
    this.failingAppends = count;
    if (error) this.appendError = error;
    this.failingStreams = where;
  }

  get openSubscriptions(): number {
    return this.live.size;
  }

  async append(stream: string, events: NewEvent[], expected: ExpectedRevision): Promise<AppendResult> {
    if (this.failingAppends > 0 && this.failingStreams(stream)) {
      this.failingAppends--;
      throw this.appendError();
    }
    return this.inner.append(stream, events, expected);
  }

  readStream(stream: string, options?: ReadStreamOptions): Promise<RecordedEvent[]> {
    return this.inner.readStream(stream, options);
  }

  streamRevision(stream: string): Promise<bigint | undefined> {
    return this.inner.streamRevision(stream);
  }

  readAll(options?: ReadAllOptions): Promise<RecordedEvent[]> {
    return this.inner.readAll(options);
  }

  headPosition(): Promise<bigint> {
    return this.inner.headPosition();
  }

  subscribeToStream(stream: string, options?: SubscribeToStreamOptions): Subscription {
    return this.droppable(this.inner.subscribeToStream(stream, options));
  }

  subscribeToAll(options?: SubscribeToAllOptions & { filter?: AllFilter }): Subscription {
    return this.droppable(this.inner.subscribeToAll(options));
  }

  ping(): Promise<void> {
    return this.inner.ping();
  }

  close(): Promise<void> {
    return this.inner.close();
  }

  /** The real subscription, whose iteration throws `error` once dropped. */
  private droppable(inner: Subscription): Subscription {
    this.subscriptionsOpened++;
    let dropped: Error | undefined;
    let interrupt: ((error: Error) => void) | undefined;
    const handle = {
      drop: (error: Error) => {
        dropped = error;
        interrupt?.(error);
        void inner.close();
      },
    };
    this.live.add(handle);
    const live = this.live;
    return {
      async close() {
        live.delete(handle);
        await inner.close();
      },
      async *[Symbol.asyncIterator]() {
        const events = inner[Symbol.asyncIterator]();
        try {
          for (;;) {
            if (dropped) throw dropped;
            const stop = new Promise<never>((_, reject) => (interrupt = reject));
            const step = await Promise.race([events.next(), stop]);
            interrupt = undefined;
            if (dropped) throw dropped;
            if (step.done) return;
            yield step.value;
          }
        } finally {
          live.delete(handle);
        }
      },
    };
  }
}
