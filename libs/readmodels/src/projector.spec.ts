import type { RecordedEvent } from '../../eventstore/src/event-store.port';
import { openSqliteEventStore } from '../../eventstore/src/sqlite.event-store';
import { checkpointName, type Projection } from './projection';
import { MemoryReadStore } from './memory.read-store';
import { Projector } from './projector';
import {
  daily,
  docs,
  es,
  ev,
  orders,
  pay,
  place,
  type Placed,
  projector,
  silent,
  store,
  useProjectorFixture,
} from './testing/projector-fixture';

describe('Projector', () => {
  useProjectorFixture(openSqliteEventStore);

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
    expect(await store.get('orders', 'a')).toEqual({
      _id: 'a',
      _version: '1',
      status: 'paid',
      amount: 5,
      day: 'd1',
      events: 2,
    });
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

    const v2: Projection = {
      ...daily,
      version: 2,
      apply: (doc, e) => ({ total: ((doc?.total as number) ?? 0) + 10 * (e.data as Placed).amount }),
    };
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
      while ((await store.getCheckpoint(name)) !== position && Date.now() < deadline)
        await new Promise((r) => setTimeout(r, 5));
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

    it('are saved as soon as the log goes quiet, not at the flush timer (other processes wait on them)', async () => {
      const p = projector([daily], { flushMs: 60_000, batch: 1000 });
      await p.start();
      const position = await place('a', 1, 'd1');
      await p.waitFor(position, 1000);
      const name = checkpointName('projector', daily);
      const deadline = Date.now() + 2000;
      while ((await store.getCheckpoint(name)) !== position && Date.now() < deadline)
        await new Promise((r) => setTimeout(r, 5));
      expect(await store.getCheckpoint(name)).toBe(position);
    });

    it('are saved by stop(), also while events keep coming', async () => {
      const p = projector([daily], { flushMs: 60_000, batch: 1000 });
      await p.start();
      let last = -1n;
      for (let i = 0; i < 20; i++) last = await place(`s${i}`, 1, 'd1');
      await p.waitFor(last, 1000);
      await p.stop();
      expect(await store.getCheckpoint(checkpointName('projector', daily))).toBe(last);
    });
  });
  describe('events applied together', () => {
    const counted = () => {
      const reads = new MemoryReadStore();
      const writes: string[] = [];
      const upsert = reads.upsert.bind(reads);
      reads.upsert = (collection, id, doc, version) => (
        writes.push(`${collection}/${id}`),
        upsert(collection, id, doc, version)
      );
      return { reads, writes };
    };

    it('write each document once per batch, and leave the same documents as one event at a time', async () => {
      for (let i = 0; i < 30; i++) await place(`o${i}`, i, 'd1');
      let last = -1n;
      for (let i = 0; i < 30; i += 3) last = await pay(`o${i}`);
      const together = counted();
      const alone = counted();
      const a = projector([orders, daily], {}, together.reads);
      const b = projector([orders, daily], { writeBatch: 1 }, alone.reads);
      await Promise.all([a.start(), b.start()]);
      await Promise.all([a.caughtUp(), b.caughtUp()]);
      expect(a.position).toBe(last);
      for (const collection of ['orders', 'daily'])
        expect(await together.reads.find(collection, {}, { sort: { _id: 1 } })).toEqual(
          await alone.reads.find(collection, {}, { sort: { _id: 1 } }),
        );
      expect(alone.writes.filter((w) => w === 'daily/d1')).toHaveLength(30);
      // 40 events, read in pages: the day's total is written a few times, not once per order
      expect(together.writes.filter((w) => w === 'daily/d1').length).toBeLessThanOrEqual(3);
      expect(together.writes.length).toBeLessThan(alone.writes.length / 2);
    });

    it('a batch that fails is applied again one event at a time: nothing lost, nothing twice', async () => {
      for (let i = 0; i < 10; i++) await place(`f${i}`, 1, 'd1');
      const flaky = new MemoryReadStore();
      const upsert = flaky.upsert.bind(flaky);
      let calls = 0;
      flaky.upsert = (collection, id, doc, version) =>
        ++calls === 2 ? Promise.reject(new Error('store blip')) : upsert(collection, id, doc, version);
      const p = projector([orders, daily], {}, flaky);
      await p.start();
      await p.caughtUp();
      expect(await flaky.get('daily', 'd1')).toMatchObject({ orders: 10 });
      expect(await flaky.find('orders')).toHaveLength(10);
    });
  });

  it('refuses two projections writing one collection', () => {
    expect(() => new Projector(es, store, [daily, { ...daily, name: 'other' }], { logger: silent })).toThrow(
      /both write collection daily/,
    );
  });
});
