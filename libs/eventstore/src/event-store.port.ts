/**
 * The event log port. Every adapter (sqlite, esdb) passes the same contract suite
 * (`testing/event-store.contract.ts`). Positions and revisions are bigint here and decimal strings on the wire.
 */

/** Metadata carried by every event (DESIGN.md section 3). */
export interface EventMetadata {
  correlation_id?: string;
  causation_id?: string;
  request_id?: string;
  team_id?: string;
  key_id?: string;
  /** ISO-8601 time the event was decided. */
  at?: string;
  /**
   * Version of the data shape. Every event type is still at its first version (shapes have only
   * gained optional fields, which old readers ignore and new ones default), so no upcaster exists
   * yet; the first second version comes with its upcaster on read (an `Upcaster`, fold.ts: every
   * fold reads through them) and a test for it (DESIGN.md §3).
   */
  schema?: number;
  [key: string]: unknown;
}

/**
 * An event to append. `id` is a uuid. Ids make a retried append safe, as EventStoreDB does it:
 * - an append of the same ids at the same expected revision as the attempt that stored them (a
 *   bigint, or `'no_stream'` again) is a no-op answered with that attempt's result, however far
 *   the stream moved on since; if only its first events match what is stored there, it is refused
 *   with WrongExpectedRevisionError and nothing is written;
 * - the same ids at the stream's current revision are new events, written again: ids are not
 *   unique in the log (nor across streams);
 * - with `'any'` a repeat may be answered as a no-op (EventStoreDB recognises one only while its
 *   bounded cache of recent ids holds them; the embedded store always does): never rely on it.
 * So a caller that retries an append must retry it with the expected revision it first used.
 */
export interface NewEvent<Type extends string = string, Data = Record<string, unknown>> {
  id: string;
  type: Type;
  data: Data;
  metadata?: EventMetadata;
}

/** An event as read back from the log. */
export interface RecordedEvent<Type extends string = string, Data = Record<string, unknown>> {
  id: string;
  stream: string;
  type: Type;
  data: Data;
  metadata: EventMetadata;
  /** 0-based revision within its stream. */
  revision: bigint;
  /**
   * Global position in the log ($all), strictly increasing in append order; -1n when the store
   * cannot tell (a stream read from EventStoreDB before 22.6), never a made-up 0n.
   */
  position: bigint;
  /** ISO-8601 time the store recorded it. */
  created: string;
}

/**
 * Expected revision for an append:
 * - `'no_stream'`: the stream must not exist;
 * - `'any'`: no check (tools and migrations only; domain code always checks);
 * - a bigint: the stream's current last revision must equal it.
 */
export type ExpectedRevision = 'no_stream' | 'any' | bigint;

export interface AppendResult {
  /** Last revision of the stream after the append (on a retry, after the first attempt). */
  nextExpectedRevision: bigint;
  /**
   * Global position of the last event appended (on a retry, of the last one the first attempt
   * stored); -1n when the store cannot tell.
   */
  position: bigint;
}

export interface ReadStreamOptions {
  direction?: 'forwards' | 'backwards';
  /** Start at this revision (inclusive). Defaults to the start (forwards) or the end (backwards). */
  fromRevision?: bigint;
  maxCount?: number;
}

/** Server-side filter for $all reads and subscriptions. */
export interface AllFilter {
  streamPrefixes?: string[];
  eventTypePrefixes?: string[];
}

export interface ReadAllOptions {
  /** Read events whose position is strictly greater than this; defaults to the start of the log. */
  after?: bigint;
  maxCount?: number;
  filter?: AllFilter;
}

export interface SubscribeToStreamOptions {
  /** Deliver events whose revision is strictly greater than this; undefined = from the start. */
  after?: bigint;
}

export interface SubscribeToAllOptions {
  /** Deliver events whose position is strictly greater than this; undefined = from the start. */
  after?: bigint;
  filter?: AllFilter;
}

/**
 * A catch-up subscription: replays what is stored after the starting point, then delivers live
 * events, in order, with nothing missed or doubled. Iterate it with `for await`; `close()` ends it.
 */
export interface Subscription extends AsyncIterable<RecordedEvent> {
  close(): Promise<void>;
}

/**
 * The most one append may carry (event data, metadata and types, as JSON bytes): EventStoreDB's
 * default `MaxAppendSize`. Every adapter refuses more, the embedded one too, so a test catches an
 * oversize event before production does. Large payloads travel by reference or are bounded.
 */
export const MAX_APPEND_BYTES = 1024 * 1024;

/**
 * An append over the limit: MAX_APPEND_BYTES, or the server's own when EventStoreDB is configured
 * with a smaller MaxAppendSize (then `limit` is the server's). Nothing of it is written.
 */
export class EventTooLargeError extends Error {
  constructor(
    readonly stream: string,
    readonly bytes: number,
    readonly types: string[],
    readonly limit: number = MAX_APPEND_BYTES,
  ) {
    super(
      `append to ${stream} of ${types.join(', ')} is ${bytes} bytes; at most ${limit} bytes may be appended at once`,
    );
    this.name = 'EventTooLargeError';
  }
}

/**
 * The bytes one event counts against MAX_APPEND_BYTES, as EventStoreDB counts them for its
 * MaxAppendSize (`Event.SizeOnDisk`, summed over the append's events): the data and metadata as
 * sent (UTF-8 JSON; absent metadata is not sent) plus the event type at two bytes per UTF-16 code
 * unit (a .NET string's length), with no overhead per event. Some older servers count only the
 * data: the count here is then an upper bound, and an append it allows they allow too.
 */
export function eventBytes(data: string, metadata: string | null | undefined, type: string): number {
  return Buffer.byteLength(data) + (metadata == null ? 0 : Buffer.byteLength(metadata)) + 2 * type.length;
}

/** The bytes an append counts against MAX_APPEND_BYTES: its events' eventBytes. */
export function appendBytes(events: readonly NewEvent[]): number {
  let bytes = 0;
  for (const event of events) {
    const metadata = event.metadata === undefined ? undefined : JSON.stringify(event.metadata);
    bytes += eventBytes(JSON.stringify(event.data), metadata, event.type);
  }
  return bytes;
}

/** Thrown when the expected revision does not hold. */
export class WrongExpectedRevisionError extends Error {
  constructor(
    readonly stream: string,
    readonly expected: ExpectedRevision,
    readonly actual: bigint | 'no_stream',
  ) {
    super(`stream ${stream}: expected revision ${String(expected)}, actual ${String(actual)}`);
    this.name = 'WrongExpectedRevisionError';
  }
}

export interface EventStore {
  append(stream: string, events: NewEvent[], expected: ExpectedRevision): Promise<AppendResult>;
  /** Reads a stream; an absent stream reads as an empty array. */
  readStream(stream: string, options?: ReadStreamOptions): Promise<RecordedEvent[]>;
  /** Last revision of a stream, or undefined when it does not exist. */
  streamRevision(stream: string): Promise<bigint | undefined>;
  readAll(options?: ReadAllOptions): Promise<RecordedEvent[]>;
  /** Position of the last event in the log, or -1n when empty. */
  headPosition(): Promise<bigint>;
  subscribeToStream(stream: string, options?: SubscribeToStreamOptions): Subscription;
  subscribeToAll(options?: SubscribeToAllOptions): Subscription;
  /** Cheap liveness check for /readyz. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

export const EVENT_STORE = Symbol('EVENT_STORE');
