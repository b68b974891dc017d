import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { eventStoreContract } from './testing/event-store.contract';
import type { NewEvent, RecordedEvent, Subscription } from './event-store.port';
import { openSqliteEventStore, SqliteEventStore } from './sqlite.event-store';

const tempDir = () => mkdtempSync(join(tmpdir(), 'sqlite-event-store-'));
const event = (type = 'Happened', data: Record<string, unknown> = {}): NewEvent => ({ id: randomUUID(), type, data });
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

async function take(subscription: Subscription, count: number, ms = 10_000): Promise<RecordedEvent[]> {
  const received: RecordedEvent[] = [];
  const timer = setTimeout(() => void subscription.close(), ms);
  for await (const recorded of subscription) {
    received.push(recorded);
    if (received.length === count) break; // breaking out closes the subscription
  }
  clearTimeout(timer);
  return received;
}

eventStoreContract('sqlite', async () => {
  const dir = tempDir();
  const store = openSqliteEventStore(join(dir, 'nested', 'dirs', 'events.db'));
  return {
    store,
    cleanup: async () => {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
});

describe('SqliteEventStore specifics', () => {
  let dir: string;
  let file: string;
  let store: SqliteEventStore;

  beforeEach(() => {
    dir = tempDir();
    file = join(dir, 'events.db');
    store = openSqliteEventStore(file);
  });
  afterEach(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('uses WAL, synchronous=NORMAL and a busy timeout', () => {
    const db = new Database(file);
    try {
      expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    } finally {
      db.close();
    }
    const settings = (store as unknown as { db: Database.Database }).db;
    expect(settings.pragma('synchronous', { simple: true })).toBe(1n); // NORMAL
    expect(settings.pragma('busy_timeout', { simple: true })).toBe(5000n);
  });

  it('moves WAL checkpoints to a worker thread once it appends steadily, and takes them back if the worker stops', async () => {
    await store.close();
    store = openSqliteEventStore(file, { checkpointIntervalMs: 50 });
    const db = (store as unknown as { db: Database.Database }).db;
    const autoCheckpoint = () => db.pragma('wal_autocheckpoint', { simple: true });
    expect(autoCheckpoint()).toBe(10_000n);
    for (let i = 0; i < 200; i++)
      await store.append(`s-${i}`, [event('Happened', { pad: 'x'.repeat(2_000) })], 'no_stream');
    // A few appends (a CLI call) never start a thread.
    expect(store.checkpointsOffThread).toBe(false);
    const before = statSync(file).size;
    for (let i = 200; i < 300; i++)
      await store.append(`s-${i}`, [event('Happened', { pad: 'x'.repeat(2_000) })], 'no_stream');
    expect(store.checkpointsOffThread).toBe(true);
    expect(autoCheckpoint()).toBe(0n);
    // The worker copies the WAL's pages into the database file (this connection never checkpoints now).
    // (Waited for in full: a checkpoint under load may copy the pages in more than one pass.)
    const copied = before + 300 * 2_000;
    const deadline = Date.now() + 10_000;
    while (statSync(file).size <= copied && Date.now() < deadline) await sleep(20);
    expect(statSync(file).size).toBeGreaterThan(copied);
    // The worker gone, this connection checkpoints again.
    await (
      store as unknown as { checkpointer: { worker: { terminate(): Promise<number> } } }
    ).checkpointer.worker.terminate();
    while (store.checkpointsOffThread && Date.now() < deadline) await sleep(10);
    expect(store.checkpointsOffThread).toBe(false);
    expect(autoCheckpoint()).toBe(10_000n);
    expect(await store.readAll()).toHaveLength(300);
  });

  it('can trade append speed for power-loss durability with synchronous=FULL', async () => {
    const full = openSqliteEventStore(join(dir, 'full.db'), { synchronous: 'FULL' });
    try {
      expect((full as unknown as { db: Database.Database }).db.pragma('synchronous', { simple: true })).toBe(2n);
      expect((await full.append('s', [event()], 'no_stream')).nextExpectedRevision).toBe(0n);
    } finally {
      await full.close();
    }
  });

  it('reports -1n for an empty log, then exactly the last appended position', async () => {
    expect(await store.headPosition()).toBe(-1n);
    const result = await store.append('s', [event(), event()], 'no_stream');
    expect(await store.headPosition()).toBe(result.position);
  });

  it('keeps the log across close and reopen', async () => {
    await store.append('a', [event('One', { n: 1 }), event('Two', { n: 2 })], 'no_stream');
    const before = await store.readAll();
    await store.close();
    store = openSqliteEventStore(file);
    expect(await store.readAll()).toEqual(before);
    expect((await store.append('a', [event()], 1n)).nextExpectedRevision).toBe(2n);
  });

  it('keeps 64-bit positions exact beyond 2^53', async () => {
    await store.append('seed', [event()], 'no_stream');
    const db = new Database(file);
    db.prepare("UPDATE sqlite_sequence SET seq = 9007199254740992 WHERE name = 'events'").run(); // 2^53
    db.close();
    const result = await store.append('big', [event(), event()], 'no_stream');
    expect(result.position).toBe(9007199254740994n);
    const [first, second] = await store.readStream('big');
    expect(first.position).toBe(9007199254740993n); // not representable as a JS number
    expect(second.position).toBe(9007199254740994n);
    expect((await store.readAll({ after: 9007199254740993n })).map((e) => e.position)).toEqual([9007199254740994n]);
    const live = await take(store.subscribeToAll({ after: 9007199254740993n }), 1);
    expect(live.map((e) => e.id)).toEqual([second.id]);
  });

  it('writes an id stored in another stream, as EventStoreDB does; an any retry is recognised by the latest copy', async () => {
    const shared = event();
    const inA = await store.append('a', [shared], 'no_stream');
    const inB = await store.append('b', [event(), shared], 'no_stream');
    expect((await store.readStream('b')).map((e) => e.id)).toEqual([expect.any(String), shared.id]);
    // With any, a retry is one whose ids' latest copies are in the stream (EventStoreDB's id cache).
    expect(await store.append('b', [shared], 'any')).toEqual(inB);
    const again = await store.append('a', [shared], 'any'); // its latest copy is in b: written
    expect(again.nextExpectedRevision).toBe(1n);
    expect(again.position).toBeGreaterThan(inA.position);
  });

  it('maps a (stream, revision) unique violation, raised through another better-sqlite3 module instance', async () => {
    // The addon builds errors with the first-loaded module's class (jest: another registry).
    jest.isolateModules(() => {
      const Other = require('better-sqlite3') as typeof Database;
      new Other(':memory:').close();
    });
    // Another writer's row at the same revision, slipped in (by a trigger) after the check: the
    // lock rules it out, but should it happen, it reads as the conflict it is.
    const db = (store as unknown as { db: Database.Database }).db;
    db.exec(`CREATE TRIGGER raced BEFORE INSERT ON events WHEN NEW.stream = 'raced' AND NEW.id != 'other'
      BEGIN INSERT INTO events (stream, revision, id, type, data, created) VALUES ('raced', NEW.revision, 'other', 'T', '{}', ''); END`);
    await expect(store.append('raced', [event()], 'no_stream')).rejects.toMatchObject({
      name: 'WrongExpectedRevisionError',
      stream: 'raced',
    });
    db.exec('DROP TRIGGER raced');
    expect(await store.readStream('raced')).toEqual([]);
  });

  it('moves a schema-1 log (UNIQUE ids) to schema 2, keeping positions and the position high-water mark', async () => {
    await store.close();
    rmSync(file, { force: true });
    const old = new Database(file);
    old.exec(`CREATE TABLE events (
      position INTEGER PRIMARY KEY AUTOINCREMENT, stream TEXT NOT NULL, revision INTEGER NOT NULL,
      id TEXT NOT NULL UNIQUE, type TEXT NOT NULL, data TEXT NOT NULL, metadata TEXT, created TEXT NOT NULL,
      UNIQUE (stream, revision))`);
    const rows = [event(), event(), event()];
    const insert = old.prepare('INSERT INTO events VALUES (?, ?, ?, ?, ?, ?, NULL, ?)');
    insert.run(5, 'a', 0, rows[0].id, 'Happened', '{"n":0}', '2024-01-01T00:00:00.000Z');
    insert.run(6, 'a', 1, rows[1].id, 'Happened', '{"n":1}', '2024-01-01T00:00:00.000Z');
    insert.run(9, 'b', 0, rows[2].id, 'Happened', '{"n":2}', '2024-01-01T00:00:00.000Z');
    old.exec("UPDATE sqlite_sequence SET seq = 20 WHERE name = 'events'"); // rows 10..20 were rolled back
    old.pragma('user_version = 1');
    old.close();

    store = openSqliteEventStore(file);
    const all = await store.readAll();
    expect(all.map((e) => [e.position, e.stream, e.revision, e.id, e.data])).toEqual([
      [5n, 'a', 0n, rows[0].id, { n: 0 }],
      [6n, 'a', 1n, rows[1].id, { n: 1 }],
      [9n, 'b', 0n, rows[2].id, { n: 2 }],
    ]);
    const repeated = await store.append('a', [rows[0]], 1n); // the same id at the current revision
    expect(repeated).toEqual({ nextExpectedRevision: 2n, position: 21n });
    const db = (store as unknown as { db: Database.Database }).db;
    expect(db.pragma('user_version', { simple: true })).toBe(2n);
    expect(
      db.prepare("SELECT name, \"unique\" FROM pragma_index_list('events') WHERE name = 'events_by_id'").all(),
    ).toEqual([{ name: 'events_by_id', unique: 0n }]);
  });

  it('rejects a batch that only partly repeats stored events', async () => {
    const first = event();
    await store.append('a', [first], 'no_stream');
    await expect(store.append('a', [first, event()], 'no_stream')).rejects.toMatchObject({
      name: 'WrongExpectedRevisionError',
    });
    expect(await store.readStream('a')).toHaveLength(1);
  });

  it('catches up over more than one read batch while appends continue', async () => {
    const bulk = Array.from({ length: 9000 }, (_, i) => event('Bulk', { i }));
    await store.append('bulk', bulk.slice(0, 5000), 'no_stream');
    await store.append('bulk', bulk.slice(5000), 4999n);
    await store.append('noise', [event('Noise')], 'any');
    // Filtered, so the batch paging and the skip past non-matching rows are both exercised.
    const subscription = store.subscribeToAll({
      after: (await store.readStream('bulk', { maxCount: 1 }))[0].position,
      filter: { streamPrefixes: ['bulk', 'late'] },
    });
    const late = Array.from({ length: 50 }, () => event('Late'));
    const writer = (async () => {
      for (const recorded of late) {
        await store.append('noise', [event('Noise'), event('Noise')], 'any');
        await store.append('late', [recorded], 'any');
        await sleep(0);
      }
    })();
    const received = await take(subscription, 8999 + 50);
    await writer;
    expect(received.map((e) => e.id)).toEqual([...bulk.slice(1), ...late].map((e) => e.id));
  }, 30_000);

  it('wakes a sparse filtered subscription for a match after many non-matching events', async () => {
    const subscription = store.subscribeToAll({ filter: { eventTypePrefixes: ['Rare'] } });
    const received = take(subscription, 3);
    const rare: NewEvent[] = [];
    for (let round = 0; round < 3; round++) {
      await store.append(
        'noise',
        Array.from({ length: 3000 }, () => event('Noise')),
        'any',
      );
      await sleep(5);
      const match = event('Rare');
      rare.push(match);
      await store.append('rare', [match], 'any');
    }
    expect((await received).map((e) => e.id)).toEqual(rare.map((e) => e.id));
  }, 30_000);

  it('does not send a filtered subscription back to the log for an in-process append it does not read', async () => {
    const reads = jest.spyOn(store as unknown as { readEvents: (...args: unknown[]) => unknown }, 'readEvents');
    const other = openSqliteEventStore(file);
    try {
      const byType = store.subscribeToAll({ filter: { streamPrefixes: ['wanted-'] } });
      const onStream = store.subscribeToStream('wanted-1');
      const typed = take(byType, 3, 5000);
      const streamed = take(onStream, 2, 5000);
      await sleep(20);
      const idle = reads.mock.calls.length;
      for (let i = 0; i < 200; i++) await store.append(`charge-${i}`, [event('Charged')], 'no_stream');
      await sleep(20);
      // Two hundred appends neither subscription reads: not one query was made for them.
      expect(reads.mock.calls.length).toBe(idle);
      const wanted = [event('Wanted'), event('Wanted')];
      await store.append('wanted-1', wanted, 'no_stream');
      // Another process's append is not known by stream here: it wakes every subscription.
      const far = event('Far');
      await other.append('wanted-2', [far], 'no_stream');
      expect((await typed).map((e) => e.id)).toEqual([...wanted, far].map((e) => e.id));
      expect((await streamed).map((e) => e.id)).toEqual(wanted.map((e) => e.id));
    } finally {
      reads.mockRestore();
      await other.close();
    }
  });

  it('delivers appends made through another connection (data_version polling)', async () => {
    const other = openSqliteEventStore(file); // a separate connection, as another process would have
    try {
      const subscription = store.subscribeToStream('cross');
      const received = take(subscription, 3, 5000);
      const written = [event(), event(), event()];
      await other.append('cross', written.slice(0, 1), 'no_stream');
      await sleep(30);
      await other.append('cross', written.slice(1), 0n);
      expect((await received).map((e) => e.id)).toEqual(written.map((e) => e.id));
    } finally {
      await other.close();
    }
  });

  it('answers a live $all subscription from its own latest appends, without a query', async () => {
    const reads = jest.spyOn(store as unknown as { readEvents: (...args: unknown[]) => unknown }, 'readEvents');
    try {
      const { position: before } = await store.append('before', [event()], 'no_stream');
      const all = take(store.subscribeToAll({ after: before }), 50, 5000);
      const filtered = take(store.subscribeToAll({ after: before, filter: { streamPrefixes: ['odd-'] } }), 25, 5000);
      await sleep(20);
      const idle = reads.mock.calls.length;
      const written: NewEvent[] = [];
      for (let i = 0; i < 50; i++) {
        const e = event('Happened', { i });
        written.push(e);
        await store.append(`${i % 2 ? 'odd' : 'even'}-${i}`, [e], 'no_stream');
        if (i % 7 === 0) await sleep(1);
      }
      const [everything, odd] = await Promise.all([all, filtered]);
      expect(everything.map((e) => e.id)).toEqual(written.map((e) => e.id));
      expect(everything.map((e) => e.data)).toEqual(written.map((e) => e.data));
      expect(odd.map((e) => e.id)).toEqual(written.filter((_, i) => i % 2).map((e) => e.id));
      expect(reads.mock.calls.length).toBe(idle);
      // The same events as a read of the file returns, field for field.
      expect(everything).toEqual(await store.readAll({ after: before }));
    } finally {
      reads.mockRestore();
    }
  });

  it('misses nothing another connection appends between, or right after, its own appends', async () => {
    const other = openSqliteEventStore(file);
    try {
      const total = 120;
      const all = take(store.subscribeToAll(), total, 10_000);
      const filtered = take(store.subscribeToAll({ filter: { eventTypePrefixes: ['Mine'] } }), total / 2, 10_000);
      // Seeded interleaving: runs of appends from each connection, some back to back, some apart.
      let seed = 7;
      const random = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32;
      let mine = 0;
      let theirs = 0;
      while (mine + theirs < total) {
        const fromHere = theirs >= total / 2 || (mine < total / 2 && random() < 0.5);
        if (fromHere) await store.append(`mine-${mine++}`, [event('Mine')], 'no_stream');
        else await other.append(`theirs-${theirs++}`, [event('Theirs')], 'no_stream');
        if (random() < 0.2) await sleep(random() * 15);
      }
      const stored = await store.readAll();
      expect((await all).map((e) => e.id)).toEqual(stored.map((e) => e.id));
      expect((await filtered).map((e) => e.id)).toEqual(stored.filter((e) => e.type === 'Mine').map((e) => e.id));
      // The last append was another connection's, and this one appends nothing after it: seen anyway.
      const last = take(store.subscribeToAll({ after: stored[stored.length - 1].position }), 1, 5000);
      await store.append('mine-last', [event('Mine')], 'no_stream');
      const far = event('Theirs');
      const tail = take(store.subscribeToAll({ after: await store.headPosition() }), 1, 5000);
      await other.append('theirs-last', [far], 'no_stream');
      expect((await last).length).toBe(1);
      expect((await tail).map((e) => e.id)).toEqual([far.id]);
    } finally {
      await other.close();
    }
  }, 30_000);

  it('closing the store ends its live subscriptions', async () => {
    const subscription = store.subscribeToAll();
    const loop = take(subscription, 1, 60_000);
    await sleep(20);
    await store.close();
    await expect(loop).resolves.toEqual([]);
    await expect(store.readAll()).rejects.toThrow(/closed/);
    store = openSqliteEventStore(file); // for afterEach
  });
});
