import { bm25Idf, bm25Weight } from '@app/text';
import { analyse, type IndexedDocument } from './document';
import { impactAt, type ImpactList, windowBytes } from './impact-list';
import { type CollectionBasis, PageTable } from './page-table';
import { INDEX_BM25, PostingsCache } from './postings-cache';
import { IndexStorage, SegmentBuilder } from './storage';

const page = (n: number, title: string, text: string): IndexedDocument => ({
  url: `https://site${n % 3}.test/p${n}`,
  title,
  text,
  description: null,
  date: null,
  category: null,
  language: 'en',
  domain: `site${n % 3}.test`,
  source: 'folder',
});

/** Pages of every title and text length, "tide" in some titles and at various counts in the texts. */
function collection(from: number, count: number): IndexedDocument[] {
  return Array.from({ length: count }, (_, k) => {
    const n = from + k;
    const filler = Array.from({ length: 3 + ((n * 7) % 40) }, (_, w) => `word${(n + w) % 11}`).join(' ');
    const tides = Array.from({ length: n % 4 }, () => 'tide').join(' ');
    return page(
      n,
      n % 5 === 0 ? `Tide table ${n}` : `Harbour notes ${'long '.repeat(n % 6)}${n}`,
      `${filler} ${tides}`,
    );
  });
}

function write(storage: IndexStorage, pages: PageTable, docs: IndexedDocument[], firstId: number): void {
  const segment = new SegmentBuilder();
  docs.forEach((doc, k) => {
    const analysed = analyse(doc);
    pages.set(firstId + k, doc, analysed.titleLen, analysed.textLen, analysed.names);
    segment.add(firstId + k, analysed);
  });
  storage.writeSegment(segment);
}

/** BM25+ over title (boosted) and text, times the page's prior: what an impact must equal, to the bit. */
function expected(
  pages: PageTable,
  basis: CollectionBasis,
  id: number,
  tf: { title: number; text: number },
  df: { title: number; text: number },
): number {
  return (
    (1.75 * bm25Idf(basis.documents, df.title) * bm25Weight(tf.title, pages.titleLen[id], basis.avgTitle, INDEX_BM25) +
      bm25Idf(basis.documents, df.text) * bm25Weight(tf.text, pages.textLen[id], basis.avgText, INDEX_BM25)) *
    pages.prior[id]
  );
}

describe('PostingsCache', () => {
  it('computes each impact exactly as BM25+ of the page’s fields: whole, only where read, and for pages added later', () => {
    const storage = new IndexStorage({});
    const pages = new PageTable();
    write(storage, pages, collection(0, 300), 1);
    const basis = pages.basis();
    // A cache too small to keep two lists: a list pushed out is built again from its kept bounds.
    const cache = new PostingsCache(2048);
    cache.reset(basis);
    const rowsOf = (term: string) => storage.termRows(term);
    const check = (count: number) => {
      const analysed = collection(0, count).map(analyse);
      const df = {
        title: analysed.filter((a) => a.titleTf.has('tide')).length,
        text: analysed.filter((a) => a.textTf.has('tide')).length,
      };
      const list = cache.list('tide', rowsOf, pages)!;
      expect(list.docs.length).toBe(analysed.filter((a) => a.titleTf.has('tide') || a.textTf.has('tide')).length);
      for (let p = 0; p < list.docs.length; p++) {
        const id = list.docs[p];
        const tf = { title: analysed[id - 1].titleTf.get('tide') ?? 0, text: analysed[id - 1].textTf.get('tide') ?? 0 };
        const want = expected(pages, basis, id, tf, df);
        // Rounded up to the list's unit, whether the list was built whole or computes them where
        // read (its kept window maxima are maxima of those very values, so they bound them).
        const got = impactAt(list, p);
        expect(got).toBe(Math.ceil(want / list.step) * list.step);
        expect(got).toBeGreaterThanOrEqual(want);
        expect(got - want).toBeLessThan(list.step);
      }
      return list;
    };
    const whole = check(300);
    expect(whole.impactOf).toBeUndefined();
    // The unit: a power of two, at most 1/127 of the list's largest impact.
    expect(Number.isInteger(Math.log2(whole.step))).toBe(true);
    expect(whole.step).toBeLessThanOrEqual(whole.max / 127);
    // A whole list holds its ids and impacts, not the row's blob they were read from.
    expect(whole.docs.buffer.byteLength).toBe(whole.docs.byteLength);
    cache.list('word1', rowsOf, pages);
    expect(check(300).impactOf).toBeDefined();
    // Four pages more: within the drift the cache keeps impacts through, so still under the first basis.
    write(storage, pages, collection(300, 4), 301);
    cache.evict('tide');
    cache.rebase(pages.basis());
    const list = check(304);
    expect(list.docs[list.docs.length - 1]).toBeGreaterThan(300);
  });

  it('gives lists what the kept bounds leave unused, the two together within the limit', () => {
    const storage = new IndexStorage({});
    const pages = new PageTable();
    write(storage, pages, collection(0, 300), 1);
    const limit = 20_000;
    const cache = new PostingsCache(limit);
    cache.reset(pages.basis());
    const rowsOf = (term: string) => storage.termRows(term);
    for (let w = 0; w < 11; w++) {
      expect(cache.list(`word${w}`, rowsOf, pages)).not.toBeNull();
      expect(cache.cachedBytes).toBeLessThanOrEqual(limit);
    }
    // The bounds of eleven words take far less than their quarter: the lists have the rest, more
    // than the three quarters a reserved share would leave them.
    expect(cache.cachedBytes - cache.listBytes).toBeLessThan(limit / 4);
    expect(cache.listBytes).toBeGreaterThan(limit * 0.75);
  });

  it('counts a list’s window maxima once, with its kept bounds, and drops a list whose bounds go', () => {
    const storage = new IndexStorage({});
    const pages = new PageTable();
    write(storage, pages, collection(0, 3000), 1);
    const limit = 60_000;
    const cache = new PostingsCache(limit);
    cache.reset(pages.basis());
    const rowsOf = (term: string) => storage.termRows(term);
    // What the cache holds, read from its maps (no other way to see what a list shares).
    const held = cache as unknown as {
      entries: { entries: Map<string, { list: ImpactList | null }> };
      bounds: { entries: Map<string, { windows: unknown; bytes: number }> };
    };
    for (let round = 0; round < 3; round++) {
      for (const term of [
        'tide',
        'table',
        'harbour',
        'notes',
        'long',
        ...Array.from({ length: 11 }, (_, w) => `word${w}`),
      ]) {
        cache.list(term, rowsOf, pages);
        let real = 0;
        for (const [word, { list }] of held.entries.entries) {
          real += list ? list.docs.byteLength + list.impacts.byteLength : 0;
          if (!list?.windows) continue;
          // A list with maxima has its bounds, holding the very same arrays.
          expect(held.bounds.entries.get(word)?.windows).toBe(list.windows);
        }
        for (const bound of held.bounds.entries.values()) real += bound.bytes;
        expect(real).toBeLessThanOrEqual(cache.cachedBytes);
        expect(cache.cachedBytes).toBeLessThanOrEqual(limit);
      }
    }
    expect([...held.entries.entries.values()].some(({ list }) => list?.windows)).toBe(true);
    expect(windowBytes(null)).toBe(0);
  });
});
