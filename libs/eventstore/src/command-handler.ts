import { randomUUID } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import { timeOrderedId } from './ids';
import {
  type EventMetadata,
  type EventStore,
  type NewEvent,
  type RecordedEvent,
  WrongExpectedRevisionError,
} from './event-store.port';
import { aggregateStream, type FoldDecider, foldEvents, NO_UPCASTERS, type Upcasters } from './fold';

/**
 * The decider shape this handler needs. Structurally the same as `Decider` in libs/domain, so a
 * domain decider fits without the event log depending on the domain library.
 */
export interface CommandDecider<Command, Event extends { type: string; data: unknown }, State> {
  initialState: State;
  decide(command: Command, state: State, context: { now: string; newId: () => string }): Event[];
  evolve(state: State, event: Event): State;
  /** The upcasters of its streams' stored events (see FoldDecider). */
  upcasters?: Upcasters;
}

export interface HandleCommandOptions<Event> {
  /** Decision time (ISO-8601), or a clock read on every attempt. Default: the system clock. */
  now?: string | (() => string);
  /** Ids for the decider's use. Default: crypto.randomUUID. */
  newId?: () => string;
  /** Carried by every appended event; `at` defaults to the decision time. */
  metadata?: EventMetadata;
  /**
   * Deterministic event ids (e.g. derived from a request id). The store answers a retried append
   * (the same ids at the same expected revision) with its first result, so a redelivered
   * `expectNew` command, whose first try appends with no_stream, appends nothing new. A repeat
   * decided on the stream as it stands appends at its current revision, where the store writes the
   * same ids again: the decider must see in the state that the request was served. Default: random uuids.
   */
  eventId?: (event: Event, index: number) => string;
  /** Tries in all when the stream moved underneath (WrongExpectedRevisionError). Default 5. */
  maxAttempts?: number;
  /**
   * The stream is almost always new (its id was just made): the first try decides on the initial
   * state and appends with no-stream without reading; if the stream exists after all (a
   * redelivered call), the conflict sends it through the usual read, fold, decide.
   */
  expectNew?: boolean;
  /**
   * Upcasters for the stored events read, instead of the decider's own (else none). Pass the same
   * array on every call: a stream's cached fold is used only by commands with the upcasters it was folded with.
   */
  upcasters?: Upcasters;
  /**
   * Called with what was decided, before it is appended at `expected` (a reservation elsewhere,
   * such as a key's budget): may refuse by throwing, which appends nothing. What it returns is
   * called when the append then fails (the stream moved, the store refused), before the command
   * decides again or throws.
   */
  beforeAppend?: (
    decided: readonly Event[],
    state: unknown,
    expected: bigint | undefined,
  ) => Promise<(() => Promise<void>) | undefined>;
}

/** An event as appended by the handler (its own position is only known for the last one). */
export type AppendedEvent = Omit<RecordedEvent, 'position' | 'created'>;

