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
