/**
 * EsdbEventStore's own logic over a scripted client (testing/scripted-esdb-client.ts: a test
 * double standing in for EventStoreDB, which cannot run here). What a real server does is the
 * contract suite's part (esdb.event-store.spec.ts with ESDB_TEST_URL).
 */
import { randomUUID } from 'node:crypto';
import { MaxAppendSizeExceededError } from '@eventstore/db-client';
import { EsdbEventStore } from './esdb.event-store';
import { EventTooLargeError, type NewEvent } from './event-store.port';
import { ScriptedEsdbClient } from './testing/scripted-esdb-client';

const event = (type = 'Happened', data: Record<string, unknown> = {}): NewEvent => ({ id: randomUUID(), type, data });

function scripted() {
  const client = new ScriptedEsdbClient();
  return { client, store: new EsdbEventStore(client.asClient()) };
}

describe('EsdbEventStore over a scripted client', () => {
  it('reads back what it appended (the double plays the client’s shapes)', async () => {
    const { store } = scripted();
    const written = [event('A', { n: 1 }), event('B')];
    const result = await store.append('s', written, 'no_stream');
    const read = await store.readStream('s');
    expect(read.map((e) => [e.id, e.type, e.revision])).toEqual([
      [written[0].id, 'A', 0n],
      [written[1].id, 'B', 1n],
    ]);
    expect(result).toEqual({ nextExpectedRevision: 1n, position: read[1].position });
    expect(await store.readStream('absent')).toEqual([]);
    expect((await store.readAll()).map((e) => e.id)).toEqual(written.map((e) => e.id));
  });

  it('maps the server’s maximum-append-size-exceeded to EventTooLargeError with the server’s limit', async () => {
    const { client, store } = scripted();
    // A server configured with a smaller MaxAppendSize than the port's refuses what passed the pre-check.
    client.appendError = MaxAppendSizeExceededError.fromMaxAppendSize(1024);
    const events = [event('Sized', { text: 'x'.repeat(2000) })];
    const refused = await store.append('s', events, 'no_stream').catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(EventTooLargeError);
    expect(refused).toMatchObject({ stream: 's', types: ['Sized'], limit: 1024 });
    expect((refused as EventTooLargeError).bytes).toBeGreaterThan(2000);
  });
});

describe('EsdbEventStore positions the server did not report', () => {
  it.each([
    ['left unset (read by the client as 0)', 'unset'],
    ['reported as -1 (read by the client as 2^64 - 1)', 'minus-one'],
  ] as const)('reads a stream event whose position was %s as unknown (-1n)', async (_, positions) => {
    const { client, store } = scripted();
    await store.append('s', [event(), event()], 'no_stream');
    client.streamReadPositions = positions;
    expect((await store.readStream('s')).map((e) => e.position)).toEqual([-1n, -1n]);
  });

  it('reports an append whose position neither the result nor a read-back names as unknown (-1n)', async () => {
    const { client, store } = scripted();
    client.streamReadPositions = 'unset';
    client.reportAppendPosition = false;
    expect((await store.append('s', [event(), event()], 'no_stream')).position).toBe(-1n);
    expect((await store.append('s', [event()], 1n)).position).toBe(-1n);
  });
});

describe('EsdbEventStore filtered reads of $all', () => {
  /** 3 matches, 40 others, 10 matches, 5 others: the head is an event that does not match. */
  function sparseLog(client: ScriptedEsdbClient) {
    const early = Array.from({ length: 3 }, () => client.add('want-a'));
    for (let i = 0; i < 40; i++) client.add('noise');
    const late = Array.from({ length: 10 }, () => client.add('want-b'));
    for (let i = 0; i < 5; i++) client.add('noise');
    return { early, late, head: client.log[client.log.length - 1]!.position.commit };
  }
  const wanted = { streamPrefixes: ['want-'] };

  it('fills the page when the server goes quiet before the head: the rest is read on, filtered here', async () => {
    const client = new ScriptedEsdbClient();
    const store = new EsdbEventStore(client.asClient(), [client.asClient()], { filteredReadIdleMs: 50 });
    const { early, late } = sparseLog(client);
    // A server before 23.10 sends the early matches, then nothing: no checkpoint, no caughtUp.
    client.subscriptionScript = { deliverUpTo: early[2]!.position.commit, then: 'quiet' };
    const page = await store.readAll({ filter: wanted, maxCount: 5 });
    expect(page.map((e) => e.id)).toEqual([...early, ...late.slice(0, 2)].map((e) => e.id));
    // Read on only as far as the page needed: the head (1), then from the last event the server
    // sent (1, reads are inclusive) past 40 others to the 2nd late match (2); one more in flight at most.
    expect(client.streamed).toBeLessThanOrEqual(45);

    const everything = await store.readAll({ filter: wanted });
    expect(everything.map((e) => e.id)).toEqual([...early, ...late].map((e) => e.id));
    expect(client.subscriptions.every((s) => s.cancelled)).toBe(true);
  });

  it.each(['checkpoint', 'caughtUp'] as const)(
    'ends at once when the server reports the head (%s), without waiting for silence',
    async (then) => {
      const client = new ScriptedEsdbClient();
      // An idle wait would outlast the test.
      const store = new EsdbEventStore(client.asClient(), [client.asClient()], { filteredReadIdleMs: 60_000 });
      const { early, late } = sparseLog(client);
      client.subscriptionScript = { then };
      const page = await store.readAll({ filter: wanted, maxCount: 100 });
      expect(page.map((e) => e.id)).toEqual([...early, ...late].map((e) => e.id));
      expect(client.streamed).toBeLessThan(5); // the head read only: nothing was scanned here
    },
    5_000,
  );

  it('waits for a silent server far less than the 2 s it used to (by default)', async () => {
    const { client, store } = scripted();
    const { early, late } = sparseLog(client);
    client.subscriptionScript = { deliverUpTo: early[2]!.position.commit, then: 'quiet' };
    const started = Date.now();
    const page = await store.readAll({ filter: wanted, maxCount: 4 });
    expect(Date.now() - started).toBeLessThan(1_500); // FILTERED_READ_IDLE_MS (500) and the scan
    expect(page.map((e) => e.id)).toEqual([...early, late[0]!].map((e) => e.id));
  });

  it('ends at once on an event at the head, and on a full page', async () => {
    const client = new ScriptedEsdbClient();
    const store = new EsdbEventStore(client.asClient(), [client.asClient()], { filteredReadIdleMs: 60_000 });
    const { early, late } = sparseLog(client);
    const last = client.add('want-c');
    client.subscriptionScript = { then: 'quiet' };
    const all = await store.readAll({ filter: wanted });
    expect(all.map((e) => e.id)).toEqual([...early, ...late, last].map((e) => e.id));
    expect((await store.readAll({ filter: wanted, maxCount: 2 })).map((e) => e.id)).toEqual(
      early.slice(0, 2).map((e) => e.id),
    );
    expect(await store.readAll({ filter: wanted, after: last.position.commit })).toEqual([]);
  }, 5_000);
});