export interface HandleCommandResult<State> {
  /** What was appended, in order; [] when the command was already satisfied. */
  events: AppendedEvent[];
  /** The state after the appended events. */
  state: State;
  /** Position of the last appended event; absent when nothing was appended. */
  position?: bigint;
  /** Last revision of the stream after the command; absent when the stream does not exist. */
  nextExpectedRevision?: bigint;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * The state each stream folded to, and at which revision, for the streams this process decided on
 * last (per store and decider): a command reads only the events after it, not the whole stream
 * again (a run's heartbeats and a chat's answer chunks made long streams quadratic). Streams only
 * grow, and deciders fold into new states, never changing one in place. Bounded in entries, since
 * a state can be large (a deep run's results).
 */
const FOLDED_STREAMS = 128;
/** `upcasters`: those it was folded with; a command given others folds the stream afresh. */
type Folded = { revision: bigint; state: unknown; upcasters: Upcasters };
const folds = new WeakMap<EventStore, WeakMap<object, LRUCache<string, Folded>>>();

function foldCache(store: EventStore, decider: object): LRUCache<string, Folded> {
  let byDecider = folds.get(store);
  if (!byDecider) folds.set(store, (byDecider = new WeakMap()));
  let cache = byDecider.get(decider);
  if (!cache) byDecider.set(decider, (cache = new LRUCache({ max: FOLDED_STREAMS })));
  return cache;
}

/** The stream's state and last revision: the cached fold plus what was appended since, else a full read. */
async function readFolded<Event extends { type: string; data: unknown }, State>(
  store: EventStore,
  stream: string,
  decider: FoldDecider<Event, State>,
  upcasters: Upcasters,
): Promise<{ state: State; current: bigint | undefined }> {
  const cache = foldCache(store, decider);
  const cached = cache.get(stream);
  if (cached && cached.upcasters === upcasters) {
    const after = await store.readStream(stream, { fromRevision: cached.revision + 1n });
    // Anything but the next revisions in order (a stream deleted and made again): read it whole.
    if (after.every((event, i) => event.revision === cached.revision + 1n + BigInt(i))) {
      const state = foldEvents(decider, after, { upcasters, onto: cached.state as State });
      const current = after.length > 0 ? after[after.length - 1]!.revision : cached.revision;
      if (after.length > 0) cache.set(stream, { revision: current, state, upcasters });
      return { state, current };
    }
  }
  const { state, revision: current } = await aggregateStream(store, stream, decider, { upcasters });
  if (current !== undefined) cache.set(stream, { revision: current, state, upcasters });
  return { state, current };
}

/**
 * Read, fold, decide, append with the revision read: the optimistic-concurrency loop. A
 * concurrent writer makes the append fail with WrongExpectedRevisionError; the command is then
 * decided again on the fresh state (it may now decide nothing, or be refused). Errors thrown by
 * `decide` (domain refusals) are not retried.
 */
export async function handleCommand<Command, Event extends { type: string; data: unknown }, State>(
  store: EventStore,
  stream: string,
  decider: CommandDecider<Command, Event, State>,
  command: Command,
  options: HandleCommandOptions<Event> = {},
): Promise<HandleCommandResult<State>> {
  const maxAttempts = Math.max(1, options.maxAttempts ?? 5);
  const newId = options.newId ?? randomUUID;
  const upcasters = options.upcasters ?? decider.upcasters ?? NO_UPCASTERS;
  for (let attempt = 1; ; attempt++) {
    const { state, current } =
      attempt === 1 && options.expectNew
        ? { state: decider.initialState, current: undefined }
        : await readFolded(store, stream, decider, upcasters);
    const now = typeof options.now === 'function' ? options.now() : (options.now ?? new Date().toISOString());
    const decided = decider.decide(command, state, { now, newId });
    if (decided.length === 0) {
      // Nothing to do on an empty stream says nothing of the stored one: read it and decide again.
      if (attempt === 1 && options.expectNew) continue;
      return { events: [], state, nextExpectedRevision: current };
    }

    const metadata: EventMetadata = { ...options.metadata, at: options.metadata?.at ?? now };
    const events: NewEvent[] = decided.map((event, index) => ({
      // Time-ordered: the log's index on event ids takes them at its right edge.
      id: options.eventId?.(event, index) ?? timeOrderedId(),
      type: event.type,
      data: event.data as Record<string, unknown>,
      metadata,
    }));
    const undo = await options.beforeAppend?.(decided, state, current);
    try {
      const result = await store.append(stream, events, current ?? 'no_stream').catch(async (error: unknown) => {
        await undo?.().catch(() => undefined);
        throw error;
      });
      const last = events.length - 1;
      // A retry answered with the first attempt's result names the revisions a new append would
      // have. Should a store report others (nothing of ours appended there), fold the stream as
      // it stands rather than `state` plus the decided events.
      const repeated = result.nextExpectedRevision !== (current ?? -1n) + BigInt(events.length);
      const stateAfter = repeated
        ? (await aggregateStream(store, stream, decider, { upcasters })).state
        : decided.reduce(decider.evolve, state);
      if (!repeated)
        foldCache(store, decider).set(stream, { revision: result.nextExpectedRevision, state: stateAfter, upcasters });
      return {
        events: events.map((event, index) => ({
          id: event.id,
          stream,
          type: event.type,
          data: event.data,
          metadata,
          revision: result.nextExpectedRevision - BigInt(last - index),
        })),
        state: stateAfter,
        position: result.position,
        nextExpectedRevision: result.nextExpectedRevision,
      };
    } catch (error) {
      if (!(error instanceof WrongExpectedRevisionError) || attempt >= maxAttempts) throw error;
      // A stream expected new but found: read it at once, it is no contention.
      if (attempt === 1 && options.expectNew) continue;
      // Jittered, growing pause so that writers who collided do not collide again in lockstep.
      await sleep(Math.random() * 5 * 2 ** (attempt - 1));
    }
  }
}
