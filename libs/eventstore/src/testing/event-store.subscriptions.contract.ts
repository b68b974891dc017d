/** The EventStore contract's subscriptions: catch-up then live, to a stream and to $all, filtered, and closed. */
import type { EventStore, NewEvent, RecordedEvent } from '../event-store.port';
import { collect, type ContractScope, ids, sleep, strictlyIncreasing, within } from './event-store.contract-helpers';

/** Registers this part of the contract in the calling describe block (see eventStoreContract). */
export function subscriptionsContract(scope: ContractScope): void {
  const { unique, event } = scope;
  let store: EventStore;
  beforeAll(() => {
    store = scope.store;
  });

  describe('subscriptions', () => {
    it('subscribeToStream: catches up from the middle, then delivers live appends exactly once, in order', async () => {
      const stream = `${unique('substream')}s`;
      const early = [event(), event(), event()];
      await store.append(stream, early, 'no_stream');
      const subscription = store.subscribeToStream(stream, { after: 0n });
      const consumer = collect(subscription);
      try {
        // Appends race the catch-up: singles, a batch, more singles, with tiny pauses.
        const late: NewEvent[] = [];
        const writer = (async () => {
          for (let i = 0; i < 12; i++) {
            const events = i === 5 ? [event(), event(), event()] : [event()];
            late.push(...events);
            await store.append(stream, events, 'any');
            if (i % 3 === 0) await sleep(2);
          }
        })();
        await writer;
        const expected = ids([...early.slice(1), ...late]);
        await consumer.waitFor(expected.length);
        await sleep(100); // anything doubled would arrive by now
        await subscription.close();
        await within(consumer.finished, 2000, 'subscription loop did not end after close()');
        expect(ids(consumer.received)).toEqual(expected);
        expect(consumer.received.map((e) => e.revision)).toEqual(expected.map((_, i) => BigInt(i + 1)));
      } finally {
        await subscription.close();
      }
    }, 20_000);

    it('subscribeToStream without a start delivers from revision 0', async () => {
      const stream = `${unique('substart')}s`;
      const first = [event(), event()];
      await store.append(stream, first, 'no_stream');
      const subscription = store.subscribeToStream(stream);
      const consumer = collect(subscription);
      try {
        const next = event();
        await store.append(stream, [next], 1n);
        await consumer.waitFor(3);
        await sleep(50);
        expect(ids(consumer.received)).toEqual(ids([...first, next]));
      } finally {
        await subscription.close();
      }
    }, 20_000);

    it('subscribeToAll: catches up from a position, then delivers live appends exactly once, in order', async () => {
      const prefix = unique('suball');
      const [x, y] = [`${prefix}x`, `${prefix}y`];
      const early = [event(), event(), event()];
      await store.append(x, early.slice(0, 2), 'no_stream');
      await store.append(y, early.slice(2), 'no_stream');
      const start = (await store.readStream(x))[0].position; // subscribe from the middle
      const subscription = store.subscribeToAll({ after: start, filter: { streamPrefixes: [prefix] } });
      const consumer = collect(subscription);
      try {
        const late: NewEvent[] = [];
        const writer = (async () => {
          for (let i = 0; i < 12; i++) {
            const events = i === 4 ? [event(), event(), event(), event()] : [event()];
            late.push(...events);
            await store.append(i % 2 === 0 ? x : y, events, 'any');
            if (i % 4 === 0) await sleep(2);
          }
        })();
        await store.append(`${unique('other')}s`, [event()], 'no_stream'); // outside the filter
        await writer;
        const expected = ids([...early.slice(1), ...late]);
        await consumer.waitFor(expected.length);
        await sleep(100);
        await subscription.close();
        await within(consumer.finished, 2000, 'subscription loop did not end after close()');
        expect(ids(consumer.received)).toEqual(expected);
        expect(strictlyIncreasing(consumer.received.map((e) => e.position))).toBe(true);
        expect(consumer.received[0].position).toBeGreaterThan(start);
      } finally {
        await subscription.close();
      }
    }, 20_000);

    it('subscribeToAll: unfiltered from the head, and filtered by event type', async () => {
      const prefix = unique('suballtype');
      const type = unique('T').replace(/-/g, '');
      const head = await store.headPosition();
      const everything = store.subscribeToAll({ after: head });
      const byType = store.subscribeToAll({ after: head, filter: { eventTypePrefixes: [`${type}Wanted`] } });
      const all = collect(everything);
      const typed = collect(byType);
      try {
        const wanted1 = event(`${type}Wanted`);
        const other = event(`${type}Other`);
        const wanted2 = event(`${type}WantedToo`);
        await store.append(`${prefix}a`, [wanted1, other], 'no_stream');
        await store.append(`${prefix}b`, [wanted2], 'no_stream');
        await typed.waitFor(2);
        const deadline = Date.now() + 10_000;
        while (all.received.filter((e) => e.stream.startsWith(prefix)).length < 3 && Date.now() < deadline) {
          await sleep(5);
        }
        await sleep(50);
        expect(ids(typed.received)).toEqual(ids([wanted1, wanted2]));
        expect(ids(all.received.filter((e) => e.stream.startsWith(prefix)))).toEqual(ids([wanted1, other, wanted2]));
        expect(all.received.every((e) => e.position > head)).toBe(true);
        expect(all.received.filter((e) => e.type.startsWith('$'))).toEqual([]);
        expect(strictlyIncreasing(all.received.map((e) => e.position))).toBe(true);
      } finally {
        await everything.close();
        await byType.close();
      }
    }, 20_000);

    it('close() ends a waiting for-await loop promptly, and a closed subscription yields nothing', async () => {
      const idle = store.subscribeToStream(`${unique('idle')}s`);
      const consumer = collect(idle);
      await sleep(50); // the loop is now waiting for live events
      await idle.close();
      await within(consumer.finished, 1000, 'for await did not end after close()');
      expect(consumer.received).toEqual([]);

      const allIdle = store.subscribeToAll({
        after: await store.headPosition(),
        filter: { streamPrefixes: [unique('none')] },
      });
      const allConsumer = collect(allIdle);
      await sleep(50);
      await allIdle.close();
      await within(allConsumer.finished, 1000, 'for await on $all did not end after close()');

      // close() from inside the loop body stops delivery even in the middle of a caught-up batch.
      const busy = `${unique('busy')}s`;
      await store.append(busy, [event(), event(), event(), event(), event()], 'no_stream');
      const midBatch = store.subscribeToStream(busy);
      const seen: RecordedEvent[] = [];
      await within(
        (async () => {
          for await (const recorded of midBatch) {
            seen.push(recorded);
            if (seen.length === 2) await midBatch.close();
          }
        })(),
        1000,
        'for await did not end after close() inside the loop',
      );
      expect(seen.map((e) => e.revision)).toEqual([0n, 1n]);

      const stream = `${unique('closed')}s`;
      await store.append(stream, [event()], 'no_stream');
      const closedFirst = store.subscribeToStream(stream);
      await closedFirst.close();
      const late = collect(closedFirst);
      await within(late.finished, 1000, 'a closed subscription kept iterating');
      expect(late.received).toEqual([]);
    }, 20_000);
  });
}
