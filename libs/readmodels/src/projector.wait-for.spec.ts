/** Projector.waitFor: when it resolves, and with true or false (applied, already applied, timed out, stopped, a position no projection reads). */
import { openSqliteEventStore } from '../../eventstore/src/sqlite.event-store';
import { MemoryReadStore } from './memory.read-store';
import { es, ev, orders, place, projector, store, useProjectorFixture } from './testing/projector-fixture';

describe('Projector', () => {
  useProjectorFixture(openSqliteEventStore);

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
      gated.upsert = async (collection, id, doc, version) => (
        await gates.get(id)?.open,
        upsert(collection, id, doc, version)
      );
      await place('r', 1, 'd1');
      const { position: unread } = await es.append('audit-1', [ev('Audited')], 'no_stream');
      await place('y', 1, 'd1');
      // One event at a time: applied together (the default), r and y are one batch and the
      // waiter is answered when both are written, a few milliseconds later, not with y held.
      const p = projector([orders], { writeBatch: 1 }, gated);
      await p.start();
      const waiting = p.waitFor(unread, 5000);
      gates.get('r')!.release(); // y stays held: only its delivery can prove nothing is pending before it
      expect(await waiting).toBe(true);
      expect(await gated.get('orders', 'y')).toBeUndefined();
      gates.get('y')!.release();
      await p.caughtUp();
    });
  });
});
