import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { EsdbEventStore } from './esdb.event-store';
import { openEventStore } from './open-event-store';
import { SqliteEventStore } from './sqlite.event-store';
import { fromWire, toWire } from './wire';

describe('openEventStore', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'open-event-store-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('opens sqlite:///absolute/path, creating parent directories', async () => {
    const file = join(dir, 'a', 'b', 'events.db');
    const store = await openEventStore(`sqlite://${file}`);
    try {
      expect(store).toBeInstanceOf(SqliteEventStore);
      await store.ping();
      expect(existsSync(file)).toBe(true);
    } finally {
      await store.close();
    }
  });

  it('opens sqlite://relative/path from the working directory', async () => {
    const file = join(dir, 'rel', 'events.db');
    const rel = relative(process.cwd(), file);
    expect(rel.startsWith('/')).toBe(false);
    const store = await openEventStore(`sqlite://${rel}`);
    await store.close();
    expect(existsSync(file)).toBe(true);
  });

  it('opens esdb:// and esdb+discover:// connection strings with the EventStoreDB adapter (no connection yet)', async () => {
    for (const url of ['esdb://localhost:2113?tls=false', 'esdb+discover://admin:changeit@cluster.example:2113']) {
      const store = await openEventStore(url);
      expect(store).toBeInstanceOf(EsdbEventStore);
      await store.close();
    }
  });

  it('rejects an unknown scheme without echoing the rest of the url', async () => {
    await expect(openEventStore('postgres://user:secret@db/events')).rejects.toThrow(
      /unsupported event store url scheme "postgres"/,
    );
    await expect(openEventStore('postgres://user:secret@db/events')).rejects.not.toThrow(/secret/);
    await expect(openEventStore('/just/a/path.db')).rejects.toThrow(/\(none\)/);
    await expect(openEventStore('sqlite://')).rejects.toThrow(/no file path/);
  });
});

describe('wire format', () => {
  it('round-trips positions beyond 2^53 as decimal strings', () => {
    expect(toWire(9007199254740993n)).toBe('9007199254740993');
    expect(fromWire('9007199254740993')).toBe(9007199254740993n);
    expect(fromWire('-1')).toBe(-1n);
  });

  it('rejects anything that is not an integer', () => {
    for (const bad of ['', '1.5', '1e3', ' 1', '0x10', 'abc']) expect(() => fromWire(bad)).toThrow(RangeError);
  });
});
