/**
 * What the client reads, as the port's RecordedEvent: conversions, positions and $all filters
 * shared by the EventStoreDB adapter's reads and subscriptions.
 */
import {
  type AllStreamResolvedEvent,
  eventTypeFilter,
  excludeSystemEvents,
  type Filter,
  type Position,
  type ResolvedEvent,
  START,
  streamNameFilter,
} from '@eventstore/db-client';
import type { AllFilter, EventMetadata, RecordedEvent } from './event-store.port';
import { activePrefixes, matchesFilter } from './prefix-filter';

/**
 * Positions: EventStoreDB positions are {commit, prepare}. For events appended through gRPC
 * (implicit transactions, the only kind this adapter writes) the server reports both equal to
 * the event's log position, unique per event and increasing in $all order; the port's bigint
 * position is that commit position, and {commit: p, prepare: p} rebuilds the full position.
 * Events from legacy explicit TCP transactions share a commit position: not supported.
 */

export type AnyResolved = ResolvedEvent | AllStreamResolvedEvent;
export type EsdbRecorded = NonNullable<AnyResolved['event']>;

export const UNBOUNDED = Number.MAX_SAFE_INTEGER;

/** Read/subscribe from START, or from the full position of the event at commit position `after`. */
export const fromPosition = (after: bigint | undefined): Position | typeof START =>
  after === undefined || after < 0n ? START : { commit: after, prepare: after };

/** System events ($metadata, $>, $stats..., projections' own) are not part of our log. */
export const isSystem = (event: EsdbRecorded): boolean => event.type.startsWith('$');

const INT64_MAX = 2n ** 63n - 1n;

/**
 * A position the server reported, or undefined. The client reads a position field the server left
 * unset as 0 (proto3 fields have no presence) and the server's "no position" (-1) as 2^64 - 1;
 * neither names an event: the log opens with the server's own epoch record at 0, and positions are
 * int64 on the server.
 */
export const known = (position: bigint | undefined): bigint | undefined =>
  position !== undefined && position > 0n && position <= INT64_MAX ? position : undefined;

const asObject = (value: unknown): Record<string, unknown> | undefined =>
  typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Uint8Array)
    ? (value as Record<string, unknown>)
    : undefined;

export function toRecorded(resolved: AnyResolved): RecordedEvent | undefined {
  const event = resolved.event;
  if (!event) return undefined; // a link to a deleted event
  const data = event.isJson
    ? (asObject(event.data) ?? { value: event.data })
    : { binary: Buffer.from(event.data as Uint8Array).toString('base64') }; // not written by this adapter
  return {
    id: event.id,
    stream: event.streamId,
    type: event.type,
    data,
    metadata: (asObject(event.metadata) ?? {}) as EventMetadata,
    revision: event.revision,
    // Stream reads carry the event's position only on servers >= 22.6; -1n marks it unknown.
    position: known(event.position?.commit) ?? known(resolved.commitPosition) ?? -1n,
    created: event.created.toISOString(),
  };
}

/** An $all event passes: not a system event, strictly after `after`, and matching the filter. */
export function allEvent(resolved: AllStreamResolvedEvent, after: bigint | undefined, filter: AllFilter | undefined) {
  const event = resolved.event;
  if (!event || isSystem(event)) return undefined;
  if (after !== undefined && event.position.commit <= after) return undefined;
  if (!matchesFilter(filter, event.streamId, event.type)) return undefined;
  return toRecorded(resolved);
}

/**
 * The server filters on ONE dimension (stream name OR event type); the other dimension and the
 * system-event exclusion are re-checked on the client, which is also a guard if the server ever
 * sends more than asked.
 */
export function serverFilter(filter: AllFilter | undefined): Filter {
  const streams = activePrefixes(filter?.streamPrefixes);
  if (streams) return streamNameFilter({ prefixes: [...streams] });
  const types = activePrefixes(filter?.eventTypePrefixes);
  if (types) return eventTypeFilter({ prefixes: [...types] });
  return excludeSystemEvents();
}
