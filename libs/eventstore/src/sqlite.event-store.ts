import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import type {
  AllFilter,
  AppendResult,
  EventStore,
  ExpectedRevision,
  NewEvent,
  ReadAllOptions,
  ReadStreamOptions,
  RecordedEvent,
  SubscribeToAllOptions,
  SubscribeToStreamOptions,
  Subscription,
} from './event-store.port';
import { matchesFilter } from './prefix-filter';
import { allQuery } from './sqlite.all-query';
import { SqliteAppender } from './sqlite.append';
import { WalCheckpointer } from './sqlite.checkpointer';
import { LiveSubscriptions } from './sqlite.live';
import { COLUMNS, limitOf, type Row, type Statement, toRecorded } from './sqlite.rows';
import { prepareSqliteDatabase } from './sqlite.schema';
import { AppendTail } from './sqlite.tail';

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

const MAX_INT64 = 9223372036854775807n;
/** Rows per query for unbounded reads and subscriptions: bounds memory, amortises the query. */
const READ_BATCH = 4096;

/**
 * The event log in one SQLite file (WAL). Several processes may append to the same file: each
 * append is a BEGIN IMMEDIATE transaction, so writers queue on SQLite's lock (busy_timeout) and
 * the revision check and the inserts are atomic. better-sqlite3 is synchronous; the async
 * methods only satisfy the port.
 */
export class SqliteEventStore implements EventStore {
  private readonly db: Database.Database;
  private readonly statements = new Map<string, Statement>();
  private readonly appender: SqliteAppender;
  private readonly head: Statement;
  private readonly dataVersion: Statement;
  /** This process's latest appends, read by live $all subscriptions instead of the file (see AppendTail). */
  private readonly tail: AppendTail;
  private readonly subscriptions: LiveSubscriptions;
  private closed = false;
  private readonly checkpointIntervalMs: number;
  private appends = 0;
  private checkpointer: WalCheckpointer | undefined;

  constructor(filePath: string, options: SqliteEventStoreOptions = {}) {
    const pollIntervalMs = options.pollIntervalMs ?? 10;
    this.checkpointIntervalMs = filePath === ':memory:' ? 0 : (options.checkpointIntervalMs ?? 1000);
    this.db = new Database(filePath);
    try {
      prepareSqliteDatabase(this.db, options.busyTimeoutMs ?? 5000, options.synchronous);
    } catch (error) {
      this.db.close();
      throw error;
    }
    this.head = this.db.prepare('SELECT MAX(position) FROM events').pluck();
    this.dataVersion = this.db.prepare('PRAGMA data_version').pluck();
    this.appender = new SqliteAppender(this.db, this.dataVersion);
    this.tail = new AppendTail(this.dataVersion);
    this.subscriptions = new LiveSubscriptions(this.dataVersion, pollIntervalMs);
  }

  async append(stream: string, events: NewEvent[], expected: ExpectedRevision): Promise<AppendResult> {
    this.assertOpen();
    const { result, inserted, version } = this.appender.append(stream, events, expected);
    if (inserted.length > 0) this.tail.keep(inserted, version);
    // Committed: wake this process's subscribers now (other processes poll data_version).
    if (events.length > 0) this.subscriptions.wakeAll(stream, events);
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
    return this.appender.revisionOf(stream);
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
    this.assertOpen();
    return this.subscriptions.track(
      (revision) => ({ events: this.readStreamAfter(stream, revision, READ_BATCH) }),
      (event) => event.revision,
      options.after ?? -1n,
      (appended) => appended === stream,
    );
  }

  subscribeToAll(options: SubscribeToAllOptions = {}): Subscription {
    const filtered = options.filter !== undefined;
    this.assertOpen();
    return this.subscriptions.track(
      (position) => {
        const recent = this.tail.read(position, READ_BATCH, options.filter);
        if (recent)
          return {
            events: recent.events,
            scannedTo: filtered && recent.events.length < READ_BATCH ? recent.head : undefined,
          };
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
    await this.subscriptions.closeAll();
    this.closed = true;
    this.subscriptions.stopPolling();
    await this.checkpointer?.close();
    this.db.close();
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
    const { sql, params } = allQuery(filter);
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

  private assertOpen(): void {
    if (this.closed) throw new Error('event store is closed');
  }
}

/** Opens (creating the file and its parent directories when absent) a sqlite event log. */
export function openSqliteEventStore(filePath: string, options?: SqliteEventStoreOptions): SqliteEventStore {
  if (filePath !== ':memory:') mkdirSync(dirname(filePath), { recursive: true });
  return new SqliteEventStore(filePath, options);
}
