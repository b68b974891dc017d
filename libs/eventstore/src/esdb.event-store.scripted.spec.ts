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
