import type Database from 'better-sqlite3';

/** Bumped (with a migration in `prepareSqliteDatabase`) whenever the table layout changes. */
export const SQLITE_SCHEMA_VERSION = 2;

/**
 * The whole log in one table. `position` is the rowid, so $all reads walk the table itself in
 * order; AUTOINCREMENT guarantees a position is never reused, even after the last row is gone.
 * UNIQUE(stream, revision) is both the concurrency check and the index for stream reads, and
 * finds the events a retried append is checked against. Ids are not unique (as in EventStoreDB,
 * the same ids appended at a stream's current revision are written again); their index serves
 * the check of an `any` retry. `metadata` is NULL when empty (saves a parse per read).
 */
const createEvents = (table: string) => `
  CREATE TABLE IF NOT EXISTS ${table} (
    position INTEGER PRIMARY KEY AUTOINCREMENT,
    stream   TEXT    NOT NULL,
    revision INTEGER NOT NULL,
    id       TEXT    NOT NULL,
    type     TEXT    NOT NULL,
    data     TEXT    NOT NULL,
    metadata TEXT,
    created  TEXT    NOT NULL,
    UNIQUE (stream, revision)
  )`;
const CREATE_ID_INDEX = 'CREATE INDEX IF NOT EXISTS events_by_id ON events (id)';

/** Whether `events` is of schema 1, where ids were UNIQUE (a constraint SQLite cannot drop in place). */
function hasUniqueIds(db: Database.Database): boolean {
  const indexes = db.prepare('SELECT name, "unique" FROM pragma_index_list(\'events\')').all() as {
    name: string;
    unique: bigint | number;
  }[];
  return indexes.some(({ name, unique }) => {
    if (Number(unique) !== 1) return false;
    const columns = db.prepare('SELECT name FROM pragma_index_info(?)').pluck().all(name);
    return columns.length === 1 && columns[0] === 'id';
  });
}

/**
 * Schema 1 to 2: the table is copied into one without UNIQUE(id), positions and the AUTOINCREMENT
 * high-water mark kept. Runs once, under the write lock; it takes as long as copying the log.
 */
function dropUniqueIds(db: Database.Database): void {
  const sequence = db.prepare("SELECT seq FROM sqlite_sequence WHERE name = 'events'").pluck();
  const highWater = sequence.get() as bigint | undefined;
  db.exec(createEvents('events_v2'));
  db.exec(
    'INSERT INTO events_v2 (position, stream, revision, id, type, data, metadata, created) ' +
      'SELECT position, stream, revision, id, type, data, metadata, created FROM events ORDER BY position',
  );
  db.exec('DROP TABLE events');
  db.exec('ALTER TABLE events_v2 RENAME TO events'); // renames its sqlite_sequence row too
  if (highWater === undefined) return;
  if (sequence.get() === undefined) {
    db.prepare("INSERT INTO sqlite_sequence (name, seq) VALUES ('events', ?)").run(highWater);
  } else {
    db.prepare("UPDATE sqlite_sequence SET seq = MAX(seq, ?) WHERE name = 'events'").run(highWater);
  }
}

/**
 * Connection settings and schema. busy_timeout comes first so that every later step waits for
 * a lock held by another process instead of failing. WAL lets readers run beside the single
 * writer; synchronous=NORMAL is durable against process crashes (kill -9) and only risks the
 * last transactions on power loss, for a large gain in append throughput.
 */
export function prepareSqliteDatabase(
  db: Database.Database,
  busyTimeoutMs: number,
  synchronous: 'NORMAL' | 'FULL' = 'NORMAL',
): void {
  db.pragma(`busy_timeout = ${busyTimeoutMs}`);
  if (db.name !== ':memory:') db.pragma('journal_mode = WAL');
  db.pragma(`synchronous = ${synchronous === 'FULL' ? 'FULL' : 'NORMAL'}`);
  // The index on ids takes random uuids, so each batch dirties pages all over it. A larger
  // cache and rarer checkpoints (about 40 MiB of WAL instead of 4) let a page hit by many
  // batches be written back once: measured 1.4x the batch-append throughput.
  db.pragma('cache_size = -65536');
  db.pragma('wal_autocheckpoint = 10000');
  db.pragma('journal_size_limit = 67108864');
  // Every integer (position, revision, data_version) comes back as a bigint: no 2^53 limit.
  db.defaultSafeIntegers(true);
  db.transaction(() => {
    const version = Number(db.pragma('user_version', { simple: true }));
    if (version > SQLITE_SCHEMA_VERSION) {
      throw new Error(`event log schema version ${version} is newer than this code (${SQLITE_SCHEMA_VERSION})`);
    }
    if (version < 2 && hasUniqueIds(db)) dropUniqueIds(db);
    db.exec(createEvents('events'));
    db.exec(CREATE_ID_INDEX);
    if (version < SQLITE_SCHEMA_VERSION) db.pragma(`user_version = ${SQLITE_SCHEMA_VERSION}`);
  }).immediate();
}
