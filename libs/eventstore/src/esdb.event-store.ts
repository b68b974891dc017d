import {
  ANY,
  type AllStreamResolvedEvent,
  type AppendExpectedRevision,
  type AppendResult as EsdbAppendResult,
  BACKWARDS,
  END,
  ErrorType,
  EventStoreDBClient,
  FORWARDS,
  jsonEvent,
  type JSONType,
  NO_STREAM,
  START,
} from '@eventstore/db-client';
import type { Channel } from '@grpc/grpc-js';
import {
  type AppendResult,
  type EventStore,
  type ExpectedRevision,
  type NewEvent,
  type ReadAllOptions,
  type ReadStreamOptions,
  type RecordedEvent,
  type SubscribeToAllOptions,
  type SubscribeToStreamOptions,
  type Subscription,
  appendBytes,
  EventTooLargeError,
  MAX_APPEND_BYTES,
  WrongExpectedRevisionError,
} from './event-store.port';
import { closeChannels, distinctChannel, trackChannels } from './esdb.channels';
import { headPosition, readAllFiltered, scanAll } from './esdb.all-reads';
import { type EsdbSource, EsdbSubscription } from './esdb.subscription';
import { allEvent, type AnyResolved, fromPosition, known, serverFilter, toRecorded, UNBOUNDED } from './esdb.resolved';
import { activePrefixes } from './prefix-filter';

/** maxCount for the client: undefined (or Infinity) reads everything. */
const countOf = (maxCount: number | undefined): number =>
  maxCount === undefined || maxCount === Infinity ? UNBOUNDED : Math.max(0, Math.floor(maxCount));

const toEsdbExpected = (expected: ExpectedRevision): AppendExpectedRevision =>
  expected === 'no_stream' ? NO_STREAM : expected === 'any' ? ANY : expected;

const errorType = (error: unknown): unknown => (error as { type?: unknown } | null)?.type;

export interface EsdbEventStoreOptions {
  /** How long a filtered read of $all waits for a silent server (default FILTERED_READ_IDLE_MS). */
  filteredReadIdleMs?: number;
}

/** The event log on EventStoreDB through the official gRPC client. */
export class EsdbEventStore implements EventStore {
  private readonly live = new Set<EsdbSubscription<AnyResolved>>();

  /**
   * `client` carries appends and reads; live subscriptions ride channels of their own
   * (`subscriptionClients`, in turn), so a busy subscription's flow control never holds an append
   * or another subscription behind it on one gRPC channel.
   */
  constructor(
    private readonly client: EventStoreDBClient,
    private readonly subscriptionClients: readonly EventStoreDBClient[] = [client],
    private readonly options: EsdbEventStoreOptions = {},
  ) {
    for (const each of new Set([client, ...subscriptionClients])) trackChannels(each, this.channels);
  }

  /** The gRPC channels the clients opened, closed by close(). */
  private readonly channels = new Set<Channel>();

  private nextSubscriptionClient = 0;

  /**
   * `esdb://…` or `esdb+discover://…` connection string (credentials, tls, node preference…).
   * Each client gets a connection of its own, with or without TLS (see distinctChannel).
   */
  static connect(connectionString: string, subscriptionChannels = 2, options?: EsdbEventStoreOptions): EsdbEventStore {
    const clients = Array.from({ length: Math.max(1, subscriptionChannels) + 1 }, (_, index) =>
      EventStoreDBClient.connectionString(distinctChannel(connectionString, index)),
    );
    return new EsdbEventStore(clients[0]!, clients.slice(1), options);
  }

  /** The channel for the next live subscription. */
  private subscriber(): EventStoreDBClient {
    const client = this.subscriptionClients[this.nextSubscriptionClient % this.subscriptionClients.length]!;
    this.nextSubscriptionClient++;
    return client;
  }

  async append(stream: string, events: NewEvent[], expected: ExpectedRevision): Promise<AppendResult> {
    // The server refuses it too, with a less telling error: say which append and why.
    const bytes = appendBytes(events);
    const types = events.map((e) => e.type);
    if (bytes > MAX_APPEND_BYTES) throw new EventTooLargeError(stream, bytes, types);
    let result: EsdbAppendResult;
    try {
      result = await this.client.appendToStream(
        stream,
        events.map((event) =>
          jsonEvent({ id: event.id, type: event.type, data: event.data as JSONType, metadata: event.metadata }),
        ),
        { expectedRevision: toEsdbExpected(expected) },
      );
    } catch (error) {
      if (errorType(error) === ErrorType.WRONG_EXPECTED_VERSION) {
        const actual = (error as { actualVersion?: bigint | 'no_stream' }).actualVersion ?? 'no_stream';
        throw new WrongExpectedRevisionError(stream, expected, actual);
      }
      // A server configured with a smaller MaxAppendSize than ours refuses what passed the check above.
      if (errorType(error) === ErrorType.MAXIMUM_APPEND_SIZE_EXCEEDED) {
        const limit = (error as { maxAppendSize?: unknown }).maxAppendSize;
        throw new EventTooLargeError(stream, bytes, types, typeof limit === 'number' ? limit : MAX_APPEND_BYTES);
      }
      throw error;
    }
    const reported = known(result.position?.commit);
    // For one event the reported position is the event's own. For a batch, or an idempotent
    // repeat (which may report no position), read the last event back: the port promises the
    // position of the LAST event, and the server reports the transaction's.
    if (events.length === 1 && reported !== undefined) {
      return { nextExpectedRevision: result.nextExpectedRevision, position: reported };
    }
    const position = await this.positionOf(stream, result.nextExpectedRevision);
    return {
      nextExpectedRevision: result.nextExpectedRevision,
      position: position >= 0n ? position : (reported ?? -1n),
    };
  }

