import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RecordedEvent } from '../../eventstore/src/event-store.port';
import { openSqliteEventStore, type SqliteEventStore } from '../../eventstore/src/sqlite.event-store';
import { MemoryReadStore } from './memory.read-store';
import { checkpointName, type Projection } from './projection';
import { DEAD_LETTERS } from './dead-letters';
import { Projector, type ProjectorOptions } from './projector';
import type { ReadStore } from './read-store.port';

type Placed = { amount: number; day: string };

/** One doc per order stream (versioned by revision); OrderCancelled deletes it. */
const orders: Projection = {
  name: 'orders',
  version: 1,
  eventTypes: ['OrderPlaced', 'OrderPaid', 'OrderCancelled'],
  filter: { streamPrefixes: ['order-'] },
  collection: 'orders',
  versionBy: 'revision',
  ids: (e) => [e.stream.slice('order-'.length)],
  apply(doc, e) {
    if (e.type === 'OrderPlaced') return { status: 'placed', ...(e.data as Placed), events: 1 };
    if (e.type === 'OrderCancelled') return undefined;
    return doc && { ...doc, status: 'paid', events: (doc.events as number) + 1 };
  },
};

/** Sum of amounts per day across every order stream: an aggregate, versioned by position. */
const daily: Projection = {
  name: 'daily',
  version: 1,
  eventTypes: ['OrderPlaced'],
  filter: { streamPrefixes: ['order-'] },
  collection: 'daily',
  versionBy: 'position',
  ids: (e) => [(e.data as Placed).day],
  apply: (doc, e) => ({ total: ((doc?.total as number) ?? 0) + (e.data as Placed).amount, orders: ((doc?.orders as number) ?? 0) + 1 }),
};

const silent = { log: () => undefined, warn: () => undefined, error: () => undefined };
const ev = (type: string, data: Record<string, unknown> = {}) => ({ id: randomUUID(), type, data });

