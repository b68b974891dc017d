import type { Filter, ReadStore } from './read-store.port';

/**
 * A MongoDB behaviour a server speaking its protocol is known to lack, named for the contract
 * cases that check it: `dotted-null-in-arrays`, null through an array of sub-documents.
 */
export type ServerGap = 'dotted-null-in-arrays';

export interface ContractOptions {
  /** Why the store's server answers `gap` unlike MongoDB (the cases checking it are then skipped), or undefined. */
  gap?: (gap: ServerGap) => Promise<string | undefined>;
}

/**
 * Finds and counts answered as MongoDB answers them, where a store could easily differ: null
 * against a missing field, array fields matched by element. The expectations are MongoDB's
 * (its manual, and jstests/core/null_query_semantics.js in its repository), not any adapter's.
 */
export function queryContract(
  name: string,
  current: () => { store: ReadStore; coll: string },
  options: ContractOptions,
): void {
  /** Writes each doc (its `_id` taken out) at version 0. */
  async function seed(rows: { _id: string; [field: string]: unknown }[]): Promise<void> {
    const { store, coll } = current();
    for (const { _id, ...doc } of rows) expect(await store.upsert(coll, _id, doc, 0n)).toBe(true);
  }
  /** The ids `filter` finds, in order, checked against `count`. */
  async function ids(filter: Filter): Promise<string[]> {
    const { store, coll } = current();
    const found = (await store.find(coll, filter)).map((doc) => doc._id).sort();
    expect(await store.count(coll, filter)).toBe(found.length);
    return found;
  }
  /** Whether this store's server is known to answer `gap` unlike MongoDB (said on stderr, then the case returns). */
  async function lacks(gap: ServerGap): Promise<boolean> {
    const why = await options.gap?.(gap);
    if (why) process.stderr.write(`[skipped] ReadStore contract: ${name}: ${gap}: ${why}\n`);
    return why !== undefined;
  }

  describe('null and missing fields, as MongoDB matches them', () => {
    beforeEach(() =>
      seed([
        { _id: 'null', f: null, g: { h: null } },
        { _id: 'missing', g: {} },
        { _id: 'number', f: 1, g: 1 },
        { _id: 'holds-null', f: [null, 2], g: { h: 'x' } },
        { _id: 'empty-array', f: [] },
        { _id: 'object', f: {} },
      ]),
    );

    it('null matches a null or missing field, and an array holding null', async () => {
      const nullish = ['holds-null', 'missing', 'null'];
      expect(await ids({ f: null })).toEqual(nullish);
      expect(await ids({ f: { $eq: null } })).toEqual(nullish);
      expect(await ids({ f: { $in: [null] } })).toEqual(nullish);
      expect(await ids({ f: { $in: [null, 1] } })).toEqual(['holds-null', 'missing', 'null', 'number']);
      // Null is the only value of its type: $gte and $lte null match what null does, $gt and $lt nothing.
      expect(await ids({ f: { $gte: null } })).toEqual(nullish);
      expect(await ids({ f: { $lte: null } })).toEqual(nullish);
      expect(await ids({ f: { $gt: null } })).toEqual([]);
      expect(await ids({ f: { $lt: null } })).toEqual([]);
    });

    it('$ne and $nin null exclude both; $exists tells a null field from a missing one', async () => {
      expect(await ids({ f: { $ne: null } })).toEqual(['empty-array', 'number', 'object']);
      expect(await ids({ f: { $not: { $eq: null } } })).toEqual(['empty-array', 'number', 'object']);
      expect(await ids({ f: { $nin: [null, 1] } })).toEqual(['empty-array', 'object']);
      expect(await ids({ f: { $exists: true } })).toEqual(['empty-array', 'holds-null', 'null', 'number', 'object']);
      expect(await ids({ f: { $exists: false } })).toEqual(['missing']);
      expect(await ids({ f: { $exists: false, $in: [null] } })).toEqual(['missing']);
    });

    it('a nested path is null where it reaches nothing: a missing field, or a null or scalar on the way', async () => {
      expect(await ids({ 'g.h': null })).toEqual(['empty-array', 'missing', 'null', 'number', 'object']);
      expect(await ids({ 'g.h': { $ne: null } })).toEqual(['holds-null']);
      expect(await ids({ 'g.h': { $exists: true } })).toEqual(['holds-null', 'null']);
    });
  });

  describe('array fields, as MongoDB matches them', () => {
    beforeEach(() =>
      seed([
        { _id: 'ab', tags: ['a', 'b'], n: [1, 10] },
        { _id: 'ba', tags: ['b', 'a'], n: [5] },
        { _id: 'a', tags: 'a', n: 3 },
        { _id: 'c', tags: ['c'], n: [] },
        { _id: 'none', n: ['7'] },
      ]),
    );

    it('a value matches an array holding it; an array matches the same array, in order', async () => {
      expect(await ids({ tags: 'a' })).toEqual(['a', 'ab', 'ba']);
      expect(await ids({ tags: ['a', 'b'] })).toEqual(['ab']);
      expect(await ids({ tags: ['c'] })).toEqual(['c']);
      expect(await ids({ tags: { $ne: 'a' } })).toEqual(['c', 'none']);
      expect(await ids({ tags: { $all: ['b', 'a'] } })).toEqual(['ab', 'ba']);
    });

    it('$in and $nin take each value as an equality: a value by element, an array as a whole', async () => {
      expect(await ids({ tags: { $in: ['a', 'x'] } })).toEqual(['a', 'ab', 'ba']);
      expect(await ids({ tags: { $in: [['a', 'b']] } })).toEqual(['ab']);
      expect(await ids({ tags: { $in: [['b', 'a'], 'c'] } })).toEqual(['ba', 'c']);
      expect(await ids({ tags: { $nin: [['a', 'b'], 'c'] } })).toEqual(['a', 'ba', 'none']);
    });

    it('a range matches an array when any element is in it, each bound met by any element', async () => {
      expect(await ids({ n: { $gt: 8 } })).toEqual(['ab']);
      expect(await ids({ n: { $lt: 2 } })).toEqual(['ab']);
      // 10 >= 4 and 1 <= 6: two elements meet the two bounds.
      expect(await ids({ n: { $gte: 4, $lte: 6 } })).toEqual(['ab', 'ba']);
      // A range compares within one type: '7' is a string.
      expect(await ids({ n: { $gt: 2 } })).toEqual(['a', 'ab', 'ba']);
      expect(await ids({ n: { $gte: '0' } })).toEqual(['none']);
    });
  });

  describe('a dotted path through an array of sub-documents, as MongoDB matches it', () => {
    beforeEach(() =>
      seed([
        { _id: 'some-missing', items: [{ sku: 'a' }, {}] },
        { _id: 'some-null', items: [{ sku: 'a' }, { sku: null }] },
        { _id: 'all-set', items: [{ sku: 'a' }, { sku: 'b' }] },
        { _id: 'scalars', items: ['a', 'b'] },
        { _id: 'empty', items: [] },
        { _id: 'missing' },
      ]),
    );

    it('matches by any element, and $exists where any element holds the field', async () => {
      expect(await ids({ 'items.sku': 'b' })).toEqual(['all-set']);
      expect(await ids({ 'items.sku': { $in: ['b', 'x'] } })).toEqual(['all-set']);
      expect(await ids({ 'items.sku': { $exists: true } })).toEqual(['all-set', 'some-missing', 'some-null']);
      expect(await ids({ 'items.sku': { $exists: false } })).toEqual(['empty', 'missing', 'scalars']);
    });

    it('null matches where an element lacks the field or holds null, not an empty array or one of scalars', async () => {
      if (await lacks('dotted-null-in-arrays')) return;
      const nullish = ['missing', 'some-missing', 'some-null'];
      expect(await ids({ 'items.sku': null })).toEqual(nullish);
      expect(await ids({ 'items.sku': { $in: [null, 'x'] } })).toEqual(nullish);
      expect(await ids({ 'items.sku': { $ne: null } })).toEqual(['all-set', 'empty', 'scalars']);
      expect(await ids({ 'items.sku': { $nin: [null] } })).toEqual(['all-set', 'empty', 'scalars']);
    });
  });
}
