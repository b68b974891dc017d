import type { RecordedEvent } from '@app/eventstore';
import { asStored, bsonProblem, DocumentRefused } from './bson-limits';
import type { ProjectedDoc } from './projection';
import { type Handler, reads, versionOf } from './projection-handlers';
import type { ReadStore } from './read-store.port';

/** One document while a batch is applied: as it stands, whether the store holds it, the version to write. */
interface Working {
  doc: ProjectedDoc | undefined;
  stored: boolean;
  version: bigint | undefined;
}

/**
 * Applies events (in log order) to every handler's projection as applying them one by one would,
 * but each document touched is read once and written once, at the version of the last event that
 * changed it: a run's document changed by twenty events in a row costs one write, not twenty.
 * Throws at the first failure; what was written before it is skipped by the version guard when
 * the events are applied again.
 */
export async function applyBatch(
  store: ReadStore,
  handlers: Iterable<Handler>,
  events: RecordedEvent[],
): Promise<void> {
  for (const h of handlers) {
    const p = h.projection;
    const work = new Map<string, Working>();
    for (const event of events) {
      if (!reads(h, event)) continue;
      const version = versionOf(p, event);
      for (const id of new Set(p.ids(event))) {
        let w = work.get(id);
        if (!w) {
          const doc = await store.get(p.collection, id);
          w = { doc, stored: doc !== undefined, version: undefined };
          work.set(id, w);
        }
        const current = w.doc?._version;
        if (typeof current === 'string' && BigInt(current) >= version) continue; // already applied
        const next = p.apply(w.doc, event, id);
        // Every version must be one the store takes, as if written: a refused one is set aside
        // by the caller, one event at a time, whether or not a later event would shrink it again.
        const problem = next === undefined ? null : bsonProblem(next);
        if (problem) throw new DocumentRefused(p.collection, id, problem);
        // as the store would hand it back to the next event: as stored, with its id and version
        w.doc =
          next === undefined
            ? undefined
            : { ...(asStored(next) as ProjectedDoc), _id: id, _version: version.toString() };
        w.version = version;
      }
    }
    await Promise.all(
      [...work].map(async ([id, w]) => {
        if (w.version === undefined) return;
        if (w.doc) await store.upsert(p.collection, id, w.doc, w.version);
        else if (w.stored) await store.delete(p.collection, id, w.version);
      }),
    );
  }
}
