import type { AllFilter, RecordedEvent } from '@app/eventstore';
import { errorText } from './dead-letters';
import { checkpointName, type Projection } from './projection';
import type { ReadStore } from './read-store.port';

/** The projector's hold on one projection: what it reads, and where its checkpoint is. */
export interface Handler {
  projection: Projection;
  checkpoint: string;
  types: Set<string>;
  /** Position this projection had already applied when the run started. */
  from: bigint;
}

/** One handler per projection; two writing one collection are refused (a rebuild of one would wipe the other's docs). */
export function handlersFor(projections: Projection[], checkpointPrefix: string): Handler[] {
  const owners = new Map<string, string>();
  for (const p of projections) {
    const owner = owners.get(p.collection);
    // rebuild clears a projection's collection: sharing one would wipe the other's docs
    if (owner) throw new Error(`projections ${owner} and ${p.name} both write collection ${p.collection}`);
    owners.set(p.collection, p.name);
  }
  return projections.map((projection) => ({
    projection,
    checkpoint: checkpointName(checkpointPrefix, projection),
    types: new Set(projection.eventTypes),
    from: -1n,
  }));
}

/** One event's projections that threw, each with its error; the others applied it. */
export class ProjectionFailed extends Error {
  constructor(
    readonly event: RecordedEvent,
    readonly failures: Array<{ handler: Handler; error: unknown }>,
  ) {
    super(failures.map((f) => `${f.handler.projection.name}: ${errorText(f.error)}`).join('; '));
    this.name = 'ProjectionFailed';
  }
}

const matchesFilter = (filter: AllFilter | undefined, event: RecordedEvent): boolean =>
  (!filter?.streamPrefixes?.length || filter.streamPrefixes.some((p) => event.stream.startsWith(p))) &&
  (!filter?.eventTypePrefixes?.length || filter.eventTypePrefixes.some((p) => event.type.startsWith(p)));

/** Union of the projections' stream prefixes; undefined (all streams) if any projection reads everything. */
export function unionFilter(projections: Projection[]): AllFilter | undefined {
  const prefixes = new Set<string>();
  for (const p of projections) {
    if (!p.filter?.streamPrefixes?.length) return undefined;
    p.filter.streamPrefixes.forEach((prefix) => prefixes.add(prefix));
  }
  return prefixes.size ? { streamPrefixes: [...prefixes] } : undefined;
}

/** Applies the event to every handler's projection that reads it; one that throws does not stop the others (ProjectionFailed). */
export async function applyEvent(store: ReadStore, handlers: Iterable<Handler>, event: RecordedEvent): Promise<void> {
  const failures: Array<{ handler: Handler; error: unknown }> = [];
  for (const h of handlers) {
    try {
      await applyOne(store, h, event);
    } catch (error) {
      failures.push({ handler: h, error });
    }
  }
  if (failures.length > 0) throw new ProjectionFailed(event, failures);
}

/** The handler's projection reads this event (and had not applied it before this run). */
export const reads = (h: Handler, event: RecordedEvent): boolean =>
  event.position > h.from && h.types.has(event.type) && matchesFilter(h.projection.filter, event);

/** The version a projection's documents get from this event. */
export const versionOf = (p: Projection, event: RecordedEvent): bigint =>
  p.versionBy === 'revision' ? event.revision : event.position;

async function applyOne(store: ReadStore, h: Handler, event: RecordedEvent): Promise<void> {
  const p = h.projection;
  if (!reads(h, event)) return;
  const version = versionOf(p, event);
  for (const id of new Set(p.ids(event))) {
    const doc = await store.get(p.collection, id);
    if (doc?._version !== undefined && BigInt(doc._version) >= version) continue; // already applied
    const next = p.apply(doc, event, id);
    if (next !== undefined) await store.upsert(p.collection, id, next, version);
    else if (doc) {
      await store.delete(p.collection, id, version);
    }
  }
}
