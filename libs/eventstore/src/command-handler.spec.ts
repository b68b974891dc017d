import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type CommandDecider, handleCommand } from './command-handler';
import { type EventStore, WrongExpectedRevisionError } from './event-store.port';
import { openSqliteEventStore, type SqliteEventStore } from './sqlite.event-store';

type CounterCommand = { type: 'Increment'; by: number } | { type: 'Reset' };
type CounterEvent =
  { type: 'Incremented'; data: { by: number; ref: string } } | { type: 'Reset'; data: { at: string } };
type CounterState = { count: number };

/** A tiny decider: Reset of a zero counter is already satisfied (decides nothing). */
const counter: CommandDecider<CounterCommand, CounterEvent, CounterState> = {
  initialState: { count: 0 },
  decide(command, state, { now, newId }) {
    if (command.type === 'Reset') return state.count === 0 ? [] : [{ type: 'Reset', data: { at: now } }];
    if (command.by <= 0) throw new Error('refused: increment must be positive');
    return [{ type: 'Incremented', data: { by: command.by, ref: newId() } }];
  },
  evolve(state, event) {
    return event.type === 'Incremented' ? { count: state.count + event.data.by } : { count: 0 };
  },
};

/** Wraps a store: reads yield to the event loop (so concurrent handlers interleave), appends are counted. */
function instrumented(store: EventStore) {
  const stats = { reads: 0, appends: 0, conflicts: 0 };
  const wrapped: EventStore = Object.create(store);
  wrapped.readStream = async (...args) => {
    stats.reads++;
    const events = await store.readStream(...args);
    await new Promise((resolve) => setImmediate(resolve));
    return events;
  };
  wrapped.append = async (...args) => {
    stats.appends++;
    try {
      return await store.append(...args);
    } catch (error) {
      if (error instanceof WrongExpectedRevisionError) stats.conflicts++;
      throw error;
    }
  };
  return { store: wrapped, stats };
}