describe('Projector', () => {
  let dir: string;
  let es: SqliteEventStore;
  let store: MemoryReadStore;
  const running: Projector[] = [];

  // the real sqlite adapter on a temp file
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'projector-'));
    es = openSqliteEventStore(join(dir, 'events.db'));
    store = new MemoryReadStore();
  });
  afterEach(async () => {
    await Promise.all(running.splice(0).map((p) => p.stop()));
    await es.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const projector = (projections: Projection[] = [orders, daily], options: ProjectorOptions = {}, reads: ReadStore = store) => {
    const p = new Projector(es, reads, projections, { logger: silent, flushMs: 5, retryDelayMs: 1, ...options });
    running.push(p);
    return p;
  };
  const place = async (order: string, amount: number, day: string) =>
    (await es.append(`order-${order}`, [ev('OrderPlaced', { amount, day })], 'no_stream')).position;
  const pay = async (order: string) => (await es.append(`order-${order}`, [ev('OrderPaid')], 'any')).position;
  const docs = async (collection: string) => store.find(collection, {}, { sort: { _id: 1 } });

  it('catches up with the backlog, then follows live appends', async () => {
    await place('a', 5, 'd1');
    const b = await place('b', 7, 'd1');
    const last = await pay('a');
    const p = projector();
    expect(p.position).toBe(-1n);
    await p.start();
    await p.caughtUp();
    expect(p.status).toBe('live');
    expect(p.position).toBe(last);
    expect(await store.get('orders', 'a')).toEqual({ _id: 'a', _version: '1', status: 'paid', amount: 5, day: 'd1', events: 2 });
    expect(await store.get('daily', 'd1')).toMatchObject({ total: 12, orders: 2, _version: String(b) });

    const position = await place('c', 1, 'd2');
    expect(await p.waitFor(position, 1000)).toBe(true);
    expect(p.position).toBe(position);
    expect(await store.get('orders', 'c')).toMatchObject({ status: 'placed', _version: '0' });
    expect(await store.get('daily', 'd2')).toMatchObject({ total: 1, _version: String(position) });
  });

  it('caughtUp resolves at once on an empty log', async () => {
    const p = projector();
    await p.start();
    await p.caughtUp();
    expect(p.status).toBe('live');
    expect(p.position).toBe(-1n);
  });

  describe('waitFor', () => {
    it('resolves only once the event is applied, with the doc already readable', async () => {
      let release!: () => void;
      const gate = new Promise<void>((r) => (release = r));
      const gated = new MemoryReadStore();
      const upsert = gated.upsert.bind(gated);
      gated.upsert = async (...args) => (await gate, upsert(...args));
      const p = projector([orders], {}, gated);
      await p.start();
      await p.caughtUp();

      const position = await place('a', 3, 'd1');
      let result: boolean | undefined;
      const waiting = p.waitFor(position, 5000).then((r) => (result = r));
      await new Promise((r) => setTimeout(r, 30));
      expect(result).toBeUndefined(); // the upsert is held: not applied yet
      release();
      await waiting;
      expect(result).toBe(true);
      expect(await gated.get('orders', 'a')).toMatchObject({ amount: 3 });
    });

    it('resolves true at once for a position already applied', async () => {
      const position = await place('a', 3, 'd1');
      const p = projector();
      await p.start();
      await p.caughtUp();
      expect(await p.waitFor(position, 0)).toBe(true);
      expect(await p.waitFor(-1n, 0)).toBe(true);
    });

    it('resolves false on timeout when the position is never reached', async () => {
      const p = projector();
      await p.start();
      await p.caughtUp();
      const started = Date.now();
      expect(await p.waitFor(10_000n, 50)).toBe(false);
      expect(Date.now() - started).toBeGreaterThanOrEqual(45);
    });

    it('resolves false when the projector stops', async () => {
      const p = projector();
      await p.start();
      const waiting = p.waitFor(10_000n, 60_000);
      await p.stop();
      expect(await waiting).toBe(false);
      expect(await p.waitFor(10_000n, 60_000)).toBe(false);
    });

    it('resolves for a position in a stream no projection reads (filtered subscription)', async () => {
      const p = projector();
      await p.start();
      await p.caughtUp();
      const { position } = await es.append('audit-1', [ev('Audited')], 'no_stream');
      expect(await p.waitFor(position, 1000)).toBe(true);
      expect(p.position).toBe(-1n); // nothing was applied: the probe proved nothing was pending

      // an unread event behind a pending relevant one resolves only after the relevant one is applied
      await place('a', 1, 'd1');
      const { position: after } = await es.append('audit-1', [ev('Audited')], 'any');
      expect(await p.waitFor(after, 1000)).toBe(true);
      expect(await store.get('orders', 'a')).toBeDefined();
    });

    it('resolves for an unread position as soon as a later relevant event is delivered, before it is applied', async () => {
      const gates = new Map<string, { open: Promise<void>; release: () => void }>();
      for (const id of ['r', 'y']) {
        let release!: () => void;
        gates.set(id, { open: new Promise<void>((r) => (release = r)), release });
      }
      const gated = new MemoryReadStore();
      const upsert = gated.upsert.bind(gated);
      gated.upsert = async (collection, id, doc, version) => (await gates.get(id)?.open, upsert(collection, id, doc, version));
      await place('r', 1, 'd1');
      const { position: unread } = await es.append('audit-1', [ev('Audited')], 'no_stream');
      await place('y', 1, 'd1');
      const p = projector([orders], {}, gated);
      await p.start();
      const waiting = p.waitFor(unread, 5000);
      gates.get('r')!.release(); // y stays held: only its delivery can prove nothing is pending before it
      expect(await waiting).toBe(true);
      expect(await gated.get('orders', 'y')).toBeUndefined();
      gates.get('y')!.release();
      await p.caughtUp();
    });
  });

  it('catches up when the log ends with events no projection reads, without probing per event', async () => {
    let last = -1n;
    for (let i = 0; i < 200; i++) last = await place(`o${i}`, 1, 'd1');
    for (let i = 0; i < 5; i++) await es.append(`audit-${i}`, [ev('Audited')], 'no_stream');
    const readAll = jest.spyOn(es, 'readAll');
    const p = projector();
    await p.start();
    await p.caughtUp();
    expect(p.position).toBe(last);
    expect(await store.get('daily', 'd1')).toMatchObject({ total: 200 });
    expect(readAll.mock.calls.length).toBeLessThan(10);
  });

  it('deletes a doc when the projection returns undefined', async () => {
    await place('a', 3, 'd1');
    const { position } = await es.append('order-a', [ev('OrderCancelled')], 0n);
    const p = projector();
    await p.start();
    expect(await p.waitFor(position, 1000)).toBe(true);
    expect(await store.get('orders', 'a')).toBeUndefined();
    expect(await store.get('daily', 'd1')).toMatchObject({ total: 3 }); // the aggregate keeps it
  });

  it('sums per day across many streams (aggregate versioned by position)', async () => {
    const expected = new Map<string, { total: number; orders: number }>();
    for (let i = 0; i < 60; i++) {
      const day = `d${i % 4}`;
      const amount = (i * 7) % 13;
      await place(`o${i}`, amount, day);
      const e = expected.get(day) ?? { total: 0, orders: 0 };
      expected.set(day, { total: e.total + amount, orders: e.orders + 1 });
      if (i % 3 === 0) await pay(`o${i}`); // interleaved events the aggregate ignores
    }
    const p = projector();
    await p.start();
    await p.caughtUp();
    const got = await docs('daily');
    expect(got.map(({ _id, total, orders: n }) => [_id, { total, orders: n }])).toEqual([...expected].sort());
    expect(await store.count('orders', { status: 'paid' })).toBe(20);
  });

  it('re-applying from an older checkpoint changes nothing (idempotent)', async () => {
    const placed: bigint[] = [];
    for (let i = 0; i < 30; i++) placed.push(await place(`o${i}`, i, `d${i % 3}`));
    for (let i = 0; i < 30; i += 2) await pay(`o${i}`);
    const first = projector();
    await first.start();
    await first.caughtUp();
    await first.stop();
    const before = { orders: await docs('orders'), daily: await docs('daily') };

    for (const cp of [-1n, placed[14]]) {
      await store.setCheckpoint(checkpointName('projector', orders), cp);
      await store.setCheckpoint(checkpointName('projector', daily), cp);
      const again = projector();
      await again.start();
      await again.caughtUp();
      await again.stop();
      expect({ orders: await docs('orders'), daily: await docs('daily') }).toEqual(before);
    }
  });

  it('restarts from its checkpoint: applied events are not read again', async () => {
    let last = -1n;
    for (let i = 0; i < 10; i++) last = await place(`o${i}`, 1, 'd1');
    const first = projector();
    await first.start();
    await first.caughtUp();
    await first.stop();
    expect(await store.getCheckpoint(checkpointName('projector', daily))).toBe(last);

    const applied: RecordedEvent[] = [];
    const spy: Projection = { ...daily, apply: (doc, e, id) => (applied.push(e), daily.apply(doc, e, id)) };
    const late = await place('late', 5, 'd1');
    const second = projector([orders, spy]);
    await second.start();
    await second.caughtUp();
    expect(applied.map((e) => e.position)).toEqual([late]);
    expect(await store.get('daily', 'd1')).toMatchObject({ total: 15, orders: 11 });
  });

  it('rebuild clears the collections and replays to identical docs', async () => {
    for (let i = 0; i < 20; i++) await place(`o${i}`, i, `d${i % 2}`);
    await es.append('order-o3', [ev('OrderCancelled')], 0n);
    const p = projector();
    await p.start();
    await p.caughtUp();
    const before = { orders: await docs('orders'), daily: await docs('daily') };
    await store.upsert('orders', 'stray', { status: 'not from the log' }, 0n);

    await p.rebuild();
    expect(p.status).toBe('live');
    expect({ orders: await docs('orders'), daily: await docs('daily') }).toEqual(before);
    expect(await store.get('orders', 'stray')).toBeUndefined();
    // and it keeps following after the rebuild
    const position = await place('new', 4, 'd0');
    expect(await p.waitFor(position, 1000)).toBe(true);
    expect(await store.get('orders', 'new')).toBeDefined();
  });

  it('a new projection version gets its own checkpoint and rebuilds its collection', async () => {
    await place('a', 2, 'd1');
    const b = await place('b', 3, 'd1');
    const v1 = projector([daily]);
    await v1.start();
    await v1.caughtUp();
    await v1.stop();
    expect(await store.get('daily', 'd1')).toMatchObject({ total: 5 });

    const v2: Projection = { ...daily, version: 2, apply: (doc, e) => ({ total: ((doc?.total as number) ?? 0) + 10 * (e.data as Placed).amount }) };
    const p = projector([v2]);
    await p.start();
    await p.caughtUp();
    expect(await store.get('daily', 'd1')).toEqual({ _id: 'd1', _version: String(b), total: 50 });
    await p.stop();
    expect(await store.getCheckpoint(checkpointName('projector', v2))).toBe(b);
    expect(await store.getCheckpoint(checkpointName('projector', daily))).toBe(b);
  });

  describe('checkpoints', () => {
    it('are saved after a burst without an explicit stop', async () => {
      const p = projector([daily], { flushMs: 10, batch: 1000 });
      await p.start();
      const position = await place('a', 1, 'd1');
      await p.waitFor(position, 1000);
      const name = checkpointName('projector', daily);
      const deadline = Date.now() + 1000;
      while ((await store.getCheckpoint(name)) !== position && Date.now() < deadline) await new Promise((r) => setTimeout(r, 5));
      expect(await store.getCheckpoint(name)).toBe(position);
    });

    it('are saved every `batch` events, before the timer', async () => {
      const p = projector([daily], { flushMs: 60_000, batch: 3 });
      await p.start();
      let third = -1n;
      for (let i = 0; i < 3; i++) third = await place(`o${i}`, 1, 'd1');
      expect(await p.waitFor(third, 1000)).toBe(true);
      await new Promise((r) => setImmediate(r));
      expect(await store.getCheckpoint(checkpointName('projector', daily))).toBe(third);
    });

    it('are saved by stop()', async () => {
      const p = projector([daily], { flushMs: 60_000, batch: 1000 });
      await p.start();
      const position = await place('a', 1, 'd1');
      await p.waitFor(position, 1000);
      expect(await store.getCheckpoint(checkpointName('projector', daily))).toBeUndefined(); // not yet
      await p.stop();
      expect(await store.getCheckpoint(checkpointName('projector', daily))).toBe(position);
    });
  });

  describe('errors', () => {
    const failingOn = (amount: number, times = Infinity): Projection => {
      let failures = 0;
      return {
        ...daily,
        apply(doc, e, id) {
          if ((e.data as Placed).amount === amount && failures++ < times) throw new Error(`cannot project ${amount}`);
          return daily.apply(doc, e, id);
        },
      };
    };

    it('sets aside an event a projection still cannot write after the retries, and goes on: a dead letter, the other projections applied it', async () => {
      await place('a', 1, 'd1');
      const bad = await place('b', 666, 'd1');
      const after = await place('c', 1, 'd1');
      const letters: unknown[] = [];
      const p = projector([orders, failingOn(666)], { retries: 2, onDeadLetter: (letter) => letters.push(letter) });
      await p.start();
      await p.caughtUp();
      expect(p.status).toBe('live');
      expect(await p.waitFor(after, 1_000)).toBe(true);
      // The daily total skips the event it could not write; the orders projection has all three.
      expect(await store.get('daily', 'd1')).toMatchObject({ total: 2, orders: 2 });
      expect((await docs('orders')).map((d) => d._id)).toEqual(['a', 'b', 'c']);
      const [letter] = await docs(DEAD_LETTERS);
      expect(letter).toMatchObject({ projection: 'daily', collection: 'daily', stream: 'order-b', type: 'OrderPlaced', position: bad.toString(), error: 'cannot project 666' });
      expect(letters).toHaveLength(1);
      expect(p.deadLetters).toBe(1);
      await p.stop();
      expect(await store.getCheckpoint(checkpointName('projector', daily))).toBe(after);
    });

    it('stops when a dead letter cannot be written either (the store is down): status failed, waiters get false, checkpoint before the event', async () => {
      const a = await place('a', 1, 'd1');
      const bad = await place('b', 666, 'd1');
      await place('c', 1, 'd1');
      // A store that refuses every write past the first event: a dead letter cannot be set aside.
      const down: ReadStore = Object.create(store);
      let writes = 0;
      down.upsert = (...args) => (writes++ < 1 ? store.upsert(...args) : Promise.reject(new Error('store unreachable')));
      const p = projector([failingOn(666)], { retries: 2 }, down);
      await p.start();
      const waiting = p.waitFor(bad, 60_000);
      await expect(p.caughtUp()).rejects.toThrow('store unreachable');
      expect(p.status).toBe('failed');
      expect(await waiting).toBe(false);
      expect(p.position).toBe(a);
      await p.stop();
    });

    it('sets aside at once a document the store refuses for its size: no retry delay, the other projections go on', async () => {
      await place('a', 1, 'd1');
      const big = await place('b', 17 * 1024 * 1024, 'd1');
      const after = await place('c', 1, 'd1');
      // Writes the amount as that many characters: 17 MiB is over the store's 16 MiB document limit.
      const sized: Projection = { ...daily, name: 'sized', collection: 'sized', apply: (_doc, e) => ({ text: 'x'.repeat((e.data as Placed).amount) }) };
      const warnings: string[] = [];
      const letters: unknown[] = [];
      // A retry would wait a minute: the refusal must not wait at all.
      const p = projector([sized, orders], { retries: 3, retryDelayMs: 60_000, logger: { ...silent, warn: (m: string) => warnings.push(m) }, onDeadLetter: (l) => letters.push(l) });
      await p.start();
      expect(await p.waitFor(after, 5_000)).toBe(true);
      expect(p.status).toBe('live');
      expect(warnings).toEqual([]);
      expect((await docs('orders')).map((d) => d._id)).toEqual(['a', 'b', 'c']);
      expect(await store.get('sized', 'd1')).toMatchObject({ text: 'x' });
      const [letter] = await docs(DEAD_LETTERS);
      expect(letter).toMatchObject({ projection: 'sized', collection: 'sized', stream: 'order-b', position: big.toString(), error: expect.stringMatching(/document limit/) });
      expect(letters).toHaveLength(1);
      expect(p.deadLetters).toBe(1);
    });

    it('a refused write and a transient failure on one event: the refusal is set aside once, the transient one retried and applied', async () => {
      await place('a', 17 * 1024 * 1024, 'd1');
      const after = await place('b', 1, 'd1');
      const sized: Projection = { ...daily, name: 'sized', collection: 'sized', apply: (_doc, e) => ({ text: 'x'.repeat((e.data as Placed).amount) }) };
      const warnings: string[] = [];
      const p = projector([sized, failingOn(17 * 1024 * 1024, 1)], { retries: 3, logger: { ...silent, warn: (m: string) => warnings.push(m) } });
      await p.start();
      expect(await p.waitFor(after, 5_000)).toBe(true);
      // One retry, for the transient failure: the refused write is not tried again.
      expect(warnings).toHaveLength(1);
      expect(await store.get('daily', 'd1')).toMatchObject({ orders: 2 });
      expect((await docs(DEAD_LETTERS)).map((d) => d.projection)).toEqual(['sized']);
      expect(p.deadLetters).toBe(1);
    });

    it('retries a transient failure and goes on', async () => {
      await place('a', 1, 'd1');
      await place('b', 666, 'd1');
      await place('c', 1, 'd1');
      const p = projector([failingOn(666, 2)], { retries: 3 });
      await p.start();
      await p.caughtUp();
      expect(p.status).toBe('live');
      expect(await store.get('daily', 'd1')).toMatchObject({ total: 668, orders: 3 });
    });
  });

  it('refuses two projections writing one collection', () => {
    expect(() => new Projector(es, store, [daily, { ...daily, name: 'other' }], { logger: silent })).toThrow(/both write collection daily/);
  });
});
