/** How the Projector meets a projection or a read store that fails: transient failures retried, events it still cannot write set aside as dead letters, a stop when even those cannot be written. */
import { openSqliteEventStore } from '../../eventstore/src/sqlite.event-store';
import { checkpointName, type Projection } from './projection';
import { DEAD_LETTERS } from './dead-letters';
import type { ReadStore } from './read-store.port';
import {
  daily,
  docs,
  orders,
  place,
  type Placed,
  projector,
  silent,
  store,
  useProjectorFixture,
} from './testing/projector-fixture';

describe('Projector', () => {
  useProjectorFixture(openSqliteEventStore);

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
      expect(letter).toMatchObject({
        projection: 'daily',
        collection: 'daily',
        stream: 'order-b',
        type: 'OrderPlaced',
        position: bad.toString(),
        error: 'cannot project 666',
      });
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
      down.upsert = (...args) =>
        writes++ < 1 ? store.upsert(...args) : Promise.reject(new Error('store unreachable'));
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
      const sized: Projection = {
        ...daily,
        name: 'sized',
        collection: 'sized',
        apply: (_doc, e) => ({ text: 'x'.repeat((e.data as Placed).amount) }),
      };
      const warnings: string[] = [];
      const letters: unknown[] = [];
      // A retry would wait a minute: the refusal must not wait at all.
      const p = projector([sized, orders], {
        retries: 3,
        retryDelayMs: 60_000,
        logger: { ...silent, warn: (m: string) => warnings.push(m) },
        onDeadLetter: (l) => letters.push(l),
      });
      await p.start();
      expect(await p.waitFor(after, 5_000)).toBe(true);
      expect(p.status).toBe('live');
      expect(warnings).toEqual([]);
      expect((await docs('orders')).map((d) => d._id)).toEqual(['a', 'b', 'c']);
      expect(await store.get('sized', 'd1')).toMatchObject({ text: 'x' });
      const [letter] = await docs(DEAD_LETTERS);
      expect(letter).toMatchObject({
        projection: 'sized',
        collection: 'sized',
        stream: 'order-b',
        position: big.toString(),
        error: expect.stringMatching(/document limit/),
      });
      expect(letters).toHaveLength(1);
      expect(p.deadLetters).toBe(1);
    });

    it('a refused write and a transient failure on one event: the refusal is set aside once, the transient one retried and applied', async () => {
      await place('a', 17 * 1024 * 1024, 'd1');
      const after = await place('b', 1, 'd1');
      const sized: Projection = {
        ...daily,
        name: 'sized',
        collection: 'sized',
        apply: (_doc, e) => ({ text: 'x'.repeat((e.data as Placed).amount) }),
      };
      const warnings: string[] = [];
      const p = projector([sized, failingOn(17 * 1024 * 1024, 1)], {
        retries: 3,
        logger: { ...silent, warn: (m: string) => warnings.push(m) },
      });
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
});
