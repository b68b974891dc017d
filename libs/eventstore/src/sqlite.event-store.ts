import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import {
  type AllFilter,
  type AppendResult,
  type EventStore,
  type ExpectedRevision,
  type NewEvent,
  type ReadAllOptions,
  type ReadStreamOptions,
  type RecordedEvent,
  type SubscribeToAllOptions,
  type SubscribeToStreamOptions,
  type Subscription,
  EventTooLargeError,
  MAX_APPEND_BYTES,
  WrongExpectedRevisionError,
} from './event-store.port';
import { activePrefixes, matchesFilter, prefixUpperBound } from './prefix-filter';
import { WalCheckpointer } from './sqlite.checkpointer';
import { prepareSqliteDatabase } from './sqlite.schema';
import { type ChangeSource, type EventWanted, type Pull, SqliteSubscription } from './sqlite.subscription';

export interface SqliteEventStoreOptions {
  /** How long an append waits for another process's write lock before failing. */
  busyTimeoutMs?: number;
  /** How often live subscriptions look for appends made by other processes. */
  pollIntervalMs?: number;
  /**
   * NORMAL (default) survives process crashes; FULL also survives power loss, at the cost of
   * an fsync per append.
   */
  synchronous?: 'NORMAL' | 'FULL';
  /**
   * How often a worker thread checkpoints the WAL (see WalCheckpointer), once this store has
   * appended CHECKPOINTER_AFTER times; 0 leaves checkpoints to SQLite, inside the appending commit.
   */
  checkpointIntervalMs?: number;
}

/** Appends before checkpoints move to a worker thread: a store that appends a handful (a CLI call, most tests) never starts one. */
const CHECKPOINTER_AFTER = 256;
/** SQLite's automatic checkpoint threshold, in pages, when this thread checkpoints (see sqlite.schema). */
const AUTO_CHECKPOINT_PAGES = 10_000;

type Row = unknown[];
type Statement = Database.Statement<unknown[], unknown>;

const COLUMNS = 'position, stream, revision, id, type, data, metadata, created';
const MAX_INT64 = 9223372036854775807n;
/** Rows per query for unbounded reads and subscriptions: bounds memory, amortises the query. */
const READ_BATCH = 4096;
/** This process's latest appends kept for live $all subscriptions (see `tail`). */
const TAIL_EVENTS = 1024;

/**
 * Rows come back as arrays (`raw`): no per-row key lookups, one object per event. Integers come
 * as numbers on the fast path and as bigints on the exact path (see `readEvents`); BigInt()
 * takes either.
 */
