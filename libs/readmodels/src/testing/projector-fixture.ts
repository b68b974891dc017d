/**
 * What the Projector specs (projector*.spec.ts) share: two sample projections over order streams,
 * and a fixture that opens a sqlite event log and a memory read store for each test, with helpers
 * that start projectors over them and append orders.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SqliteEventStore } from '@app/eventstore';
import { MemoryReadStore } from '../memory.read-store';
import type { Projection } from '../projection';
import { Projector, type ProjectorOptions } from '../projector';
import type { ReadStore } from '../read-store.port';

export type Placed = { amount: number; day: string };

/** One doc per order stream (versioned by revision); OrderCancelled deletes it. */
export const orders: Projection = {
  name: 'orders',
  version: 1,
  eventTypes: ['OrderPlaced', 'OrderPaid', 'OrderCancelled'],
  filter: { streamPrefixes: ['order-'] },
  collection: 'orders',
  versionBy: 'revision',
  ids: (e) => [e.stream.slice('order-'.length)],
  apply(doc, e) {
    if (e.type === 'OrderPlaced') return { status: 'placed', ...(e.data as Placed), events: 1 };
    if (e.type === 'OrderCancelled') return undefined;
    return doc && { ...doc, status: 'paid', events: (doc.events as number) + 1 };
  },
};

/** Sum of amounts per day across every order stream: an aggregate, versioned by position. */
export const daily: Projection = {
  name: 'daily',
  version: 1,
  eventTypes: ['OrderPlaced'],
  filter: { streamPrefixes: ['order-'] },
  collection: 'daily',
  versionBy: 'position',
  ids: (e) => [(e.data as Placed).day],
  apply: (doc, e) => ({
    total: ((doc?.total as number) ?? 0) + (e.data as Placed).amount,
    orders: ((doc?.orders as number) ?? 0) + 1,
  }),
};

export const silent = { log: () => undefined, warn: () => undefined, error: () => undefined };
export const ev = (type: string, data: Record<string, unknown> = {}) => ({ id: randomUUID(), type, data });

export let es: SqliteEventStore;
export let store: MemoryReadStore;
let dir: string;
const running: Projector[] = [];

/**
 * Opens a fresh event log (with `openLog`, the sqlite adapter the spec imports) on a temp file and
 * a fresh read store before each test of the calling block; stops its projectors and removes the
 * file after it.
 */
export function useProjectorFixture(openLog: (file: string) => SqliteEventStore): void {
  // the real sqlite adapter on a temp file
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'projector-'));
    es = openLog(join(dir, 'events.db'));
    store = new MemoryReadStore();
  });
  afterEach(async () => {
    await Promise.all(running.splice(0).map((p) => p.stop()));
    await es.close();
    rmSync(dir, { recursive: true, force: true });
  });
}

export const projector = (
  projections: Projection[] = [orders, daily],
  options: ProjectorOptions = {},
  reads: ReadStore = store,
) => {
  const p = new Projector(es, reads, projections, { logger: silent, flushMs: 5, retryDelayMs: 1, ...options });
  running.push(p);
  return p;
};
export const place = async (order: string, amount: number, day: string) =>
  (await es.append(`order-${order}`, [ev('OrderPlaced', { amount, day })], 'no_stream')).position;
export const pay = async (order: string) => (await es.append(`order-${order}`, [ev('OrderPaid')], 'any')).position;
export const docs = async (collection: string) => store.find(collection, {}, { sort: { _id: 1 } });
