import type { EventMetadata, EventStore, RecordedEvent } from './event-store.port';

/**
 * Reading a stream into state: the one way stored events become a decider's events (after
 * upcasting) and are folded. Every fold of the log goes through here, so an upcaster added for an
 * old stored shape applies to the command handler, the read models and every reader alike.
 */

/** An event as a decider reads it. Structurally `DomainEvent` of libs/domain. */
export interface DecidedEvent {
  type: string;
  data: unknown;
}

/** What is read of a stored event: its type and data as stored, and its metadata (schema version). */
export type RecordedLike = Pick<RecordedEvent, 'type' | 'data'> & { metadata?: EventMetadata };

/** A stored event's type and data, as an upcaster leaves them. */
export interface UpcastEvent {
  type: string;
  data: Record<string, unknown>;
}

/**
 * Converts one old stored shape into the current one (DESIGN.md section 3): a renamed field, a
 * renamed type, a split value. It is given only events of `type` (as left by the upcasters before
 * it) and returns the event as it reads today; an event already current must come back unchanged,
 * since events of both shapes are stored side by side. It makes new data rather than changing the
 * data it is given, which is the stored event's own.
 */
export interface Upcaster {
  /** The stored event type it converts. */
  readonly type: string;
  upcast(data: Record<string, unknown>, metadata: EventMetadata): UpcastEvent;
}

/** Applied in order, each to what the ones before it made: a type renamed by one is seen by the next under its new name. */
export type Upcasters = readonly Upcaster[];

export const NO_UPCASTERS: Upcasters = Object.freeze([]);

/**
 * The decider shape a fold needs (structurally the same as `Decider` of libs/domain). A decider
 * may carry the upcasters of its streams' events: every fold of it then applies them without
 * being told, which is where they belong. An `upcasters` option given to a fold takes their place.
 */
export interface FoldDecider<Event extends DecidedEvent, State> {
  initialState: State;
  evolve(state: State, event: Event): State;
  upcasters?: Upcasters;
}

/** The stored event in its current shape (type and data), after every upcaster that applies. */
export function upcast(recorded: RecordedLike, upcasters: Upcasters = NO_UPCASTERS): UpcastEvent {
  let event: UpcastEvent = { type: recorded.type, data: recorded.data };
  for (const upcaster of upcasters) {
    if (upcaster.type === event.type) event = upcaster.upcast(event.data, recorded.metadata ?? {});
  }
  return event;
}

/** A decider as far as reading its events goes: the events it evolves by, and the upcasters it carries. */
export interface EventReader<Event extends DecidedEvent> {
  upcasters?: Upcasters;
  evolve(state: never, event: Event): unknown;
}

/**
 * A stored event as a decider's event: upcast, then taken as `Event`. This is the one place the
 * log's untyped data is taken for a domain event (the log holds only what deciders decided).
 * Given the decider, its upcasters apply and `Event` is its event type; for a live fold that also
 * needs the event itself (to publish it, to act on its type).
 */
export function toDomainEvent<Event extends DecidedEvent>(recorded: RecordedLike, decider: EventReader<Event>): Event;
export function toDomainEvent<Event extends DecidedEvent = DecidedEvent>(
  recorded: RecordedLike,
  upcasters?: Upcasters,
): Event;
export function toDomainEvent(
  recorded: RecordedLike,
  from: Upcasters | EventReader<DecidedEvent> = NO_UPCASTERS,
): DecidedEvent {
  return upcast(recorded, 'evolve' in from ? (from.upcasters ?? NO_UPCASTERS) : from);
}

/** One stored event applied to a state: the live fold (a subscription, a follower's map of states). */
export function evolveRecorded<Event extends DecidedEvent, State>(
  decider: FoldDecider<Event, State>,
  state: State,
  recorded: RecordedLike,
  upcasters: Upcasters = decider.upcasters ?? NO_UPCASTERS,
): State {
  return decider.evolve(state, toDomainEvent<Event>(recorded, upcasters));
}

export interface FoldOptions<State> {
  /** Instead of the decider's own (else none). */
  upcasters?: Upcasters;
  /** Fold onto this state (one folded earlier, up to the revision before the first event given) instead of the initial state. */
  onto?: State;
  /** Only the events up to this stream revision (inclusive): the state as it was then. Needs the events' revisions. */
  upTo?: bigint;
}

/** Folds events already read (oldest first) into a state; pure. */
export function foldEvents<Event extends DecidedEvent, State>(
  decider: FoldDecider<Event, State>,
  recorded: readonly (RecordedLike & { revision?: bigint })[],
  options: FoldOptions<State> = {},
): State {
  const upcasters = options.upcasters ?? decider.upcasters ?? NO_UPCASTERS;
  let state = options.onto !== undefined ? options.onto : decider.initialState;
  for (const event of recorded) {
    if (options.upTo !== undefined && event.revision !== undefined && event.revision > options.upTo) continue;
    state = evolveRecorded(decider, state, event, upcasters);
  }
  return state;
}

export interface AggregateOptions {
  /** Instead of the decider's own (else none). */
  upcasters?: Upcasters;
  /** Only the first events of the stream (e.g. 1: the state its creation made). */
  maxCount?: number;
  /** Only the events up to this stream revision (inclusive). */
  upTo?: bigint;
}

export interface Aggregate<State> {
  state: State;
  /** Revision of the last event folded; undefined when none was (an absent or empty stream). */
  revision: bigint | undefined;
}

/** Reads a stream from its start and folds it: its state, and the revision that state is at. */
export async function aggregateStream<Event extends DecidedEvent, State>(
  store: EventStore,
  stream: string,
  decider: FoldDecider<Event, State>,
  options: AggregateOptions = {},
): Promise<Aggregate<State>> {
  let maxCount = options.maxCount;
  // Revisions count from 0, so upTo + 1 events reach it (fewer where a stream's start was truncated).
  if (options.upTo !== undefined) maxCount = Math.min(maxCount ?? Infinity, Number(options.upTo) + 1);
  if (maxCount !== undefined && maxCount <= 0) return { state: decider.initialState, revision: undefined };
  let recorded = await store.readStream(stream, maxCount === undefined ? undefined : { maxCount });
  if (options.upTo !== undefined) recorded = recorded.filter((event) => event.revision <= options.upTo!);
  return {
    state: foldEvents(decider, recorded, { upcasters: options.upcasters }),
    revision: recorded.length > 0 ? recorded[recorded.length - 1]!.revision : undefined,
  };
}
