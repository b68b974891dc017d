import { addItems, type CreditsCharged } from '@app/domain';
import { toDomainEvent } from '@app/eventstore';
import type { Projection } from '../projection';
import { Collection, type ReadStore } from '../read-store.port';

/**
 * `charges`: one document per charge stream, found by the X-Request-Id of the request that
 * caused it (which a client may choose, so several charges can share one request id).
 */
export const CHARGES = 'charges';

export type ChargeDoc = {
  team_id: string;
  request_id: string;
  at: string;
  credits: number;
  items: { sku: string; quantity: number; credits: number }[];
};

/** The `charges` collection, typed. */
export const charges = new Collection<ChargeDoc>(CHARGES);

export const chargesProjection: Projection<ChargeDoc> = {
  name: 'charges',
  version: 2,
  eventTypes: ['CreditsCharged'],
  collection: CHARGES,
  versionBy: 'revision',
  // A charge is looked up by its request id (within the team): that one index is what the lookup uses.
  // (Pruning by `at` scans: it runs once an hour.)
  indexes: ['request_id'],
  ids: (event) => [event.stream],
  apply(doc, event) {
    const { data } = toDomainEvent<CreditsCharged>(event);
    const charge: ChargeDoc = {
      team_id: data.team_id,
      request_id: data.request_id,
      at: data.at,
      credits: data.credits,
      items: data.items,
    };
    if (!doc) return { ...charge };
    // A run that is charged as it goes (FindAll) adds up in one document.
    return { ...doc, credits: doc.credits + charge.credits, items: addItems(doc.items, charge.items) };
  },
};

/**
 * Drops charges recorded before `cutoff` (ISO) from the read model, `batch` at a time: the
 * per-day usage totals keep them, and the log keeps every charge for audit. Without it the
 * embedded read model held one document per call for ever. Returns how many were dropped.
 */
export async function pruneCharges(store: ReadStore, cutoff: string, batch = 5_000): Promise<number> {
  let dropped = 0;
  for (;;) {
    const old = await store.find(CHARGES, { at: { $lt: cutoff } }, { limit: batch });
    for (const doc of old) if (await store.delete(CHARGES, doc._id, BigInt(doc._version ?? '-1') + 1n)) dropped++;
    if (old.length < batch) return dropped;
  }
}

/**
 * Keeps at most `max` charges in the read model: past it, the oldest (by `at`) are dropped,
 * `batch` at a time. The embedded read model lives in memory, one document per call, so
 * CHARGES_RETENTION_DAYS alone bounds it by traffic (about 1.2 KB of heap a call, kept 30 days),
 * not by a size. Returns how many were dropped.
 */
export async function pruneChargesOver(store: ReadStore, max: number, batch = 5_000): Promise<number> {
  let dropped = 0;
  for (;;) {
    const over = (await store.count(CHARGES)) - max;
    if (over <= 0) return dropped;
    const oldest = await store.find(CHARGES, {}, { sort: { at: 1 }, limit: Math.min(over, batch) });
    if (oldest.length === 0) return dropped;
    for (const doc of oldest) if (await store.delete(CHARGES, doc._id, BigInt(doc._version ?? '-1') + 1n)) dropped++;
  }
}
