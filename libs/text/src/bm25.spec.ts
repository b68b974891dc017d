import { BM25_CLASSIC, bm25, bm25Idf, bm25Weight } from './bm25';

describe('BM25, one implementation with named parameters', () => {
  it('classic: a term absent scores 0, a frequent term saturates toward k1 + 1', () => {
    expect(bm25Weight(0, 10, 10)).toBe(0);
    expect(bm25Weight(1, 10, 10)).toBeCloseTo(1, 12);
    expect(bm25Weight(1000, 10, 10)).toBeLessThan(BM25_CLASSIC.k1 + 1);
    expect(bm25Weight(1000, 10, 10)).toBeGreaterThan(2.19);
  });

  it('b normalises by length: a long document scores a term lower, unless b is 0', () => {
    expect(bm25Weight(2, 40, 10)).toBeLessThan(bm25Weight(2, 10, 10));
    const flat = { ...BM25_CLASSIC, b: 0 };
    expect(bm25Weight(2, 40, 10, flat)).toBe(bm25Weight(2, 10, 10, flat));
  });

  it("BM25+'s delta is a floor for a term present, and nothing for one absent", () => {
    const plus = { k1: 1.2, b: 0.7, delta: 0.5 };
    expect(bm25Weight(0, 100, 10, plus)).toBe(0);
    expect(bm25Weight(1, 10_000, 10, plus)).toBeGreaterThan(0.5);
  });

  it('the idf stays positive for a term in every document; bm25 ranks the document that holds the rarer term first', () => {
    expect(bm25Idf(10, 10)).toBeGreaterThan(0);
    const docs = [
      new Map([['common', 1]]),
      new Map([
        ['common', 1],
        ['rare', 1],
      ]),
      new Map([['common', 2]]),
    ];
    const scores = bm25(['common', 'rare'], docs, [1, 2, 2]);
    expect(scores[1]!.raw).toBeGreaterThan(scores[0]!.raw);
    expect(scores[1]!.coverage).toBe(1);
    expect(scores[2]!.matched).toBe(1);
  });
});
