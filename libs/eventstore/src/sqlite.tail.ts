/**
 * This process's latest appends to the sqlite event log, kept so that a live $all subscription
 * reads what it has not yet seen from memory while no other connection has committed.
 */
import type { AllFilter, RecordedEvent } from './event-store.port';
import { matchesFilter } from './prefix-filter';
import { type Row, type Statement, toRecorded } from './sqlite.rows';

/** This process's latest appends kept for live $all subscriptions. */
const TAIL_EVENTS = 1024;

export class AppendTail {
  /**
   * This process's latest appended rows (as a read returns them), in position order with no gap,
   * and the data_version seen right after the last of them was committed. While data_version has
   * not moved since, no other connection has committed: the log ends with these rows, and a live
   * $all subscription reads what it has not yet seen from here instead of querying the file.
   */
  private tail: Row[] = [];
  private tailVersion: unknown;

  constructor(private readonly dataVersion: Statement) {}

  /**
   * Keeps an append's rows. `version` is data_version read under the append's write lock: no other
   * connection could commit between it and ours.
   */
  keep(rows: Row[], version: unknown): void {
    const last = this.tail[this.tail.length - 1];
    // Another connection committed since our last append, or left a gap: the tail starts anew.
    if (last && (version !== this.tailVersion || (rows[0][0] as bigint) !== (last[0] as bigint) + 1n)) this.tail = [];
    this.tail.push(...rows);
    if (this.tail.length > TAIL_EVENTS) this.tail.splice(0, this.tail.length - TAIL_EVENTS);
    this.tailVersion = version;
  }

  /**
   * The events after `after` (up to `limit`, those the filter takes) and the log's head, from the
   * tail; undefined when the tail cannot answer (it does not reach back to `after`, or another
   * connection has committed since).
   */
  read(
    after: bigint,
    limit: number,
    filter: AllFilter | undefined,
  ): { events: RecordedEvent[]; head: bigint } | undefined {
    const tail = this.tail;
    if (tail.length === 0 || (tail[0][0] as bigint) > after + 1n) return undefined;
    if (this.dataVersion.get() !== this.tailVersion) {
      this.tail = [];
      return undefined;
    }
    const events: RecordedEvent[] = [];
    // Positions in the tail have no gap: the first after `after` is found by arithmetic.
    for (
      let i = Math.max(0, Number(after + 1n - (tail[0][0] as bigint)));
      i < tail.length && events.length < limit;
      i++
    ) {
      const row = tail[i];
      if (filter && !matchesFilter(filter, row[1] as string, row[4] as string)) continue;
      events.push(toRecorded(row));
    }
    return { events, head: tail[tail.length - 1][0] as bigint };
  }
}
