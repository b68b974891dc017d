import { randomUUID } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { followAll } from './follow-all';
import type { RecordedEvent } from './event-store.port';
import { SqliteEventStore } from './sqlite.event-store';
import { FaultyEventStore } from './testing/faulty-event-store';

const until = async (check: () => boolean, ms = 5_000) => {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
};

describe('followAll over a store whose subscriptions drop', () => {
  let store: FaultyEventStore;
  beforeEach(() => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wr-follow-'));
    store = new FaultyEventStore(new SqliteEventStore(path.join(dir, 'events.db')));
  });
  afterEach(() => store.close());

  const append = (stream: string, n: number) =>
    store.append(
      stream,
      Array.from({ length: n }, (_, i) => ({ id: randomUUID(), type: 'Noted', data: { i } })),
      'any',
    );

  it('takes a dropped subscription up again from the last event handled: nothing missed, nothing twice', async () => {
    const seen: bigint[] = [];
    const drops: unknown[] = [];
    const follower = followAll(store, (event) => void seen.push(event.position), {
      retryMs: 5,
      onDrop: (error) => drops.push(error),
    });
    await append('notes-a', 5);
    await until(() => seen.length === 5);
    for (let round = 0; round < 5; round++) {
      expect(store.dropSubscriptions()).toBe(1);
      await append('notes-a', 3);
      await until(() => seen.length === 8 + round * 3);
    }
    await follower.stop();
    expect(drops).toHaveLength(5);
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen).toEqual([...seen].sort((a, b) => (a < b ? -1 : 1)));
    expect(store.openSubscriptions).toBe(0);
  });

  it('offers an event its handler threw on again, after a pause', async () => {
    const handled: RecordedEvent[] = [];
    let failures = 0;
    const follower = followAll(
      store,
      (event) => {
        if (failures++ < 2) throw new Error('the read store blinked');
        handled.push(event);
      },
      { retryMs: 5 },
    );
    await append('notes-b', 2);
    await until(() => handled.length === 2);
    await follower.stop();
    expect(handled.map((e) => (e.data as { i: number }).i)).toEqual([0, 1]);
  });

  it('with attemptsPerEvent, sets aside an event its handler always throws on, and goes on', async () => {
    const handled: number[] = [];
    const setAside: Array<{ i: number; attempts: number }> = [];
    const follower = followAll(
      store,
      (event) => {
        const { i } = event.data as { i: number };
        if (i === 1) throw new Error('never handled');
        handled.push(i);
      },
      {
        retryMs: 5,
        attemptsPerEvent: 3,
        onSetAside: (event, _error, attempts) => setAside.push({ i: (event.data as { i: number }).i, attempts }),
      },
    );
    await append('notes-c', 3);
    await until(() => handled.length === 2);
    await follower.stop();
    expect(handled).toEqual([0, 2]);
    expect(setAside).toEqual([{ i: 1, attempts: 3 }]);
  });

  it('stops at once, even while waiting to resubscribe', async () => {
    const follower = followAll(store, () => undefined, { retryMs: 60_000 });
    await until(() => store.openSubscriptions === 1);
    store.dropSubscriptions();
    const started = Date.now();
    await follower.stop();
    expect(Date.now() - started).toBeLessThan(1_000);
  });
});
