import { randomUUID } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { RecordedEvent } from '../../eventstore/src/event-store.port';
import { openSqliteEventStore, type SqliteEventStore } from '../../eventstore/src/sqlite.event-store';
import { MemoryReadStore } from './memory.read-store';
import type { Projection } from './projection';
import { Projector } from './projector';
import { ReadModelSnapshots } from './snapshots';

/** Counts per team, and how many events it was ever handed (a replay from the start shows here). */
let applied = 0;
const counts: Projection = {
  name: 'counts',
  version: 1,
  eventTypes: ['Counted'],
  collection: 'counts',
  versionBy: 'position',
  ids: (e: RecordedEvent) => [String((e.data as { team: string }).team)],
  apply: (doc, _e, id) => {
    applied++;
    return { team: id, n: ((doc?.n as number | undefined) ?? 0) + 1 };
  },
};

describe('ReadModelSnapshots (sqlite log, memory read store)', () => {
  let dir: string;
  let events: SqliteEventStore;
  const file = () => path.join(dir, 'readmodels', 'test.snapshot.json');
  const append = async (n: number) => {
    for (let i = 0; i < n; i += 100) {
      await events.append(
        `count-${randomUUID()}`,
        Array.from({ length: Math.min(100, n - i) }, (_, j) => ({
          id: randomUUID(),
          type: 'Counted',
          data: { team: `t${(i + j) % 7}` },
        })),
        'no_stream',
      );
    }
  };
  /** One boot: restore, project, then the shutdown snapshot. */
  const boot = async () => {
    const reads = new MemoryReadStore();
    const snapshots = new ReadModelSnapshots(file(), events, reads);
    const restored = await snapshots.restore();
    const projector = new Projector(events, reads, [counts], {
      logger: { log: () => undefined, warn: () => undefined, error: () => undefined },
    });
    applied = 0;
    await projector.start();
    await projector.caughtUp();
    await projector.stop();
    await snapshots.save(projector.position);
    const total = (await reads.find('counts')).reduce((sum, d) => sum + (d.n as number), 0);
    return { restored, applied, total };
  };

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'snapshots-'));
    events = openSqliteEventStore(path.join(dir, 'events.db'));
  });
  afterEach(async () => {
    await events.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('a boot after a snapshot replays only the events appended since, and the read models are whole', async () => {
    await append(1_000);
    const first = await boot();
    expect(first).toMatchObject({ restored: { restored: false, reason: 'no snapshot' }, applied: 1_000, total: 1_000 });
    await append(30);
    const second = await boot();
    expect(second.restored.restored).toBe(true);
    expect(second.applied).toBe(30);
    expect(second.total).toBe(1_030);
  });

  it('ignores a snapshot of another log (the database was replaced) and replays everything', async () => {
    await append(200);
    await boot();
    await events.close();
    fs.rmSync(path.join(dir, 'events.db'));
    events = openSqliteEventStore(path.join(dir, 'events.db'));
    await append(50);
    const next = await boot();
    expect(next.restored).toEqual({ restored: false, reason: 'snapshot of another event log' });
    expect(next).toMatchObject({ applied: 50, total: 50 });
  });

  it('a torn or foreign file costs a full replay, never wrong read models', async () => {
    await append(100);
    fs.mkdirSync(path.dirname(file()), { recursive: true });
    fs.writeFileSync(file(), '{"format":2,"meta":{"log":"x","position":"5"}}\n{"c":"coun');
    const foreign = await boot();
    expect(foreign.restored).toEqual({ restored: false, reason: 'snapshot of another event log' });
    expect(foreign).toMatchObject({ applied: 100, total: 100 });
    // This log's identity, but cut short.
    const whole = fs.readFileSync(file(), 'utf8');
    fs.writeFileSync(file(), whole.slice(0, whole.length - 20));
    const torn = await boot();
    expect(torn.restored).toEqual({ restored: false, reason: 'unreadable snapshot' });
    expect(torn).toMatchObject({ applied: 100, total: 100 });
    // Cut at a line's end: every line reads, but the end line is missing.
    const lines = fs.readFileSync(file(), 'utf8').trimEnd().split('\n');
    fs.writeFileSync(file(), `${lines.slice(0, -2).join('\n')}\n`);
    const short = await boot();
    expect(short.restored).toEqual({ restored: false, reason: 'unreadable snapshot' });
    expect(short).toMatchObject({ applied: 100, total: 100 });
  });
});
