import type { Filter, ReadStore, Sort } from './read-store.port';

/**
 * A MongoDB behaviour a server speaking its protocol is known to lack, named for the contract
 * cases that check it: `dotted-null-in-arrays`, null through an array of sub-documents;
 * `sort-through-arrays`, sorting on a dotted path through an array of sub-documents.
 */
export type ServerGap = 'dotted-null-in-arrays' | 'sort-through-arrays';

export interface ContractOptions {
  /** Why the store's server answers a gap unlike MongoDB: the cases checking it are skipped, the reason in their names. */
  gaps?: Partial<Record<ServerGap, string>>;
}

/**
 * Finds, counts and sorts answered as MongoDB answers them, where a store could easily differ:
 * null against a missing field, array fields matched and sorted by element, values of several
 * types in one order. The expectations are MongoDB's (its manual, and
 * jstests/core/null_query_semantics.js in its repository), not any adapter's.
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
  /** The ids of every doc, in the order `sort` gives. */
  async function order(sort: Sort, page: { skip?: number; limit?: number } = {}): Promise<string[]> {
    const { store, coll } = current();
    return (await store.find(coll, {}, { sort, ...page })).map((doc) => doc._id);
  }
  /** A case checking `gap`: skipped, saying why, where the store's server is known to answer it unlike MongoDB. */
  const caseOf = (gap: ServerGap) => (title: string, body: () => Promise<void>) => {
    const why = options.gaps?.[gap];
    return why ? it.skip(`${title} (skipped: ${why})`, body) : it(title, body);
  };

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

    caseOf('dotted-null-in-arrays')(
      'null matches where an element lacks the field or holds null, not an empty array or one of scalars',
      async () => {
        const nullish = ['missing', 'some-missing', 'some-null'];
        expect(await ids({ 'items.sku': null })).toEqual(nullish);
        expect(await ids({ 'items.sku': { $in: [null, 'x'] } })).toEqual(nullish);
        expect(await ids({ 'items.sku': { $ne: null } })).toEqual(['all-set', 'empty', 'scalars']);
        expect(await ids({ 'items.sku': { $nin: [null] } })).toEqual(['all-set', 'empty', 'scalars']);
      },
    );
  });
  describe('sorting, as MongoDB sorts', () => {
    it('sorts missing and null as one value, before any other ascending and after descending; an empty array before both', async () => {
      await seed([
        { _id: 'one', f: 1 },
        { _id: 'null', f: null },
        { _id: 'missing' },
        { _id: 'text', f: 'a' },
        { _id: 'empty', f: [] },
      ]);
      expect(await order({ f: 1, _id: 1 })).toEqual(['empty', 'missing', 'null', 'one', 'text']);
      expect(await order({ f: 1, _id: -1 })).toEqual(['empty', 'null', 'missing', 'one', 'text']);
      expect(await order({ f: -1, _id: 1 })).toEqual(['text', 'one', 'missing', 'null', 'empty']);
    });

    it('sorts an array field by its smallest element ascending and its largest descending', async () => {
      await seed([
        { _id: 'p', n: [1, 9] },
        { _id: 'q', n: [4] },
        { _id: 'r', n: 6 },
        { _id: 's', n: [0, 3] },
        { _id: 't', n: [6, 2] },
        { _id: 'u', n: [2, 1] },
        { _id: 'v', n: ['x', 0] },
      ]);
      // Smallest: s 0, v 0, p 1, u 1, t 2, q 4, r 6 (equal keys by _id, not by the rest of the array).
      expect(await order({ n: 1, _id: 1 })).toEqual(['s', 'v', 'p', 'u', 't', 'q', 'r']);
      // Largest: v 'x' (a string is above every number), p 9, r 6, t 6, q 4, s 3, u 2.
      expect(await order({ n: -1, _id: 1 })).toEqual(['v', 'p', 'r', 't', 'q', 's', 'u']);
      expect(await order({ n: -1, _id: 1 }, { skip: 1, limit: 2 })).toEqual(['p', 'r']);
    });

    it('orders types as MongoDB does (null, numbers, strings, objects, booleans); strings by code point, objects field by field', async () => {
      await seed([
        { _id: 'true', v: true },
        { _id: 'object {a:"x"}', v: { a: 'x' } },
        { _id: 'object {b:0}', v: { b: 0 } },
        { _id: 'object {a:2}', v: { a: 2 } },
        { _id: 'object {a:1,b:1}', v: { a: 1, b: 1 } },
        { _id: 'string U+1F600', v: '\u{1F600}' },
        { _id: 'string U+FFFD', v: '\uFFFD' },
        { _id: 'string b', v: 'b' },
        { _id: 'string 10', v: '10' },
        { _id: 'number 10', v: 10 },
        { _id: 'number 2', v: 2 },
        { _id: 'false', v: false },
        { _id: 'null', v: null },
      ]);
      const ascending = [
        'null',
        'number 2',
        'number 10',
        'string 10',
        'string b',
        // UTF-8 byte order: U+FFFD before U+1F600 (JavaScript's < puts the surrogate pair first).
        'string U+FFFD',
        'string U+1F600',
        // The first fields' values' types, then their names, then their values; a prefix first.
        'object {a:1,b:1}',
        'object {a:2}',
        'object {b:0}',
        'object {a:"x"}',
        'false',
        'true',
      ];
      expect(await order({ v: 1 })).toEqual(ascending);
      expect(await order({ v: -1 })).toEqual([...ascending].reverse());
    });

    caseOf('sort-through-arrays')(
      'sorts on a dotted path through an array of sub-documents by the smallest value it reaches ascending, the largest descending',
      async () => {
        await seed([
          { _id: 'i1', items: [{ n: 4 }, { n: 0 }] },
          { _id: 'i2', items: [{ n: 2 }] },
          { _id: 'i3', items: [{ n: 1 }, { n: 3 }] },
          { _id: 'i4' },
        ]);
        expect(await order({ 'items.n': 1, _id: 1 })).toEqual(['i4', 'i1', 'i3', 'i2']);
        expect(await order({ 'items.n': -1, _id: 1 })).toEqual(['i1', 'i3', 'i2', 'i4']);
      },
    );
  });
}
