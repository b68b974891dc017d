import { randomUUID } from 'node:crypto';
import {
  EventTooLargeError,
  type EventStore,
  type NewEvent,
  type RecordedEvent,
  type Subscription,
  WrongExpectedRevisionError,
} from '../event-store.port';

/**
 * The one behaviour suite every EventStore adapter must pass (uses jest globals: import it by
 * path from a spec, never from index.ts). Stream names and event types carry a random run id
 * and a per-test counter, so the suite also runs against a shared EventStoreDB server; reads of
 * $all therefore filter on the test's own prefix, or compare reads with each other.
 */
export interface ContractFixture {
  store: EventStore;
  cleanup(): Promise<void>;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

async function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms: ${what}`)), ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** Consumes a subscription in the background. */
function collect(subscription: Subscription) {
  const received: RecordedEvent[] = [];
  const finished = (async () => {
    for await (const event of subscription) received.push(event);
  })();
  const waitFor = async (count: number, ms = 10_000) => {
    const deadline = Date.now() + ms;
    while (received.length < count) {
      if (Date.now() > deadline) throw new Error(`timed out with ${received.length} of ${count} events`);
      await sleep(5);
    }
  };
  return { received, finished, waitFor };
}

const ids = (events: ReadonlyArray<{ id: string }>) => events.map((event) => event.id);

const strictlyIncreasing = (values: bigint[]) => values.every((value, i) => i === 0 || value > values[i - 1]);

export function eventStoreContract(name: string, factory: () => Promise<ContractFixture>): void {
  describe(`EventStore contract: ${name}`, () => {
    let fixture: ContractFixture | undefined;
    let store: EventStore;
    const run = randomUUID().slice(0, 8);
    let counter = 0;
    /** A stream-name (and event-type) prefix no other test, run or user shares. */
    const unique = (label: string) => `ct${run}-${label}${++counter}-`;
    const event = (type = 'Happened', data: Record<string, unknown> = { n: counter }): NewEvent => ({
      id: randomUUID(),
      type,
      data,
      metadata: { correlation_id: `corr-${run}`, schema: 1 },
    });

    beforeAll(async () => {
      fixture = await factory();
      store = fixture.store;
    });
    afterAll(async () => {
      await fixture?.cleanup();
    });

    describe('append', () => {
      it('appends to a new stream with no_stream and reads back what was written', async () => {
        const stream = `${unique('new')}s`;
        const written = [
          event('Created', { n: 1, nested: { list: [1, 'two', null], flag: true } }),
          { id: randomUUID(), type: 'Renamed', data: { name: 'ü ✓ "quoted"' } },
        ];
        const result = await store.append(stream, written, 'no_stream');
        expect(result.nextExpectedRevision).toBe(1n);

        const read = await store.readStream(stream);
        expect(read.map((e) => [e.id, e.stream, e.type, e.revision])).toEqual([
          [written[0].id, stream, 'Created', 0n],
          [written[1].id, stream, 'Renamed', 1n],
        ]);
        expect(read.map((e) => e.data)).toEqual(written.map((e) => e.data));
        expect(read[0].metadata).toEqual(written[0].metadata);
        expect(read[1].metadata).toEqual({}); // absent metadata reads as empty
        expect(typeof read[0].position).toBe('bigint');
        expect(read[0].position).toBeLessThan(read[1].position);
        expect(read[1].position).toBe(result.position); // the result names the LAST event
        expect(new Date(read[0].created).toISOString()).toBe(read[0].created);
      });

      it('refuses an append over MAX_APPEND_BYTES (EventStoreDB’s 1 MiB), appending nothing; one just under it is stored', async () => {
        const stream = `${unique('big')}s`;
        const over = [event('Big', { text: 'x'.repeat(600 * 1024) }), event('Big', { text: 'y'.repeat(500 * 1024) })];
        await expect(store.append(stream, over, 'no_stream')).rejects.toThrow(EventTooLargeError);
        expect(await store.readStream(stream)).toEqual([]);
        const under = event('Big', { text: 'z'.repeat(1000 * 1024) });
        await store.append(stream, [under], 'no_stream');
        expect((await store.readStream(stream)).map((e) => e.id)).toEqual([under.id]);
      });

      it('rejects no_stream on an existing stream and a stale or absent revision, appending nothing', async () => {
        const stream = `${unique('conflict')}s`;
        const absent = `${unique('absent')}s`;
        await store.append(stream, [event()], 'no_stream');
        await store.append(stream, [event()], 0n);

        await expect(store.append(stream, [event()], 'no_stream')).rejects.toBeInstanceOf(WrongExpectedRevisionError);
        await expect(store.append(stream, [event()], 'no_stream')).rejects.toMatchObject({
          stream,
          expected: 'no_stream',
          actual: 1n,
        });
        await expect(store.append(stream, [event(), event()], 0n)).rejects.toMatchObject({
          name: 'WrongExpectedRevisionError',
          expected: 0n,
          actual: 1n,
        });
        await expect(store.append(stream, [event()], 7n)).rejects.toBeInstanceOf(WrongExpectedRevisionError);
        await expect(store.append(absent, [event()], 0n)).rejects.toMatchObject({ actual: 'no_stream' });

        expect(await store.readStream(stream)).toHaveLength(2);
        expect(await store.streamRevision(absent)).toBeUndefined();
        const ok = await store.append(stream, [event()], 1n);
        expect(ok.nextExpectedRevision).toBe(2n);
      });

      it("appends with 'any' to absent and existing streams", async () => {
        const stream = `${unique('any')}s`;
        expect((await store.append(stream, [event()], 'any')).nextExpectedRevision).toBe(0n);
        expect((await store.append(stream, [event(), event()], 'any')).nextExpectedRevision).toBe(2n);
        expect((await store.readStream(stream)).map((e) => e.revision)).toEqual([0n, 1n, 2n]);
      });

      it('treats a repeated append of stored event ids as a no-op returning the stored result', async () => {
        const prefix = unique('idem');
        const stream = `${prefix}s`;
        const head = await store.headPosition();
        const batch = [event(), event()];
        const first = await store.append(stream, batch, 'no_stream');
        const again = await store.append(stream, batch, 'no_stream');
        expect(again).toEqual(first);

        const single = event();
        const once = await store.append(stream, [single], 1n);
        const twice = await store.append(stream, [single], 1n);
        expect(twice).toEqual(once);
        expect(once.nextExpectedRevision).toBe(2n);

        const expected = ids([...batch, single]);
        expect(ids(await store.readStream(stream))).toEqual(expected);
        expect(ids(await store.readAll({ after: head, filter: { streamPrefixes: [prefix] } }))).toEqual(expected);
      });
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

        const allIdle = store.subscribeToAll({ after: await store.headPosition(), filter: { streamPrefixes: [unique('none')] } });
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
  });
}
