/**
 * Appends to the sqlite event log: the revision check and the inserts in one BEGIN IMMEDIATE
 * transaction, a retried append answered with its stored result as EventStoreDB decides it, and
 * SQLite's constraint errors told as the port's errors.
 */
import type Database from 'better-sqlite3';
import {
  type AppendResult,
  type ExpectedRevision,
  type NewEvent,
  eventBytes,
  EventTooLargeError,
  MAX_APPEND_BYTES,
  WrongExpectedRevisionError,
} from './event-store.port';
import type { Row, Statement } from './sqlite.rows';

/** A committed append: its result, the rows it inserted (as a read returns them) and data_version under its lock. */
export interface Appended {
  result: AppendResult;
  inserted: Row[];
  version: unknown;
}

/**
 * Duck-typed on `code`: the native addon builds its errors with the SqliteError class of the
 * module instance that loaded it first, which fails `instanceof` in other module registries
 * (jest gives each test file its own).
 */
const isUniqueViolation = (error: unknown): error is { code: string; message: string } =>
  typeof error === 'object' && error !== null && (error as { code?: unknown }).code === 'SQLITE_CONSTRAINT_UNIQUE';

export class SqliteAppender {
  private readonly insert: Statement;
  private readonly lastOfStream: Statement;
  private readonly latestById: Statement;
  private readonly idsFrom: Statement;
  private readonly appendImmediate: (stream: string, events: NewEvent[], expected: ExpectedRevision) => AppendResult;
  /** Rows inserted by the append in progress, and data_version under its lock. */
  private inserted: Row[] = [];
  private insertedVersion: unknown;

  constructor(
    db: Database.Database,
    private readonly dataVersion: Statement,
  ) {
    this.insert = db.prepare(
      'INSERT INTO events (stream, revision, id, type, data, metadata, created) VALUES (?, ?, ?, ?, ?, ?, ?)',
    );
    this.lastOfStream = db
      .prepare('SELECT revision, position FROM events WHERE stream = ? ORDER BY revision DESC LIMIT 1')
      .raw();
    this.latestById = db
      .prepare('SELECT stream, revision, position FROM events WHERE id = ? ORDER BY position DESC LIMIT 1')
      .raw();
    this.idsFrom = db
      .prepare('SELECT id, revision, position FROM events WHERE stream = ? AND revision >= ? ORDER BY revision LIMIT ?')
      .raw();
    // The whole check-then-insert runs under the write lock taken by BEGIN IMMEDIATE.
    this.appendImmediate = db.transaction(this.appendLocked.bind(this)).immediate;
  }

  append(stream: string, events: NewEvent[], expected: ExpectedRevision): Appended {
    let result: AppendResult;
    this.inserted = [];
    try {
      result = this.appendImmediate(stream, events, expected);
    } catch (error) {
      this.inserted = [];
      throw this.appendError(error, stream, expected);
    }
    const inserted = this.inserted;
    this.inserted = [];
    return { result, inserted, version: this.insertedVersion };
  }

  /** The stream's last revision, undefined when it has no event. */
  revisionOf(stream: string): bigint | undefined {
    const last = this.lastOfStream.get(stream) as Row | undefined;
    return last ? (last[0] as bigint) : undefined;
  }

  /** Runs inside BEGIN IMMEDIATE; throwing rolls the whole batch back. */
  private appendLocked(stream: string, events: NewEvent[], expected: ExpectedRevision): AppendResult {
    const encoded = events.map((event) => ({
      metadata: event.metadata === undefined ? null : JSON.stringify(event.metadata),
      data: JSON.stringify(event.data),
    }));
    // EventStoreDB's limit, enforced here too (see MAX_APPEND_BYTES), before anything else as there.
    const bytes = encoded.reduce((sum, e, i) => sum + eventBytes(e.data, e.metadata, events[i]!.type), 0);
    if (bytes > MAX_APPEND_BYTES)
      throw new EventTooLargeError(
        stream,
        bytes,
        events.map((e) => e.type),
      );
    const last = this.lastOfStream.get(stream) as Row | undefined;
    const current = last ? (last[0] as bigint) : -1n;
    const retried = this.retried(stream, events, expected, current);
    if (retried) return retried;
    if (expected === 'no_stream' ? current !== -1n : expected !== 'any' && expected !== current) {
      throw new WrongExpectedRevisionError(stream, expected, current < 0n ? 'no_stream' : current);
    }
    if (events.length === 0) {
      return { nextExpectedRevision: current, position: last ? (last[1] as bigint) : -1n };
    }
    const created = new Date().toISOString();
    this.insertedVersion = this.dataVersion.get();
    let revision = current;
    let position = -1n;
    for (const [i, event] of events.entries()) {
      revision += 1n;
      const { metadata, data } = encoded[i]!;
      const stored = metadata === '{}' ? null : metadata;
      position = BigInt(this.insert.run(stream, revision, event.id, event.type, data, stored, created).lastInsertRowid);
      this.inserted.push([position, stream, revision, event.id, event.type, data, stored, created]);
    }
    return { nextExpectedRevision: revision, position };
  }

  /**
   * Whether the append is a retry of one already stored, decided as EventStoreDB decides it
   * (IndexWriter.CheckCommit): the stored result if so, undefined if the append is to be checked
   * and written as usual. A retry that only partly matches what is stored is refused
   * (EventStoreDB: "corrupted idempotency", answered as a wrong expected version).
   * - An expected revision (or no_stream, -1) below the current one: a retry if the stream holds
   *   these ids, in order, at the revisions right after it; else a conflict.
   * - `any`: a retry if the latest copy of each id is in this stream (EventStoreDB: while its
   *   bounded cache of recent ids holds them); if not even the first one is, a new append.
   * - The current revision (or one above it): never a retry; the same ids are written again.
   */
  private retried(
    stream: string,
    events: NewEvent[],
    expected: ExpectedRevision,
    current: bigint,
  ): AppendResult | undefined {
    if (events.length === 0) return undefined;
    const conflict = () => new WrongExpectedRevisionError(stream, expected, current < 0n ? 'no_stream' : current);
    let rows: Row[];
    if (expected === 'any') {
      rows = [];
      for (const event of events) {
        const row = this.latestById.get(event.id) as Row | undefined;
        if (!row || row[0] !== stream) {
          if (rows.length === 0) return undefined;
          throw conflict();
        }
        rows.push([event.id, row[1], row[2]]);
      }
    } else {
      const from = expected === 'no_stream' ? -1n : expected;
      if (from >= current) return undefined;
      rows = this.idsFrom.all(stream, from + 1n, events.length) as Row[];
      if (rows.length !== events.length || rows.some((row, i) => row[0] !== events[i]!.id)) throw conflict();
    }
    const last = rows[rows.length - 1]!;
    return { nextExpectedRevision: last[1] as bigint, position: last[2] as bigint };
  }

  /** A unique violation of (stream, revision): another writer got in first. */
  private appendError(error: unknown, stream: string, expected: ExpectedRevision): unknown {
    if (!isUniqueViolation(error) || !error.message.includes('events.stream')) return error;
    // Cannot happen under the IMMEDIATE lock; kept so a violated invariant still reads right.
    const last = this.lastOfStream.get(stream) as Row | undefined;
    return new WrongExpectedRevisionError(stream, expected, last ? (last[0] as bigint) : 'no_stream');
  }
}
