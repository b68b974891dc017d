/** The EventStore contract's reads: a stream forwards and backwards, $all with its filters, positions and revisions. */
import type { EventStore, NewEvent, RecordedEvent } from '../event-store.port';
import { type ContractScope, ids, strictlyIncreasing } from './event-store.contract-helpers';

/** Registers this part of the contract in the calling describe block (see eventStoreContract). */
export function readsContract(scope: ContractScope): void {
  const { unique, event } = scope;
  let store: EventStore;
  beforeAll(() => {
    store = scope.store;
  });

  describe('reads', () => {
    it('keeps append order within streams and across them in $all, with increasing positions', async () => {
      const prefix = unique('order');
      const [a, b] = [`${prefix}a`, `${prefix}b`];
      const head = await store.headPosition();
      const order: NewEvent[] = [];
      const append = async (stream: string, events: NewEvent[], expected: bigint | 'no_stream') => {
        order.push(...events);
        await store.append(stream, events, expected);
      };
      await append(a, [event(), event()], 'no_stream');
      await append(b, [event()], 'no_stream');
      await append(a, [event()], 1n);
      await append(b, [event(), event(), event()], 0n);

      const all = await store.readAll({ after: head, filter: { streamPrefixes: [prefix] } });
      expect(ids(all)).toEqual(ids(order));
      expect(strictlyIncreasing(all.map((e) => e.position))).toBe(true);
      expect(all.every((e) => e.position > head)).toBe(true);
      expect((await store.readStream(a)).map((e) => e.revision)).toEqual([0n, 1n, 2n]);
      expect((await store.readStream(b)).map((e) => e.revision)).toEqual([0n, 1n, 2n, 3n]);
      // A stream read and $all agree on positions.
      const aRead = await store.readStream(a);
      expect(aRead.map((e) => e.position)).toEqual(all.filter((e) => e.stream === a).map((e) => e.position));
    });

    it('reads a stream forwards, backwards, from a revision and up to maxCount', async () => {
      const stream = `${unique('rs')}s`;
      await store.append(stream, [event(), event(), event(), event(), event()], 'no_stream');
      const revisions = (events: RecordedEvent[]) => events.map((e) => e.revision);

      expect(revisions(await store.readStream(stream))).toEqual([0n, 1n, 2n, 3n, 4n]);
      expect(revisions(await store.readStream(stream, { fromRevision: 2n }))).toEqual([2n, 3n, 4n]);
      // Past the last revision: nothing (what a command reads when no one appended since its last decision).
      expect(revisions(await store.readStream(stream, { fromRevision: 5n }))).toEqual([]);
      expect(revisions(await store.readStream(stream, { maxCount: 2 }))).toEqual([0n, 1n]);
      expect(revisions(await store.readStream(stream, { fromRevision: 1n, maxCount: 3 }))).toEqual([1n, 2n, 3n]);
      expect(revisions(await store.readStream(stream, { direction: 'backwards' }))).toEqual([4n, 3n, 2n, 1n, 0n]);
      expect(
        revisions(await store.readStream(stream, { direction: 'backwards', fromRevision: 3n, maxCount: 2 })),
      ).toEqual([3n, 2n]);
      expect(revisions(await store.readStream(stream, { direction: 'backwards', maxCount: 1 }))).toEqual([4n]);
      expect(await store.readStream(stream, { fromRevision: 5n })).toEqual([]);
      expect(await store.readStream(stream, { maxCount: 0 })).toEqual([]);
      expect(await store.readStream(`${unique('missing')}s`)).toEqual([]);
      expect(await store.readStream(`${unique('missing')}s`, { direction: 'backwards' })).toEqual([]);
    });

    it('reads $all strictly after a position and up to maxCount', async () => {
      const prefix = unique('after');
      const head = await store.headPosition();
      const mine = [event(), event(), event(), event()];
      await store.append(`${prefix}a`, mine.slice(0, 2), 'no_stream');
      await store.append(`${prefix}b`, mine.slice(2), 'no_stream');

      const all = await store.readAll({ after: head });
      expect(all.every((e) => e.position > head)).toBe(true);
      expect(all.filter((e) => e.type.startsWith('$'))).toEqual([]); // system events stay hidden
      expect(strictlyIncreasing(all.map((e) => e.position))).toBe(true);
      expect(ids(all.filter((e) => e.stream.startsWith(prefix)))).toEqual(ids(mine));

      const firstTwo = await store.readAll({ after: head, maxCount: 2 });
      expect(ids(firstTwo)).toEqual(ids(all.slice(0, 2)));
      const rest = await store.readAll({ after: all[1].position, maxCount: all.length - 2 });
      expect(ids(rest)).toEqual(ids(all.slice(2)));
      expect(await store.readAll({ after: head, maxCount: 0 })).toEqual([]);

      // Reading from the start reaches our events too (no `after`).
      const fromStart = await store.readAll({ filter: { streamPrefixes: [prefix] } });
      expect(ids(fromStart)).toEqual(ids(mine));
    });

    it('filters $all by stream prefixes and event-type prefixes (AND-ed; prefixes OR-ed)', async () => {
      const prefix = unique('filter');
      const type = unique('T').replace(/-/g, ''); // event types unique to this test
      const head = await store.headPosition();
      const placed1 = event(`${type}OrderPlaced`);
      const shipped1 = event(`${type}OrderShipped`);
      const joined = event(`${type}UserJoined`);
      const placed2 = event(`${type}OrderPlaced`);
      const decoy = event(`${type}OrderPlaced`);
      await store.append(`${prefix}order-1`, [placed1, shipped1], 'no_stream');
      await store.append(`${prefix}user-1`, [joined], 'no_stream');
      await store.append(`${prefix}order-2`, [placed2], 'no_stream');
      await store.append(`${prefix}orderz-1`, [decoy], 'no_stream'); // shares "order", not "order-"
      const edge = event(`${type}OrderPlaced`);
      await store.append(`${prefix}order.`, [edge], 'no_stream'); // the first name past "order-…"

      const read = (filter: { streamPrefixes?: string[]; eventTypePrefixes?: string[] }, maxCount?: number) =>
        store.readAll({ after: head, filter, maxCount }).then(ids);

      expect(await read({ streamPrefixes: [`${prefix}order-`] })).toEqual(ids([placed1, shipped1, placed2]));
      expect(await read({ streamPrefixes: [`${prefix}user-`, `${prefix}order-`] })).toEqual(
        ids([placed1, shipped1, joined, placed2]),
      );
      expect(await read({ eventTypePrefixes: [`${type}OrderS`, `${type}User`] })).toEqual(ids([shipped1, joined]));
      expect(await read({ streamPrefixes: [`${prefix}order-`], eventTypePrefixes: [`${type}OrderPlaced`] })).toEqual(
        ids([placed1, placed2]),
      );
      expect(await read({ streamPrefixes: [`${prefix}order-`] }, 2)).toEqual(ids([placed1, shipped1]));
      expect(await read({ streamPrefixes: [prefix], eventTypePrefixes: [] })).toEqual(
        ids([placed1, shipped1, joined, placed2, decoy, edge]),
      );
      expect(await read({ streamPrefixes: [`${prefix}nothing-`] })).toEqual([]);
    });

    it('reports the head position and stream revisions', async () => {
      const stream = `${unique('head')}s`;
      expect(await store.streamRevision(stream)).toBeUndefined();
      const before = await store.headPosition();
      const result = await store.append(stream, [event(), event(), event()], 'no_stream');
      const after = await store.headPosition();
      expect(result.position).toBeGreaterThan(before);
      expect(after).toBeGreaterThanOrEqual(result.position);
      expect(await store.streamRevision(stream)).toBe(2n);
    });
  });
}
