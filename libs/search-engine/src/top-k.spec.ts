import { impactAt, impactList, type ImpactList, scoreOf, seek, WINDOW, windowCount } from './impact-list';
import { topK, type TopKStats } from './top-k';

/** Deterministic pseudo-random numbers. */
function rng(seed: number) {
  let s = seed;
  return () => (s = (s * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
}

/** A list over `universe` documents, each present with probability `density`, impacts skewed like BM25's. */
function randomList(random: () => number, universe: number, density: number, scale: number) {
  const docs: number[] = [];
  const impacts: number[] = [];
  for (let d = 0; d < universe; d++) {
    if (random() < density) {
      docs.push(d);
      impacts.push(scale * (0.2 + random() ** 3));
    }
  }
  return impactList(Uint32Array.from(docs), Float32Array.from(impacts));
}

/** Scores every match: what top-k must agree with. */
function bruteForce(lists: ImpactList[], k: number, admit?: (doc: number) => boolean) {
  const scores = new Map<number, number>();
  for (const list of lists)
    list.docs.forEach((doc, i) => scores.set(doc, (scores.get(doc) ?? 0) + impactAt(list, i) * (list.weight ?? 1)));
  return [...scores]
    .filter(([doc]) => !admit || admit(doc))
    .map(([doc, score]) => ({ doc, score }))
    .sort((a, b) => b.score - a.score || a.doc - b.doc)
    .slice(0, k);
}

describe('topK (block-max pruning over windows of ids)', () => {
  it('returns exactly the documents and scores of exhaustive scoring, over many random queries', () => {
    const random = rng(7);
    for (let query = 0; query < 300; query++) {
      const terms = 1 + Math.floor(random() * 4);
      const lists = Array.from({ length: terms }, () =>
        randomList(random, 3000, [0.002, 0.02, 0.2, 0.6][Math.floor(random() * 4)], 1 + random() * 4),
      );
      // Now and then a loosely matched word, weighing less.
      if (query % 5 === 0) lists[0] = { ...lists[0], weight: 0.3 };
      const k = [1, 10, 11, 50][query % 4];
      const admit = query % 3 === 0 ? (doc: number) => doc % 7 !== 0 : undefined;
      const got = topK(lists, k, admit);
      const want = bruteForce(lists, k, admit);
      expect(got.map((h) => h.doc)).toEqual(want.map((h) => h.doc));
      got.forEach((h, i) => expect(h.score).toBeCloseTo(want[i].score, 4));
    }
  });

  it('agrees with exhaustive scoring when many documents tie (equal impacts: seeds and pruning must keep the lower ids)', () => {
    const random = rng(23);
    for (let query = 0; query < 200; query++) {
      const lists = Array.from({ length: 1 + Math.floor(random() * 4) }, () => {
        const docs: number[] = [];
        const impacts: number[] = [];
        for (let d = 0; d < 2000; d++) {
          if (random() < 0.3) {
            docs.push(d);
            impacts.push(1 + Math.floor(random() * 3));
          }
        }
        return impactList(Uint32Array.from(docs), Float32Array.from(impacts));
      });
      const k = [1, 10, 11, 40][query % 4];
      const admit = query % 3 === 0 ? (doc: number) => doc % 5 !== 0 : undefined;
      expect(topK(lists, k, admit)).toEqual(bruteForce(lists, k, admit));
    }
  });

  it('agrees with exhaustive scoring with many lists (a long query with misspelt words brings dozens, beyond a 32-bit set)', () => {
    const random = rng(31);
    for (let query = 0; query < 20; query++) {
      const lists = Array.from({ length: 9 + Math.floor(random() * 40) }, (_, i) => {
        const list = randomList(random, 4000, [0.01, 0.05, 0.3][i % 3], 0.5 + random() * 4);
        return i % 4 === 0 ? { ...list, weight: 0.3 } : list;
      });
      const k = [10, 11, 50][query % 3];
      const got = topK(lists, k);
      const want = bruteForce(lists, k);
      expect(got.map((h) => h.doc)).toEqual(want.map((h) => h.doc));
      got.forEach((h, i) => expect(h.score).toBeCloseTo(want[i].score, 4));
    }
  });

  it('passes over the windows where only a common word is: its bound alone cannot win', () => {
    // "services northern territory": a common word (long list, middling bound), a rarer one with a
    // high bound, and a rare one with a low bound. Once the threshold passes the common word's
    // bound, a window holding none of the others cannot win.
    const random = rng(5);
    const common = randomList(random, 100_000, 0.18, 4);
    const strong = randomList(random, 100_000, 0.04, 6);
    const rare = randomList(random, 100_000, 0.004, 2);
    // The winners hold all three words.
    const lists = [common, strong, rare];
    const stats: TopKStats = { scored: 0, windows: 0 };
    const got = topK(lists, 11, undefined, stats);
    expect(got).toEqual(bruteForce(lists, 11));
    expect(stats.windows).toBeLessThan(windowCount(common.docs) / 2);
  });

  it('scores far fewer documents than match when the lists are long', () => {
    const random = rng(11);
    const common = randomList(random, 100_000, 0.3, 1);
    const rarer = randomList(random, 100_000, 0.02, 3);
    const stats: TopKStats = { scored: 0, windows: 0 };
    const got = topK([common, rarer], 10, undefined, stats);
    expect(got.map((h) => h.doc)).toEqual(bruteForce([common, rarer], 10).map((h) => h.doc));
    const matches = new Set([...common.docs, ...rarer.docs]).size;
    expect(stats.scored).toBeLessThan(matches / 5);
    // A single long list: only the windows holding one of its best postings are read.
    const alone: TopKStats = { scored: 0, windows: 0 };
    topK([common], 10, undefined, alone);
    expect(alone.windows).toBeLessThan(windowCount(common.docs) / 10);
  });

  it('bounds the windows of a word of middling rarity (only its groups kept) from its postings in the groups read', () => {
    const random = rng(23);
    const common = randomList(random, 100_000, 0.3, 1);
    // Fewer postings than windows, more than groups, each worth more than the common word's best:
    // the hundred best are all its own, far more than its seeds.
    const middling = randomList(random, 100_000, 0.01, 6);
    expect(middling.windows).toBeNull();
    expect(middling.groupMax).not.toBeNull();
    for (const k of [10, 100]) expect(topK([common, middling], k)).toEqual(bruteForce([common, middling], k));
  });

  it("bounds a window by each list's maximum in it, not by the list's best posting elsewhere", () => {
    // Pages ordered so that like ones sit together: the common word weighs little in the first
    // three quarters of the ids and much in the last; the rarer word is spread evenly. A window
    // among the first ids cannot win, whatever the common word weighs elsewhere.
    const random = rng(31);
    const regional = (universe: number, density: number, low: number, high: number, from: number) => {
      const docs: number[] = [];
      const impacts: number[] = [];
      for (let d = 0; d < universe; d++)
        if (random() < density) {
          docs.push(d);
          impacts.push((d >= from ? high : low) * (0.8 + 0.2 * random()));
        }
      return impactList(Uint32Array.from(docs), Float32Array.from(impacts));
    };
    const common = regional(40_000, 0.9, 0.3, 3, 30_000);
    const rarer = regional(40_000, 0.1, 2, 2, 0);
    for (const k of [1, 10, 30]) {
      const stats: TopKStats = { scored: 0, windows: 0 };
      const got = topK([common, rarer], k, undefined, stats);
      const want = bruteForce([common, rarer], k);
      expect(got.map((h) => h.doc)).toEqual(want.map((h) => h.doc));
      got.forEach((h, i) => expect(h.score).toBeCloseTo(want[i].score, 4));
      // Only the last quarter's windows are worth reading.
      expect(stats.windows).toBeLessThanOrEqual(Math.ceil(10_000 / WINDOW));
    }
  });

  it('breaks ties by the lower document id, as exhaustive scoring does', () => {
    const flat = impactList(Uint32Array.from([3, 5, 8, 13, 21]), Float32Array.from([1, 1, 1, 1, 1]));
    expect(topK([flat], 2).map((h) => h.doc)).toEqual([3, 5]);
  });

  it('keeps only admitted documents and returns fewer than k when fewer match', () => {
    const list = impactList(Uint32Array.from([1, 2, 3, 4]), Float32Array.from([4, 3, 2, 1]));
    expect(topK([list], 10, (doc) => doc % 2 === 0)).toEqual([
      { doc: 2, score: 3 },
      { doc: 4, score: 1 },
    ]);
    expect(topK([], 10)).toEqual([]);
  });

  it('seek finds the first id at or after a target from any start', () => {
    const docs = Uint32Array.from([2, 4, 6, 8, 10, 12, 14]);
    expect(seek(docs, 0, 1)).toBe(0);
    expect(seek(docs, 0, 7)).toBe(3);
    expect(seek(docs, 2, 6)).toBe(2);
    expect(seek(docs, 1, 14)).toBe(6);
    expect(seek(docs, 0, 15)).toBe(7);
  });

  it('scoreOf sums one document over every list', () => {
    const a = impactList(Uint32Array.from([1, 5]), Float32Array.from([1, 2]));
    const b = impactList(Uint32Array.from([5, 9]), Float32Array.from([0.5, 3]));
    expect(scoreOf([a, b], 5)).toBeCloseTo(2.5);
    expect(scoreOf([a, b], 7)).toBe(0);
  });

  it("reads only the windows of a misspelt word's neighbours, not every window of a common word with one strong posting", () => {
    // A common word (60% of 20,000 pages) whose one title hit gives it a high bound, another
    // common word, and eight rare neighbours of a misspelt word, each on a page or two with a
    // high impact (rare words weigh much): the case a typo brings.
    const random = rng(41);
    const common = randomList(random, 20_000, 0.6, 2);
    const impacts = Float32Array.from(common.docs, (_, p) => impactAt(common, p));
    impacts[5_000] = 25;
    const titled = impactList(common.docs, impacts);
    const other = randomList(random, 20_000, 0.15, 4);
    const rare = Array.from({ length: 8 }, () => {
      const docs = [
        ...new Set(Array.from({ length: 1 + Math.floor(random() * 3) }, () => Math.floor(random() * 20_000))),
      ].sort((a, b) => a - b);
      return {
        ...impactList(Uint32Array.from(docs), Float32Array.from(docs.map(() => 20 + random() * 6))),
        weight: 0.8,
      };
    });
    const lists = [other, titled, ...rare];
    const stats: TopKStats = { scored: 0, windows: 0 };
    const got = topK(lists, 11, undefined, stats);
    const want = bruteForce(lists, 11);
    expect(got.map((h) => h.doc)).toEqual(want.map((h) => h.doc));
    got.forEach((h, i) => expect(h.score).toBeCloseTo(want[i].score, 4));
    // The neighbours' pages (at most 24) and the title hit's: a few windows of the common word's hundreds.
    expect(stats.windows).toBeLessThan(windowCount(titled.docs) / 10);
  });
});