  async readStream(stream: string, options: ReadStreamOptions = {}): Promise<RecordedEvent[]> {
    const maxCount = countOf(options.maxCount);
    if (maxCount === 0) return [];
    const backwards = options.direction === 'backwards';
    const read = this.client.readStream(stream, {
      direction: backwards ? BACKWARDS : FORWARDS,
      fromRevision: options.fromRevision ?? (backwards ? END : START),
      maxCount,
    });
    const out: RecordedEvent[] = [];
    try {
      for await (const resolved of read) {
        const event = toRecorded(resolved);
        if (event) out.push(event);
      }
    } catch (error) {
      // The client reports an absent stream while iterating, not when the read is created.
      if (errorType(error) === ErrorType.STREAM_NOT_FOUND) return [];
      throw error;
    }
    return out;
  }

  async streamRevision(stream: string): Promise<bigint | undefined> {
    const [last] = await this.readStream(stream, { direction: 'backwards', maxCount: 1 });
    return last?.revision;
  }

  /**
   * An unfiltered read streams $all and drops system events here; a filtered one is filtered by
   * the server (see readAllFiltered): $all is not streamed to this process to be sifted here
   * (startup scans and key rotation grew with the log).
   */
  async readAll(options: ReadAllOptions = {}): Promise<RecordedEvent[]> {
    const maxCount = countOf(options.maxCount);
    if (maxCount === 0) return [];
    const out: RecordedEvent[] = [];
    if (!activePrefixes(options.filter?.streamPrefixes) && !activePrefixes(options.filter?.eventTypePrefixes)) {
      await scanAll(this.client, options.after, options.filter, maxCount, out);
      return out;
    }
    const head = await this.headPosition();
    return readAllFiltered(this.client, this.subscriber(), options, maxCount, head, this.options.filteredReadIdleMs);
  }

  headPosition(): Promise<bigint> {
    return headPosition(this.client);
  }

  /** Subscription revisions are exclusive on the server ("events after"), as in the port. */
  subscribeToStream(stream: string, options: SubscribeToStreamOptions = {}): Subscription {
    const after = options.after;
    const source = this.subscriber().subscribeToStream(stream, {
      fromRevision: after === undefined || after < 0n ? START : after,
    });
    return this.track(source as EsdbSource<AnyResolved>, (resolved) => {
      const event = toRecorded(resolved);
      return event && (after === undefined || event.revision > after) ? event : undefined;
    });
  }

  /** Subscription positions are exclusive on the server; the client-side check is a guard. */
  subscribeToAll(options: SubscribeToAllOptions = {}): Subscription {
    const source = this.subscriber().subscribeToAll({
      fromPosition: fromPosition(options.after),
      filter: serverFilter(options.filter),
    });
    return this.track(source as EsdbSource<AnyResolved>, (resolved) =>
      allEvent(resolved as AllStreamResolvedEvent, options.after, options.filter),
    );
  }

  /** A read of a stream that need not exist: proves the connection and the server answer. */
  async ping(): Promise<void> {
    await this.readStream('eventstore-ping', { maxCount: 1 });
  }

  /** Ends live subscriptions, cancels the clients' calls, and closes their channels. */
  async close(): Promise<void> {
    await Promise.all([...this.live].map((subscription) => subscription.close()));
    await Promise.all([...new Set([this.client, ...this.subscriptionClients])].map((client) => client.dispose()));
    closeChannels(this.channels);
  }

  private track(
    source: EsdbSource<AnyResolved>,
    map: (resolved: AnyResolved) => RecordedEvent | undefined,
  ): Subscription {
    const subscription = new EsdbSubscription(source, map, (closed) => this.live.delete(closed));
    this.live.add(subscription);
    return subscription;
  }

  private async positionOf(stream: string, revision: bigint): Promise<bigint> {
    if (revision < 0n) return -1n;
    const [event] = await this.readStream(stream, { fromRevision: revision, maxCount: 1 });
    return event?.position ?? -1n;
  }
}
