/** The EventStore contract's appends: expected revisions, idempotent retries, the size limit. */
import { randomUUID } from 'node:crypto';
import { EventTooLargeError, type EventStore, MAX_APPEND_BYTES, WrongExpectedRevisionError } from '../event-store.port';
import { type ContractScope, ids } from './event-store.contract-helpers';

/** Registers this part of the contract in the calling describe block (see eventStoreContract). */
export function appendContract(scope: ContractScope): void {
  const { unique, event } = scope;
  let store: EventStore;
  beforeAll(() => {
    store = scope.store;
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

    it('counts an append as EventStoreDB does: data and metadata bytes, plus two bytes per UTF-16 unit of the type', async () => {
      const stream = `${unique('edge')}s`;
      const type = 'Edge大'; // 5 UTF-16 units (10 bytes counted), 7 bytes in UTF-8
      const metadata = { schema: 1 };
      const fixed =
        Buffer.byteLength(JSON.stringify({ text: '' })) + Buffer.byteLength(JSON.stringify(metadata)) + 2 * type.length;
      const sized = (bytes: number) => ({
        id: randomUUID(),
        type,
        data: { text: 'x'.repeat(bytes - fixed) },
        metadata,
      });
      await expect(store.append(stream, [sized(MAX_APPEND_BYTES + 1)], 'no_stream')).rejects.toMatchObject({
        name: 'EventTooLargeError',
        bytes: MAX_APPEND_BYTES + 1,
      });
      const exact = sized(MAX_APPEND_BYTES); // exactly the limit: allowed
      await store.append(stream, [exact], 'no_stream');
      expect((await store.readStream(stream)).map((e) => e.id)).toEqual([exact.id]);
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

    it('answers a retry at the first attempt’s expected revision with its result, also after the stream moved on', async () => {
      const prefix = unique('idem');
      const stream = `${prefix}s`;
      const head = await store.headPosition();
      const batch = [event(), event()];
      const first = await store.append(stream, batch, 'no_stream');
      expect(await store.append(stream, batch, 'no_stream')).toEqual(first);

      const single = event();
      const once = await store.append(stream, [single], 1n);
      expect(once.nextExpectedRevision).toBe(2n);
      expect(await store.append(stream, [single], 1n)).toEqual(once);

      // The stream moves on; the retries still name what their first attempts stored.
      const later = event();
      await store.append(stream, [later], 2n);
      expect(await store.append(stream, batch, 'no_stream')).toEqual(first);
      expect(await store.append(stream, [single], 1n)).toEqual(once);

      const expected = ids([...batch, single, later]);
      expect(ids(await store.readStream(stream))).toEqual(expected);
      expect(ids(await store.readAll({ after: head, filter: { streamPrefixes: [prefix] } }))).toEqual(expected);
    });

    it('refuses a retry that only partly matches what is stored at its revision, writing nothing', async () => {
      const stream = `${unique('partial')}s`;
      const stored = [event(), event()];
      await store.append(stream, stored, 'no_stream');
      const longer = [...stored, event()];
      await expect(store.append(stream, longer, 'no_stream')).rejects.toMatchObject({
        name: 'WrongExpectedRevisionError',
        expected: 'no_stream',
        actual: 1n,
      });
      await expect(store.append(stream, [stored[0], event()], 'no_stream')).rejects.toBeInstanceOf(
        WrongExpectedRevisionError,
      );
      expect(ids(await store.readStream(stream))).toEqual(ids(stored));
    });

    it('writes the same ids again when they are appended at the current revision: ids are not unique', async () => {
      const stream = `${unique('again')}s`;
      const repeated = event();
      const first = await store.append(stream, [repeated], 'no_stream');
      const again = await store.append(stream, [repeated], 0n);
      expect(again.nextExpectedRevision).toBe(1n);
      expect(again.position).toBeGreaterThan(first.position);
      const read = await store.readStream(stream);
      expect(read.map((e) => [e.id, e.revision, e.position])).toEqual([
        [repeated.id, 0n, first.position],
        [repeated.id, 1n, again.position],
      ]);
    });
  });
}
