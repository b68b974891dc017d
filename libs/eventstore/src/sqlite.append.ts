/**
 * Appends to the sqlite event log: the revision check and the inserts in one BEGIN IMMEDIATE
 * transaction, a retried append answered with its stored result, and SQLite's constraint errors
 * told as the port's errors.
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
  private readonly byId: Statement;
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
    this.byId = db.prepare('SELECT stream, revision FROM events WHERE id = ?').raw();
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
      throw this.appendError(error, stream, events, expected);
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
    if (events.length > 0) {
      const stored = this.byId.get(events[0].id) as Row | undefined;
      if (stored) return this.repeatedAppend(stream, events, expected, stored);
    }
    const last = this.lastOfStream.get(stream) as Row | undefined;
    const current = last ? (last[0] as bigint) : undefined;
    if (expected === 'no_stream' ? current !== undefined : expected !== 'any' && expected !== current) {
      throw new WrongExpectedRevisionError(stream, expected, current ?? 'no_stream');
    }
    if (events.length === 0) {
      return { nextExpectedRevision: current ?? -1n, position: last ? (last[1] as bigint) : -1n };
    }
    const created = new Date().toISOString();
    const encoded = events.map((event) => ({
      metadata: event.metadata === undefined ? null : JSON.stringify(event.metadata),
      data: JSON.stringify(event.data),
    }));
    // EventStoreDB's limit, enforced here too (see MAX_APPEND_BYTES).
    const bytes = encoded.reduce((sum, e, i) => sum + eventBytes(e.data, e.metadata, events[i]!.type), 0);
    if (bytes > MAX_APPEND_BYTES)
      throw new EventTooLargeError(
        stream,
        bytes,
        events.map((e) => e.type),
      );
    this.insertedVersion = this.dataVersion.get();
    let revision = current ?? -1n;
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
   * The first id is already stored: a retry of an append that succeeded (like EventStoreDB,
   * answer with the stored result), unless the batch only partly matches what is stored.
   */
  private repeatedAppend(stream: string, events: NewEvent[], expected: ExpectedRevision, stored: Row): AppendResult {
    const [storedStream, firstRevision] = stored as [string, bigint];
    if (storedStream !== stream) {
      throw new Error(`event id ${events[0].id} is already stored in stream ${storedStream}, not ${stream}`);
    }
    const rows = this.idsFrom.all(stream, firstRevision, events.length) as Row[];
    if (rows.length === events.length && rows.every((row, i) => row[0] === events[i].id)) {
      const last = rows[rows.length - 1];
      return { nextExpectedRevision: last[1] as bigint, position: last[2] as bigint };
    }
    const current = (this.lastOfStream.get(stream) as Row)[0] as bigint;
    throw new WrongExpectedRevisionError(stream, expected, current);
  }

  private appendError(error: unknown, stream: string, events: NewEvent[], expected: ExpectedRevision): unknown {
    if (!isUniqueViolation(error)) return error;
    if (error.message.includes('events.stream')) {
      // Cannot happen under the IMMEDIATE lock; kept so a violated invariant still reads right.
      const last = this.lastOfStream.get(stream) as Row | undefined;
      return new WrongExpectedRevisionError(stream, expected, last ? (last[0] as bigint) : 'no_stream');
    }
    const ids = events.map((event) => event.id).join(', ');
    return new Error(`append to ${stream}: an event id is repeated or already stored elsewhere (${ids})`, {
      cause: error,
    });
  }
}
