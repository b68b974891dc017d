import type { ReadDoc, ReadStore } from './read-store.port';
import { queryContract, type ContractOptions } from './read-store.query.contract';

export type { ContractOptions, ServerGap } from './read-store.query.contract';

/**
 * The contract every ReadStore adapter passes. Collection and checkpoint names are unique per
 * test so the suite can run against a shared server without cleanup between tests.
 */
export function readStoreContract(
  name: string,
  factory: () => ReadStore | Promise<ReadStore>,
  options: ContractOptions = {},
): void {
  describe(`ReadStore contract: ${name}`, () => {
    let store: ReadStore;
    let coll: string;
    const run = `${process.pid}_${Date.now().toString(36)}`;
    let seq = 0;

    beforeEach(async () => {
      store = await factory();
      coll = `contract_${run}_${++seq}`;
    });
    afterEach(async () => {
      await store.clear(coll);
      await store.close();
    });

    const strip = (docs: ReadDoc[]) => docs.map((d) => d._id);
    async function seed(): Promise<void> {
      const rows = [
        { id: 'a', group: 'x', n: 3, tags: 'red', meta: { day: '2024-01-01', score: 10 } },
        { id: 'b', group: 'y', n: 1, tags: 'blue', meta: { day: '2024-01-02', score: 20 } },
        { id: 'c', group: 'x', n: 2, tags: 'green', meta: { day: '2024-01-03', score: 30 } },
        { id: 'd', group: 'y', n: 5, tags: 'red', meta: { day: '2024-01-04', score: 40 } },
        { id: 'e', group: 'x', n: 4, tags: 'blue', meta: { day: '2024-01-05', score: 50 } },
      ];
      for (const { id, ...doc } of rows) expect(await store.upsert(coll, id, doc, 0n)).toBe(true);
    }

    describe('upsert and get', () => {
      it('stores the doc with its _id and _version as a decimal string', async () => {
        expect(await store.upsert(coll, 'k1', { title: 'one', nested: { a: [1, 2] } }, 7n)).toBe(true);
        expect(await store.get(coll, 'k1')).toEqual({ _id: 'k1', _version: '7', title: 'one', nested: { a: [1, 2] } });
      });

      it('refuses what MongoDB cannot store (a key holding a NUL byte, a document over 16 MiB), and keeps the previous version', async () => {
        await store.upsert(coll, 'refused', { ok: 1 }, 1n);
        await expect(store.upsert(coll, 'refused', { metadata: { 'a\u0000b': 'x' } }, 2n)).rejects.toThrow(
          /null bytes|NUL byte/,
        );
        await expect(store.upsert(coll, 'refused', { text: 'x'.repeat(17 * 1024 * 1024) }, 3n)).rejects.toThrow(
          /16|too large|size/i,
        );
        // Both as DocumentRefused: the projector sets such a write aside at once, without retries.
        await expect(store.upsert(coll, 'refused', { metadata: { 'a\u0000b': 'x' } }, 4n)).rejects.toMatchObject({
          name: 'DocumentRefused',
        });
        await expect(store.upsert(coll, 'refused', { text: 'x'.repeat(17 * 1024 * 1024) }, 5n)).rejects.toMatchObject({
          name: 'DocumentRefused',
        });
        expect(await store.get(coll, 'refused')).toMatchObject({ ok: 1, _version: '1' });
      });

      it("refuses a document nested deeper than 100 levels (MongoDB's limit; arrays count) and keeps the previous version", async () => {
        // The document itself is level 1; each object (or, `withArrays`, every other level an array
        // of one object: FerretDB stores no array directly in an array) is one level more.
        const nested = (levels: number, withArrays = false) => {
          let value: unknown = { leaf: levels };
          for (let level = levels - 1; level >= 1; level--)
            value = withArrays && level % 2 === 0 ? [value] : { n: value };
          return value as Record<string, unknown>;
        };
        expect(await store.upsert(coll, 'deep', nested(100), 1n)).toBe(true);
        expect(await store.get(coll, 'deep')).toEqual({ _id: 'deep', _version: '1', ...nested(100) });
        await expect(store.upsert(coll, 'deep', nested(101), 2n)).rejects.toMatchObject({
          name: 'DocumentRefused',
          message: expect.stringMatching(/nested over 100 levels/),
        });
        await expect(store.upsert(coll, 'deep', nested(101, true), 3n)).rejects.toMatchObject({
          name: 'DocumentRefused',
        });
        // Far past any stack: refused, not overflowed.
        await expect(store.upsert(coll, 'deep', nested(100_000), 4n)).rejects.toMatchObject({
          name: 'DocumentRefused',
        });
        expect(await store.get(coll, 'deep')).toEqual({ _id: 'deep', _version: '1', ...nested(100) });
        expect(await store.upsert(coll, 'deep', nested(100, true), 5n)).toBe(true);
        expect(await store.get(coll, 'deep')).toEqual({ _id: 'deep', _version: '5', ...nested(100, true) });
      });

      it('returns undefined for an absent id or collection', async () => {
        expect(await store.get(coll, 'missing')).toBeUndefined();
        expect(await store.get(`${coll}_none`, 'missing')).toBeUndefined();
      });

      it('is not affected by the caller mutating its input or a result', async () => {
        const input = { title: 'one', list: [1] };
        await store.upsert(coll, 'k1', input, 1n);
        input.title = 'changed';
        input.list.push(2);
        const got = (await store.get(coll, 'k1'))!;
        try {
          (got as Record<string, unknown>).title = 'mutated';
          (got.list as number[]).push(3);
        } catch {
          // a frozen result rejects the mutation: also fine
        }
        expect(await store.get(coll, 'k1')).toEqual({ _id: 'k1', _version: '1', title: 'one', list: [1] });
      });

      it('replaces the whole doc: fields absent from the new version disappear', async () => {
        await store.upsert(coll, 'k1', { a: 1, b: 2 }, 1n);
        await store.upsert(coll, 'k1', { a: 3 }, 2n);
        expect(await store.get(coll, 'k1')).toEqual({ _id: 'k1', _version: '2', a: 3 });
      });

      it('leaves out a property holding undefined (at any depth) and stores an undefined array item as null', async () => {
        await store.upsert(coll, 'k1', { a: undefined, b: 1, c: { d: undefined, e: 2 }, f: [1, undefined] }, 1n);
        const stored = (await store.get(coll, 'k1'))!;
        expect(stored).toEqual({ _id: 'k1', _version: '1', b: 1, c: { e: 2 }, f: [1, null] });
        expect('a' in stored).toBe(false);
        expect('d' in (stored.c as object)).toBe(false);
        expect(await store.count(coll, { a: null })).toBe(1);
        expect(await store.find(coll, { a: { $exists: true } })).toEqual([]);
      });

      it("reads back keys a server would refuse as written: a JSON Schema's $id, dotted keys, keys holding the escape mark", async () => {
        const doc = {
          output_schema: { $id: 'https://example.test/s', $defs: { 'a.b': { type: 'string' } }, properties: {} },
          metadata: { 'v1.2': 'x', '%2E': 'y', '%': 'z', 'plain key': 'w', a$b: 'v' },
          list: [{ $ref: '#/x' }],
          $top: 1,
        };
        await store.upsert(coll, 'k1', doc, 1n);
        expect(await store.get(coll, 'k1')).toEqual({ _id: 'k1', _version: '1', ...doc });
        expect(await store.find(coll, { _id: 'k1' })).toEqual([{ _id: 'k1', _version: '1', ...doc }]);
      });

      it('ignores _id and _version carried in the doc (the spread of a previous version)', async () => {
        await store.upsert(coll, 'k1', { a: 1 }, 1n);
        const prev = (await store.get(coll, 'k1'))!;
        expect(await store.upsert(coll, 'k1', { ...prev, a: 2 }, 2n)).toBe(true);
        expect(await store.get(coll, 'k1')).toEqual({ _id: 'k1', _version: '2', a: 2 });
      });
    });

    describe('version guard', () => {
      it('skips an equal or older version and writes a newer one', async () => {
        expect(await store.upsert(coll, 'k', { v: 'five' }, 5n)).toBe(true);
        expect(await store.upsert(coll, 'k', { v: 'five again' }, 5n)).toBe(false);
        expect(await store.upsert(coll, 'k', { v: 'four' }, 4n)).toBe(false);
        expect(await store.get(coll, 'k')).toMatchObject({ v: 'five', _version: '5' });
        expect(await store.upsert(coll, 'k', { v: 'six' }, 6n)).toBe(true);
        expect(await store.get(coll, 'k')).toMatchObject({ v: 'six', _version: '6' });
      });

      it('accepts version 0 on a new doc', async () => {
        expect(await store.upsert(coll, 'k', { v: 0 }, 0n)).toBe(true);
        expect(await store.upsert(coll, 'k', { v: 0 }, 0n)).toBe(false);
      });

      it('orders versions numerically, not as strings ("9" < "10")', async () => {
        await store.upsert(coll, 'k', { v: 10 }, 10n);
        expect(await store.upsert(coll, 'k', { v: 9 }, 9n)).toBe(false);
        expect(await store.upsert(coll, 'k', { v: 100 }, 100n)).toBe(true);
        expect(await store.get(coll, 'k')).toMatchObject({ v: 100 });
      });

      it('compares exactly beyond 2^53 (where doubles collide) and beyond 2^64', async () => {
        const p53 = 2n ** 53n;
        await store.upsert(coll, 'k', { v: 'p53' }, p53);
        // As doubles 2^53 + 1 === 2^53: a lossy comparison would skip this newer write.
        expect(await store.upsert(coll, 'k', { v: 'p53+1' }, p53 + 1n)).toBe(true);
        expect(await store.upsert(coll, 'k', { v: 'p53 again' }, p53)).toBe(false);
        expect(await store.get(coll, 'k')).toMatchObject({ v: 'p53+1', _version: (p53 + 1n).toString() });

        const p64 = 2n ** 64n;
        expect(await store.upsert(coll, 'k', { v: 'p64+1' }, p64 + 1n)).toBe(true);
        expect(await store.upsert(coll, 'k', { v: 'p64' }, p64)).toBe(false);
        expect(await store.get(coll, 'k')).toMatchObject({ v: 'p64+1', _version: (p64 + 1n).toString() });
      });

      it('guards each id separately', async () => {
        await store.upsert(coll, 'k1', { v: 1 }, 50n);
        expect(await store.upsert(coll, 'k2', { v: 2 }, 1n)).toBe(true);
      });
    });

    describe('delete', () => {
      it('removes a doc only for a newer version', async () => {
        if (!store.delete) return expect(store.delete).toBeUndefined();
        await store.upsert(coll, 'k', { v: 1 }, 5n);
        expect(await store.delete(coll, 'k', 5n)).toBe(false);
        expect(await store.get(coll, 'k')).toBeDefined();
        expect(await store.delete(coll, 'k', 6n)).toBe(true);
        expect(await store.get(coll, 'k')).toBeUndefined();
        expect(await store.delete(coll, 'k', 7n)).toBe(false);
      });
    });

    describe('find and count', () => {
      beforeEach(seed);

      it('finds everything with no filter', async () => {
        expect((await store.find(coll)).map((d) => d._id).sort()).toEqual(['a', 'b', 'c', 'd', 'e']);
        expect(await store.find(`${coll}_none`)).toEqual([]);
      });

      it('filters by equality, $gte/$lte, $in and nested fields', async () => {
        const ids = async (filter: Record<string, unknown>) =>
          strip(await store.find(coll, filter, { sort: { _id: 1 } }));
        expect(await ids({ group: 'x' })).toEqual(['a', 'c', 'e']);
        expect(await ids({ n: { $gte: 2, $lte: 4 } })).toEqual(['a', 'c', 'e']);
        expect(await ids({ tags: { $in: ['red', 'green'] } })).toEqual(['a', 'c', 'd']);
        expect(await ids({ 'meta.day': { $gte: '2024-01-03' } })).toEqual(['c', 'd', 'e']);
        expect(await ids({ 'meta.score': { $lte: 20 }, group: 'y' })).toEqual(['b']);
        expect(await ids({ group: 'z' })).toEqual([]);
      });

      it('returns the stored docs', async () => {
        const [doc] = await store.find(coll, { _id: 'b' });
        expect(doc).toEqual({
          _id: 'b',
          _version: '0',
          group: 'y',
          n: 1,
          tags: 'blue',
          meta: { day: '2024-01-02', score: 20 },
        });
      });

      it('sorts ascending and descending on one key', async () => {
        expect(strip(await store.find(coll, {}, { sort: { n: 1 } }))).toEqual(['b', 'c', 'a', 'e', 'd']);
        expect(strip(await store.find(coll, {}, { sort: { n: -1 } }))).toEqual(['d', 'e', 'a', 'c', 'b']);
        expect(strip(await store.find(coll, {}, { sort: { 'meta.score': -1 } }))).toEqual(['e', 'd', 'c', 'b', 'a']);
      });

      it('sorts on several keys in the order given', async () => {
        expect(strip(await store.find(coll, {}, { sort: { group: 1, n: -1 } }))).toEqual(['e', 'a', 'c', 'd', 'b']);
        expect(strip(await store.find(coll, {}, { sort: { group: -1, n: 1 } }))).toEqual(['b', 'd', 'c', 'a', 'e']);
      });

      it('skips and limits after sorting', async () => {
        expect(strip(await store.find(coll, {}, { sort: { n: 1 }, skip: 1, limit: 2 }))).toEqual(['c', 'a']);
        expect(strip(await store.find(coll, {}, { sort: { n: 1 }, limit: 3 }))).toEqual(['b', 'c', 'a']);
        expect(strip(await store.find(coll, {}, { sort: { n: 1 }, skip: 4 }))).toEqual(['d']);
        expect(strip(await store.find(coll, { group: 'x' }, { sort: { n: -1 }, skip: 1, limit: 1 }))).toEqual(['a']);
        expect(await store.find(coll, {}, { sort: { n: 1 }, skip: 10 })).toEqual([]);
      });

      it('counts with and without a filter', async () => {
        expect(await store.count(coll)).toBe(5);
        expect(await store.count(coll, { group: 'x' })).toBe(3);
        expect(await store.count(coll, { 'meta.score': { $gte: 30 } })).toBe(3);
        expect(await store.count(coll, { group: 'z' })).toBe(0);
        expect(await store.count(`${coll}_none`)).toBe(0);
      });

      it('clear drops every doc of that collection only, and resets the version guard', async () => {
        const other = `${coll}_other`;
        await store.upsert(other, 'o', { v: 1 }, 9n);
        await store.upsert(coll, 'a', { v: 'a9' }, 9n);
        await store.clear(coll);
        expect(await store.count(coll)).toBe(0);
        expect(await store.find(coll)).toEqual([]);
        expect(await store.get(coll, 'a')).toBeUndefined();
        expect(await store.get(other, 'o')).toMatchObject({ v: 1 });
        expect(await store.upsert(coll, 'a', { v: 'again' }, 0n)).toBe(true);
        await store.clear(other);
      });
    });

    describe('equality index', () => {
      it('answers finds on an indexed field exactly as without the index, through updates, deletes and clear', async () => {
        await seed();
        await store.ensureIndex(coll, 'group');
        expect(strip(await store.find(coll, { group: 'x' }, { sort: { n: 1 } }))).toEqual(['c', 'a', 'e']);
        expect(await store.upsert(coll, 'c', { group: 'y', n: 2 }, 1n)).toBe(true);
        expect(await store.upsert(coll, 'f', { group: 'x', n: 9 }, 0n)).toBe(true);
        await store.delete(coll, 'e', 1n);
        expect(strip(await store.find(coll, { group: 'x', n: { $gte: 3 } }, { sort: { n: 1 } }))).toEqual(['a', 'f']);
        expect(strip(await store.find(coll, { group: 'y' }, { sort: { _id: 1 } }))).toEqual(['b', 'c', 'd']);
        expect(await store.count(coll, { group: 'x' })).toBe(2);
        expect(await store.find(coll, { group: 'nobody' })).toEqual([]);
        await store.clear(coll);
        expect(await store.find(coll, { group: 'x' })).toEqual([]);
        expect(await store.upsert(coll, 'g', { group: 'x', n: 1 }, 0n)).toBe(true);
        expect(strip(await store.find(coll, { group: 'x' }))).toEqual(['g']);
      });

      it('answers null, an array element and a nested field on an indexed field as MongoDB does', async () => {
        for (const field of ['f', 'tags', 'meta.day']) await store.ensureIndex(coll, field);
        const ids = async (filter: Record<string, unknown>) =>
          strip(await store.find(coll, filter, { sort: { _id: 1 } }));
        await store.upsert(coll, 'a', { f: 'x', tags: ['red', 'blue'], meta: { day: 'mon' } }, 0n);
        await store.upsert(coll, 'b', { f: null, tags: 'red', meta: { day: 'tue' } }, 0n);
        await store.upsert(coll, 'c', { tags: [] }, 0n);
        await store.upsert(coll, 'd', { f: ['x', null], tags: ['blue', 'blue'] }, 0n);
        expect(await ids({ f: null })).toEqual(['b', 'c', 'd']);
        expect(await store.count(coll, { f: null })).toBe(3);
        expect(await ids({ f: 'x' })).toEqual(['a', 'd']);
        expect(await ids({ tags: 'red' })).toEqual(['a', 'b']);
        expect(await ids({ tags: 'blue' })).toEqual(['a', 'd']);
        expect(await ids({ 'meta.day': 'tue' })).toEqual(['b']);
        expect(await store.upsert(coll, 'd', { f: 'y', tags: ['green'] }, 1n)).toBe(true);
        expect(await store.delete(coll, 'b', 1n)).toBe(true);
        expect(await ids({ tags: 'blue' })).toEqual(['a']);
        expect(await ids({ tags: 'red' })).toEqual(['a']);
        expect(await ids({ tags: 'green' })).toEqual(['d']);
        expect(await ids({ f: 'x' })).toEqual(['a']);
        expect(await ids({ f: null })).toEqual(['c']);
      });

      it('a compound index (equality, then the order) pages one group in order', async () => {
        await store.ensureIndex(coll, ['group', 'n']);
        for (let n = 0; n < 30; n++)
          expect(await store.upsert(coll, `item-${n}`, { group: n % 3 === 0 ? 'a' : 'b', n: 29 - n }, 0n)).toBe(true);
        const page = await store.find(coll, { group: 'a' }, { sort: { n: 1 }, skip: 2, limit: 3 });
        expect(page.map((doc) => doc.n)).toEqual([8, 11, 14]);
        expect(await store.count(coll, { group: 'a' })).toBe(10);
      });

      it('follows a value from one doc to several and back to one and none', async () => {
        await store.ensureIndex(coll, 'group');
        const ids = async (group: string) => strip(await store.find(coll, { group }, { sort: { _id: 1 } }));
        expect(await store.upsert(coll, 'p', { group: 'solo' }, 0n)).toBe(true);
        expect(await store.upsert(coll, 'p', { group: 'solo', n: 1 }, 1n)).toBe(true); // same value again
        expect(await ids('solo')).toEqual(['p']);
        expect(await store.upsert(coll, 'q', { group: 'solo' }, 0n)).toBe(true);
        expect(await store.upsert(coll, 'r', { group: 'solo' }, 0n)).toBe(true);
        expect(await ids('solo')).toEqual(['p', 'q', 'r']);
        expect(await store.upsert(coll, 'q', { group: 'other' }, 1n)).toBe(true);
        await store.delete(coll, 'r', 1n);
        expect(await ids('solo')).toEqual(['p']);
        expect(await ids('other')).toEqual(['q']);
        expect(await store.upsert(coll, 'p', { group: 'other' }, 2n)).toBe(true);
        expect(await ids('solo')).toEqual([]);
        expect(await ids('other')).toEqual(['p', 'q']);
        expect(await store.count(coll, { group: 'other' })).toBe(2);
      });
    });

    queryContract(name, () => ({ store, coll }), options);

    describe('checkpoints', () => {
      it('are undefined until set, then read back exactly, and may move backwards (rebuild)', async () => {
        const cp = `${coll}_cp`;
        expect(await store.getCheckpoint(cp)).toBeUndefined();
        await store.setCheckpoint(cp, 42n);
        expect(await store.getCheckpoint(cp)).toBe(42n);
        await store.setCheckpoint(cp, 2n ** 64n + 7n);
        expect(await store.getCheckpoint(cp)).toBe(2n ** 64n + 7n);
        await store.setCheckpoint(cp, -1n);
        expect(await store.getCheckpoint(cp)).toBe(-1n);
        expect(await store.getCheckpoint(`${cp}_other`)).toBeUndefined();
      });

      it('are read and written several at a time: the set ones by name, each written as given', async () => {
        const [a, b, c] = [`${coll}_cp_a`, `${coll}_cp_b`, `${coll}_cp_c`];
        expect(await store.getCheckpoints([a, b])).toEqual(new Map());
        await store.setCheckpoints(
          new Map([
            [a, 3n],
            [b, 2n ** 64n + 1n],
          ]),
        );
        await store.setCheckpoints(new Map());
        expect(await store.getCheckpoints([a, b, c])).toEqual(
          new Map([
            [a, 3n],
            [b, 2n ** 64n + 1n],
          ]),
        );
        await store.setCheckpoints(
          new Map([
            [a, -1n],
            [c, 9n],
          ]),
        );
        expect(await store.getCheckpoint(a)).toBe(-1n);
        expect(await store.getCheckpoints([c, b])).toEqual(
          new Map([
            [c, 9n],
            [b, 2n ** 64n + 1n],
          ]),
        );
      });

      it('survive clearing collections', async () => {
        const cp = `${coll}_cp`;
        await store.setCheckpoint(cp, 5n);
        await store.clear(coll);
        expect(await store.getCheckpoint(cp)).toBe(5n);
      });
    });

    it('pings', async () => {
      await expect(store.ping()).resolves.toBeUndefined();
    });
  });
}
