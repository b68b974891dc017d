/**
 * Event rows as the sqlite adapter reads them: the columns every read selects, a row (an array,
 * see `toRecorded`) as a RecordedEvent, and a read's maxCount as a SQL LIMIT.
 */
import type Database from 'better-sqlite3';
import type { RecordedEvent } from './event-store.port';

export type Row = unknown[];
export type Statement = Database.Statement<unknown[], unknown>;

export const COLUMNS = 'position, stream, revision, id, type, data, metadata, created';

/**
 * Rows come back as arrays (`raw`): no per-row key lookups, one object per event. Integers come
 * as numbers on the fast path and as bigints on the exact path (see `readEvents`); BigInt()
 * takes either.
 */
export const toRecorded = (row: Row): RecordedEvent => ({
  id: row[3] as string,
  stream: row[1] as string,
  type: row[4] as string,
  data: JSON.parse(row[5] as string),
  metadata: row[6] === null ? {} : JSON.parse(row[6] as string),
  revision: BigInt(row[2] as number | bigint),
  position: BigInt(row[0] as number | bigint),
  created: row[7] as string,
});

/** maxCount as a SQL LIMIT: undefined (or Infinity) reads everything. */
export const limitOf = (maxCount: number | undefined): number | undefined =>
  maxCount === undefined || maxCount === Infinity ? undefined : Math.max(0, Math.floor(maxCount));