const toRecorded = (row: Row): RecordedEvent => ({
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
const limitOf = (maxCount: number | undefined): number | undefined =>
  maxCount === undefined || maxCount === Infinity ? undefined : Math.max(0, Math.floor(maxCount));

/**
 * Duck-typed on `code`: the native addon builds its errors with the SqliteError class of the
 * module instance that loaded it first, which fails `instanceof` in other module registries
 * (jest gives each test file its own).
 */
const isUniqueViolation = (error: unknown): error is { code: string; message: string } =>
  typeof error === 'object' && error !== null && (error as { code?: unknown }).code === 'SQLITE_CONSTRAINT_UNIQUE';

/**
 * The event log in one SQLite file (WAL). Several processes may append to the same file: each
 * append is a BEGIN IMMEDIATE transaction, so writers queue on SQLite's lock (busy_timeout) and
 * the revision check and the inserts are atomic. better-sqlite3 is synchronous; the async
 * methods only satisfy the port.
 */
export class SqliteEventStore implements EventStore {
  private readonly db: Database.Database;
  private readonly statements = new Map<string, Statement>();
  private readonly insert: Statement;
  private readonly lastOfStream: Statement;
  private readonly byId: Statement;
  private readonly idsFrom: Statement;
  private readonly head: Statement;
  private readonly dataVersion: Statement;
  private readonly appendImmediate: (stream: string, events: NewEvent[], expected: ExpectedRevision) => AppendResult;

  private readonly live = new Set<SqliteSubscription>();
  /**
   * This process's latest appended rows (as a read returns them), in position order with no gap,
   * and the data_version seen right after the last of them was committed. While data_version has
   * not moved since, no other connection has committed: the log ends with these rows, and a live
   * $all subscription reads what it has not yet seen from here instead of querying the file.
   */
  private tail: Row[] = [];
  private tailVersion: unknown;
  /** Rows inserted by the append in progress, kept in `tail` once it commits, and data_version under its lock. */
  private inserted: Row[] = [];
  private insertedVersion: unknown;
  /** Sleeping subscriptions, each with what it reads (none: every change wakes it). */
  private readonly waiting = new Map<() => void, EventWanted | undefined>();
  private readonly pollIntervalMs: number;
  private poller: NodeJS.Timeout | undefined;
  private lastDataVersion: unknown;
  private closed = false;
  private readonly checkpointIntervalMs: number;
  private appends = 0;
  private checkpointer: WalCheckpointer | undefined;

  constructor(filePath: string, options: SqliteEventStoreOptions = {}) {
    this.pollIntervalMs = options.pollIntervalMs ?? 10;
    this.checkpointIntervalMs = filePath === ':memory:' ? 0 : (options.checkpointIntervalMs ?? 1000);
    this.db = new Database(filePath);
    try {
      prepareSqliteDatabase(this.db, options.busyTimeoutMs ?? 5000, options.synchronous);
    } catch (error) {
      this.db.close();
      throw error;
    }
    this.insert = this.db.prepare(
      'INSERT INTO events (stream, revision, id, type, data, metadata, created) VALUES (?, ?, ?, ?, ?, ?, ?)',
    );
    this.lastOfStream = this.db
      .prepare('SELECT revision, position FROM events WHERE stream = ? ORDER BY revision DESC LIMIT 1')
      .raw();
    this.byId = this.db.prepare('SELECT stream, revision FROM events WHERE id = ?').raw();
    this.idsFrom = this.db
      .prepare('SELECT id, revision, position FROM events WHERE stream = ? AND revision >= ? ORDER BY revision LIMIT ?')
      .raw();
    this.head = this.db.prepare('SELECT MAX(position) FROM events').pluck();
    this.dataVersion = this.db.prepare('PRAGMA data_version').pluck();
    // The whole check-then-insert runs under the write lock taken by BEGIN IMMEDIATE.
    this.appendImmediate = this.db.transaction(this.appendLocked.bind(this)).immediate;
  }

  async append(stream: string, events: NewEvent[], expected: ExpectedRevision): Promise<AppendResult> {
    this.assertOpen();
    let result: AppendResult;
    this.inserted = [];
    try {
      result = this.appendImmediate(stream, events, expected);
    } catch (error) {
      this.inserted = [];
      throw this.appendError(error, stream, events, expected);
    }
    if (this.inserted.length > 0) this.keepTail(this.inserted);
    // Committed: wake this process's subscribers now (other processes poll data_version).
    if (events.length > 0) this.wakeAll(stream, events);
    if (++this.appends === CHECKPOINTER_AFTER && this.checkpointIntervalMs > 0) this.startCheckpointer();
    return result;
  }

  /** Whether WAL checkpoints run on a worker thread (see WalCheckpointer). */
  get checkpointsOffThread(): boolean {
    return this.checkpointer?.running ?? false;
  }

  private startCheckpointer(): void {
    this.checkpointer = WalCheckpointer.start(this.db.name, this.checkpointIntervalMs, () => {
      if (!this.closed) this.db.pragma(`wal_autocheckpoint = ${AUTO_CHECKPOINT_PAGES}`);
    });
    this.db.pragma('wal_autocheckpoint = 0');
  }

  async readStream(stream: string, options: ReadStreamOptions = {}): Promise<RecordedEvent[]> {
    this.assertOpen();
    const limit = limitOf(options.maxCount) ?? -1;
    if (limit === 0) return [];
    if (options.direction === 'backwards') {
      return this.readEvents(
        `SELECT ${COLUMNS} FROM events WHERE stream = ? AND revision <= ? ORDER BY revision DESC LIMIT ?`,
        [stream, options.fromRevision ?? MAX_INT64, limit],
      );
    }
    return this.readStreamAfter(stream, (options.fromRevision ?? 0n) - 1n, limit);
  }

  async streamRevision(stream: string): Promise<bigint | undefined> {
    this.assertOpen();
    const last = this.lastOfStream.get(stream) as Row | undefined;
    return last ? (last[0] as bigint) : undefined;
  }

  async readAll(options: ReadAllOptions = {}): Promise<RecordedEvent[]> {
    this.assertOpen();
    return this.readAllAfter(options.after ?? -1n, limitOf(options.maxCount), options.filter);
  }

  async headPosition(): Promise<bigint> {
    this.assertOpen();
    return (this.head.get() as bigint | null) ?? -1n;
  }

  subscribeToStream(stream: string, options: SubscribeToStreamOptions = {}): Subscription {
    return this.track(
      (revision) => ({ events: this.readStreamAfter(stream, revision, READ_BATCH) }),
      (event) => event.revision,
      options.after ?? -1n,
      (appended) => appended === stream,
    );
  }

  subscribeToAll(options: SubscribeToAllOptions = {}): Subscription {
    const filtered = options.filter !== undefined;
    return this.track(
      (position) => {
        const recent = this.readTail(position, READ_BATCH, options.filter);
        if (recent) return { events: recent.events, scannedTo: filtered && recent.events.length < READ_BATCH ? recent.head : undefined };
        // Head read BEFORE the query: the query's later snapshot surely covers every row up to it.
        const head = filtered ? ((this.head.get() as bigint | null) ?? -1n) : undefined;
        const events = this.readAllAfter(position, READ_BATCH, options.filter);
        return { events, scannedTo: events.length < READ_BATCH ? head : undefined };
      },
      (event) => event.position,
      options.after ?? -1n,
      filtered ? (stream, type) => matchesFilter(options.filter, stream, type) : undefined,
    );
  }

  async ping(): Promise<void> {
    this.assertOpen();
    this.cached('SELECT 1').get();
  }

  async close(): Promise<void> {
    if (this.closed) return;
    // Subscriptions first, so no loop reads the database after it is closed.
    await Promise.all([...this.live].map((subscription) => subscription.close()));
    this.closed = true;
    this.stopPolling();
    await this.checkpointer?.close();
    this.db.close();
  }

  // ---- appends ----

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
    const encoded = events.map((event) => ({ metadata: event.metadata === undefined ? null : JSON.stringify(event.metadata), data: JSON.stringify(event.data) }));
    // EventStoreDB's limit, enforced here too (see MAX_APPEND_BYTES).
    const bytes = encoded.reduce((sum, e, i) => sum + Buffer.byteLength(e.data) + (e.metadata === null ? 0 : Buffer.byteLength(e.metadata)) + Buffer.byteLength(events[i]!.type) + 36, 0);
    if (bytes > MAX_APPEND_BYTES) throw new EventTooLargeError(stream, bytes, events.map((e) => e.type));
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
    return new Error(`append to ${stream}: an event id is repeated or already stored elsewhere (${ids})`, { cause: error });
  }

  // ---- this process's tail ----

  private keepTail(rows: Row[]): void {
    // Read under the append's write lock: no other connection could commit between it and ours.
    const version = this.insertedVersion;
    const last = this.tail[this.tail.length - 1];
    // Another connection committed since our last append, or left a gap: the tail starts anew.
    if (last && (version !== this.tailVersion || (rows[0][0] as bigint) !== (last[0] as bigint) + 1n)) this.tail = [];
    this.tail.push(...rows);
    if (this.tail.length > TAIL_EVENTS) this.tail.splice(0, this.tail.length - TAIL_EVENTS);
    this.inserted = [];
    this.tailVersion = version;
  }

  /**
   * The events after `after` (up to `limit`, those the filter takes) and the log's head, from the
   * tail; undefined when the tail cannot answer (it does not reach back to `after`, or another
   * connection has committed since).
   */
  private readTail(after: bigint, limit: number, filter: AllFilter | undefined): { events: RecordedEvent[]; head: bigint } | undefined {
    const tail = this.tail;
    if (tail.length === 0 || (tail[0][0] as bigint) > after + 1n) return undefined;
    if (this.dataVersion.get() !== this.tailVersion) {
      this.tail = [];
      return undefined;
    }
    const events: RecordedEvent[] = [];
    // Positions in the tail have no gap: the first after `after` is found by arithmetic.
    for (let i = Math.max(0, Number(after + 1n - (tail[0][0] as bigint))); i < tail.length && events.length < limit; i++) {
      const row = tail[i];
      if (filter && !matchesFilter(filter, row[1] as string, row[4] as string)) continue;
      events.push(toRecorded(row));
    }
    return { events, head: tail[tail.length - 1][0] as bigint };
  }

  // ---- reads ----

  /** One prepared statement per distinct SQL text (filters vary in shape) and integer mode. */
  private cached(sql: string, exactIntegers = true): Statement {
    const key = exactIntegers ? sql : `fast:${sql}`;
    let statement = this.statements.get(key);
    if (!statement) {
      statement = this.db.prepare(sql);
      if (statement.reader) statement.raw().safeIntegers(exactIntegers);
      this.statements.set(key, statement);
    }
    return statement;
  }

  /**
   * Reads events with integers as JS numbers, which halves the fetch cost (building a bigint in
   * the addon is slow), and converts them with BigInt(). A number is exact below 2^53; a row
   * whose position is beyond (and so possibly rounded) sends the whole read down the exact
   * bigint path. Checking the position suffices: a revision is always below its position.
   */
  private readEvents(sql: string, params: unknown[]): RecordedEvent[] {
    const rows = this.cached(sql, false).all(...params) as Row[];
    const events = new Array<RecordedEvent>(rows.length);
    for (let i = 0; i < rows.length; i++) {
      if (!Number.isSafeInteger(rows[i][0])) return (this.cached(sql).all(...params) as Row[]).map(toRecorded);
      events[i] = toRecorded(rows[i]);
    }
    return events;
  }

  private readStreamAfter(stream: string, revision: bigint, limit: number): RecordedEvent[] {
    return this.readEvents(
      `SELECT ${COLUMNS} FROM events WHERE stream = ? AND revision > ? ORDER BY revision LIMIT ?`,
      [stream, revision, limit],
    );
  }

  /** Reads in batches of READ_BATCH rows, so an unbounded read never holds two copies of the log. */
  private readAllAfter(after: bigint, maxCount: number | undefined, filter: AllFilter | undefined): RecordedEvent[] {
    const { sql, params } = this.allQuery(filter);
    let out: RecordedEvent[] | undefined;
    let cursor = after;
    for (;;) {
      const want = maxCount === undefined ? READ_BATCH : Math.min(READ_BATCH, maxCount - (out?.length ?? 0));
      if (want <= 0) return out ?? [];
      const batch = this.readEvents(sql, [cursor, ...params, want]);
      if (out === undefined) out = batch;
      else for (let i = 0; i < batch.length; i++) out.push(batch[i]);
      if (batch.length < want) return out;
      cursor = out[out.length - 1].position;
    }
  }

  /**
   * $all query with the filter as range conditions (`x >= prefix AND x < upper`) that SQLite
   * evaluates while walking the rowid in position order. The `+` keeps the planner from choosing
   * the (stream, revision) index for a prefix: that plan sorts every matching row to return a
   * batch, which makes a catch-up over a broad prefix quadratic.
   */
  private allQuery(filter: AllFilter | undefined): { sql: string; params: string[] } {
    const params: string[] = [];
    const clauses: string[] = [];
    const dimension = (column: string, prefixes: readonly string[] | undefined): void => {
      if (!prefixes) return;
      const ranges = prefixes.map((prefix) => {
        const upper = prefixUpperBound(prefix);
        params.push(prefix);
        if (upper === undefined) return `+${column} >= ?`;
        params.push(upper);
        return `(+${column} >= ? AND +${column} < ?)`;
      });
      clauses.push(`(${ranges.join(' OR ')})`);
    };
    dimension('stream', activePrefixes(filter?.streamPrefixes));
    dimension('type', activePrefixes(filter?.eventTypePrefixes));
    const where = ['position > ?', ...clauses].join(' AND ');
    return { sql: `SELECT ${COLUMNS} FROM events WHERE ${where} ORDER BY position LIMIT ?`, params };
  }

  // ---- live subscriptions ----

  private readonly changes: ChangeSource = {
    onNextChange: (wake, wants) => this.waiting.set(wake, wants),
    cancelWake: (wake) => this.waiting.delete(wake),
    released: (subscription) => {
      this.live.delete(subscription);
      if (this.live.size === 0) this.stopPolling();
    },
  };

  private track(
    readAfter: (cursor: bigint) => Pull,
    cursorOf: (event: RecordedEvent) => bigint,
    start: bigint,
    wants?: EventWanted,
  ): Subscription {
    this.assertOpen();
    const subscription = new SqliteSubscription(this.changes, readAfter, cursorOf, start, wants);
    this.live.add(subscription);
    this.startPolling();
    return subscription;
  }

  /**
   * Wakes the sleeping subscriptions: all of them for a change another process made (its events
   * are unknown here), only those reading one of `events` for an append made in this process.
   */
  private wakeAll(stream?: string, events?: readonly NewEvent[]): void {
    if (this.waiting.size === 0) return;
    const woken: Array<() => void> = [];
    for (const [wake, wants] of this.waiting) {
      if (stream !== undefined && events && wants && !events.some((event) => wants(stream, event.type))) continue;
      woken.push(wake);
    }
    for (const wake of woken) this.waiting.delete(wake);
    for (const wake of woken) wake();
  }

  /**
   * Appends by other connections (other processes) are noticed through PRAGMA data_version,
   * which changes whenever another connection commits: one cheap query per tick, one timer
   * per store, unref'd so it never keeps the process alive.
   */
  private startPolling(): void {
    if (this.poller) return;
    this.lastDataVersion = this.dataVersion.get();
    this.poller = setInterval(() => {
      if (this.waiting.size === 0) return; // busy subscribers read anyway; a stale baseline only causes one spurious wake
      const version = this.dataVersion.get();
      if (version !== this.lastDataVersion) {
        this.lastDataVersion = version;
        this.wakeAll();
      }
    }, this.pollIntervalMs);
    this.poller.unref();
  }

  private stopPolling(): void {
    if (this.poller) clearInterval(this.poller);
    this.poller = undefined;
  }

  private assertOpen(): void {
    if (this.closed) throw new Error('event store is closed');
  }
}

/** Opens (creating the file and its parent directories when absent) a sqlite event log. */
export function openSqliteEventStore(filePath: string, options?: SqliteEventStoreOptions): SqliteEventStore {
  if (filePath !== ':memory:') mkdirSync(dirname(filePath), { recursive: true });
  return new SqliteEventStore(filePath, options);
}