describe('handleCommand', () => {
  let dir: string;
  let store: SqliteEventStore;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'command-handler-'));
    store = openSqliteEventStore(join(dir, 'events.db'));
  });
  afterEach(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('creates the stream with no_stream, passes now/newId to decide, and returns what it appended', async () => {
    const result = await handleCommand(
      store,
      'counter-1',
      counter,
      { type: 'Increment', by: 2 },
      {
        now: '2030-01-02T03:04:05.000Z',
        newId: () => 'ref-1',
        metadata: { correlation_id: 'c1' },
      },
    );
    const stored = await store.readStream('counter-1');
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatchObject({
      type: 'Incremented',
      data: { by: 2, ref: 'ref-1' },
      metadata: { correlation_id: 'c1', at: '2030-01-02T03:04:05.000Z' },
      revision: 0n,
    });
    expect(result.events).toEqual([
      {
        id: stored[0].id,
        stream: 'counter-1',
        type: 'Incremented',
        data: { by: 2, ref: 'ref-1' },
        metadata: { correlation_id: 'c1', at: '2030-01-02T03:04:05.000Z' },
        revision: 0n,
      },
    ]);
    expect(stored[0].id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(result.state).toEqual({ count: 2 });
    expect(result.position).toBe(stored[0].position);
    expect(result.nextExpectedRevision).toBe(0n);
  });

  it('reads only what was appended since its last decision on a stream (a long stream is not read again and again)', async () => {
    const read: number[] = [];
    const counting: EventStore = Object.create(store);
    counting.readStream = async (...args) => {
      const events = await store.readStream(...args);
      read.push(events.length);
      return events;
    };
    for (let i = 0; i < 200; i++) await handleCommand(counting, 'counter-long', counter, { type: 'Increment', by: 1 });
    // Another writer (another process) appends behind its back: the next decision still sees it.
    await store.append('counter-long', [{ id: randomUUID(), type: 'Incremented', data: { by: 1000, ref: 'x' } }], 199n);
    const last = await handleCommand(counting, 'counter-long', counter, { type: 'Increment', by: 1 });
    expect(last.state).toEqual({ count: 1201 });
    expect(last.nextExpectedRevision).toBe(201n);
    // One full read (empty) at the start, then only new events: 1 for the other writer's.
    expect(read.reduce((a, b) => a + b, 0)).toBe(1);
    expect((await store.readStream('counter-long')).length).toBe(202);
  });

  it('folds the stored events and appends with the revision it read', async () => {
    await handleCommand(store, 'counter-1', counter, { type: 'Increment', by: 1 });
    await handleCommand(store, 'counter-1', counter, { type: 'Increment', by: 4 });
    const result = await handleCommand(store, 'counter-1', counter, { type: 'Reset' });
    expect(result.state).toEqual({ count: 0 });
    expect(result.events.map((e) => [e.type, e.revision])).toEqual([['Reset', 2n]]);
    expect((await store.readStream('counter-1')).map((e) => e.type)).toEqual(['Incremented', 'Incremented', 'Reset']);
  });

  it('appends nothing when the decider decides nothing', async () => {
    const onEmpty = await handleCommand(store, 'counter-1', counter, { type: 'Reset' });
    expect(onEmpty).toEqual({ events: [], state: { count: 0 }, nextExpectedRevision: undefined });
    await handleCommand(store, 'counter-2', counter, { type: 'Increment', by: 1 });
    await handleCommand(store, 'counter-2', counter, { type: 'Reset' });
    const head = await store.headPosition();
    const satisfied = await handleCommand(store, 'counter-2', counter, { type: 'Reset' });
    expect(satisfied).toEqual({ events: [], state: { count: 0 }, nextExpectedRevision: 1n });
    expect(await store.headPosition()).toBe(head);
    expect(await store.streamRevision('counter-1')).toBeUndefined();
  });

  it('expectNew: a new stream is appended without a read; an existing one is read and decided on as usual', async () => {
    const { store: counted, stats } = instrumented(store);
    const first = await handleCommand(
      counted,
      'counter-new',
      counter,
      { type: 'Increment', by: 2 },
      { expectNew: true },
    );
    expect(stats).toEqual({ reads: 0, appends: 1, conflicts: 0 });
    expect(first.state).toEqual({ count: 2 });
    // The stream exists (a redelivered call): the no-stream append conflicts, and the command is
    // decided on what is stored, here adding to it; a satisfied command appends nothing.
    const again = await handleCommand(
      counted,
      'counter-new',
      counter,
      { type: 'Increment', by: 3 },
      { expectNew: true },
    );
    expect(again.state).toEqual({ count: 5 });
    expect(stats).toEqual({ reads: 1, appends: 3, conflicts: 1 });
    // Deciding nothing on the empty state proves nothing of the stored one: it is read and decided on.
    const reads = stats.reads;
    const reset = await handleCommand(counted, 'counter-new', counter, { type: 'Reset' }, { expectNew: true });
    expect(stats.reads).toBe(reads + 1);
    expect(reset.events.map((e) => e.type)).toEqual(['Reset']);
    const satisfied = await handleCommand(counted, 'counter-new', counter, { type: 'Reset' }, { expectNew: true });
    expect(satisfied.events).toEqual([]);
    expect((await store.readStream('counter-new')).map((e) => e.type)).toEqual(['Incremented', 'Incremented', 'Reset']);
  });

  it('retries on a conflict: two concurrent handlers on one stream both succeed, none lost', async () => {
    const { store: racing, stats } = instrumented(store);
    const [a, b] = await Promise.all([
      handleCommand(racing, 'counter-1', counter, { type: 'Increment', by: 1 }),
      handleCommand(racing, 'counter-1', counter, { type: 'Increment', by: 10 }),
    ]);
    expect(stats.conflicts).toBeGreaterThanOrEqual(1); // both read the empty stream: one had to retry
    const stored = await store.readStream('counter-1');
    expect(stored.map((e) => e.revision)).toEqual([0n, 1n]);
    expect(stored.map((e) => (e.data as { by: number }).by).sort((x, y) => x - y)).toEqual([1, 10]);
    expect([a.state.count, b.state.count].sort((x, y) => x - y)).toEqual([1, 11]); // the retry saw the other's event
  });

  it('retries many concurrent handlers until every command is in', async () => {
    const { store: racing, stats } = instrumented(store);
    const results = await Promise.all(
      Array.from({ length: 8 }, () =>
        handleCommand(racing, 'counter-1', counter, { type: 'Increment', by: 1 }, { maxAttempts: 50 }),
      ),
    );
    expect(stats.conflicts).toBeGreaterThan(0);
    expect(results.map((r) => r.state.count).sort((x, y) => x - y)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect((await store.readStream('counter-1')).map((e) => e.revision)).toEqual([0n, 1n, 2n, 3n, 4n, 5n, 6n, 7n]);
  });

  it('gives up after maxAttempts conflicts and rethrows the conflict', async () => {
    const { store: broken, stats } = instrumented(store);
    broken.append = async (stream) => {
      stats.appends++;
      throw new WrongExpectedRevisionError(stream, 'no_stream', 0n);
    };
    await expect(
      handleCommand(broken, 'counter-1', counter, { type: 'Increment', by: 1 }, { maxAttempts: 3 }),
    ).rejects.toBeInstanceOf(WrongExpectedRevisionError);
    expect(stats.appends).toBe(3);
    expect(stats.reads).toBe(3);
  });

  it('does not retry a refusal from decide', async () => {
    const { store: watched, stats } = instrumented(store);
    await expect(handleCommand(watched, 'counter-1', counter, { type: 'Increment', by: 0 })).rejects.toThrow(/refused/);
    expect(stats).toEqual({ reads: 1, appends: 0, conflicts: 0 });
  });

  it('with deterministic event ids, a redelivered expectNew command appends nothing new', async () => {
    const id = randomUUID();
    const options = { eventId: () => id, expectNew: true };
    const first = await handleCommand(store, 'counter-1', counter, { type: 'Increment', by: 3 }, options);
    const again = await handleCommand(store, 'counter-1', counter, { type: 'Increment', by: 3 }, options);
    expect((await store.readStream('counter-1')).map((e) => e.id)).toEqual([id]);
    expect(again.nextExpectedRevision).toBe(0n);
    expect(again.position).toBe(first.position);
    expect(again.state).toEqual({ count: 3 }); // not counted twice
  });

  it('with deterministic event ids, a command decided again at the current revision is appended again', async () => {
    // The store answers retries of an append, not repeated commands (as EventStoreDB does).
    const id = randomUUID();
    await handleCommand(store, 'counter-1', counter, { type: 'Increment', by: 3 }, { eventId: () => id });
    const again = await handleCommand(store, 'counter-1', counter, { type: 'Increment', by: 3 }, { eventId: () => id });
    expect((await store.readStream('counter-1')).map((e) => e.id)).toEqual([id, id]);
    expect(again.state).toEqual({ count: 6 });
  });
});
