import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { LocalIndex } from './local-index';
import { PageTable } from './page-table';
import { compareCodePoints, decodePostings, IndexStorage, mergeable, SegmentBuilder } from './storage';
import { doc, NOW } from './testing/local-index-fixtures';

const segments = (...postings: number[]) => postings.map((p, i) => ({ id: i + 1, postings: p }));

describe('mergeable (tiered merges)', () => {
  it('merges the newest run of ten neighbours of about the same size, and nothing before there are ten', () => {
    expect(mergeable(segments(...Array(9).fill(1000)))).toBeNull();
    expect(mergeable(segments(50_000, ...Array(10).fill(1000)))).toEqual([2, 3, 4, 5, 6, 7, 8, 9, 10, 11]);
    // A run whose largest is more than three times its smallest is not of a size.
    expect(mergeable(segments(50_000, 4000, ...Array(9).fill(1000)))).toBeNull();
    expect(mergeable(segments(50_000, 3000, ...Array(9).fill(1000)))).toEqual([2, 3, 4, 5, 6, 7, 8, 9, 10, 11]);
  });

  it('past thirty segments of every size, merges the two smallest neighbours', () => {
    const sizes = Array.from({ length: 31 }, (_, i) => 10 ** (1 + (i % 4)));
    sizes[20] = 1;
    sizes[21] = 2;
    expect(mergeable(segments(...sizes))).toEqual([21, 22]);
  });

  it('rewrites a posting about once per tenfold growth: 100 equal flushes merge into one, twice rewritten', () => {
    let list: Array<{ id: number; postings: number }> = [];
    let next = 1;
    let written = 0;
    for (let flush = 0; flush < 100; flush++) {
      list.push({ id: next++, postings: 1000 });
      written += 1000;
      for (let run = mergeable(list); run; run = mergeable(list)) {
        const merged = list.filter((s) => run.includes(s.id));
        const size = merged.reduce((a, s) => a + s.postings, 0);
        written += size;
        const at = list.indexOf(merged[0]);
        list = [...list.slice(0, at), { id: run[0], postings: size }, ...list.slice(at + run.length)];
      }
    }
    expect(list).toEqual([{ id: 1, postings: 100_000 }]);
    expect(written / 100_000).toBe(3);
  });
});

describe('IndexStorage', () => {
  it("reads a word's postings by a seek per segment in page order, in the index of keys (not a table of whole rows), never by scanning or sorting the postings", () => {
    const storage = new IndexStorage({});
    const plan = (sql: string, ...args: unknown[]) =>
      (storage.db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...args) as Array<{ detail: string }>).map((r) => r.detail);
    const rows = plan(storage.statements.termRows.source, 'word');
    expect(rows.some((d) => /SEARCH p USING INDEX postings_key \(segment=\? AND term=\?\)/.test(d))).toBe(true);
    expect(rows.filter((d) => /SCAN p|TEMP B-TREE/.test(d))).toEqual([]);
    storage.db.close();
  });

  it('reads a block of titles by one range of the narrow index of ids and titles, not the pages’ whole rows', () => {
    const storage = new IndexStorage({});
    const rows = storage.db
      .prepare(`EXPLAIN QUERY PLAN ${storage.statements.titlesRange.source}`)
      .all(200, 1024, 2048) as Array<{ detail: string }>;
    expect(rows.some((r) => /SEARCH docs USING COVERING INDEX docs_titles \(id>\? AND id<\?\)/.test(r.detail))).toBe(
      true,
    );
    expect(rows.filter((r) => /TEMP B-TREE/.test(r.detail))).toEqual([]);
    storage.db.close();
  });
});

describe('compareCodePoints', () => {
  it("orders as SQLite's BINARY collation (UTF-8 bytes) does, a supplementary character after U+E000..U+FFFF", () => {
    const words = ['b', 'a', 'ab', '\uffe1', '\u{1f600}x', 'é', 'z', '\ue000', '', '\u{10000}'];
    const bytes = [...words].sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
    expect([...words].sort(compareCodePoints)).toEqual(bytes);
    expect(['\uffe1', '\u{1f600}'].sort()).toEqual(['\u{1f600}', '\uffe1']); // plain order differs
  });
});

describe('segment merges', () => {
  let dir: string;
  beforeEach(async () => (dir = await fs.mkdtemp(path.join(os.tmpdir(), 'segments-'))));
  afterEach(() => fs.rm(dir, { recursive: true, force: true }));

  it('an index written in many batches merges them and answers exactly as one written in a single batch (words past U+FFFF among them)', () => {
    const pages = Array.from({ length: 120 }, (_, i) =>
      doc(`https://batch.example/${i}`, {
        title: `Depot ${i}`,
        text: `tram depot ${i} ${i % 3 ? 'night bus' : 'ferry pier'} ${i % 7 ? '' : 'cable car'} word${i % 11} ${i % 10 < 5 ? 'kx\uf900y' : ''} kx\u{20000}y`,
      }),
    );
    const batched = new LocalIndex({ file: path.join(dir, 'batched.db'), now: () => NOW });
    for (let b = 0; b < 24; b++) batched.apply(pages.slice(b * 5, b * 5 + 5), []);
    // 24 batches of five pages: two runs of ten merged, four left.
    expect(batched.stats().segments).toBe(6);
    const single = new LocalIndex({ now: () => NOW });
    single.apply(pages, []);
    expect(batched.stats().postings).toBe(single.stats().postings);
    for (const query of [
      'tram depot',
      'night bus',
      'ferry pier cable',
      'word7',
      'depot 93',
      'kx\uf900y',
      'kx\u{20000}y',
    ]) {
      const a = single.search({ query, limit: 50 }).hits.map((h) => [h.url, h.score.toFixed(6)]);
      expect(a.length).toBeGreaterThan(0);
      const b = batched.search({ query, limit: 50 }).hits.map((h) => [h.url, h.score.toFixed(6)]);
      expect(b).toEqual(a);
    }
    batched.close();
    single.close();
  });

  it('merges a word past U+FFFF that one segment holds with its neighbours, in the order SQLite keeps words', () => {
    // Analysis folds most of U+E000..U+FFFF away (NFKC): the store is written directly here.
    const storage = new IndexStorage({});
    const pages = new PageTable();
    const astral = 'a\u{1f600}';
    const late = 'a\uffe1';
    for (let id = 1; id <= 10; id++) {
      pages.set(
        id,
        { url: `https://s.example/${id}`, date: null, category: null, language: null, domain: 's.example' },
        1,
        2,
        0,
      );
      const segment = new SegmentBuilder();
      const textTf = new Map([[astral, 1]]);
      if (id % 2) textTf.set(late, 1);
      segment.add(id, { titleTf: new Map(), textTf, titleLen: 1, textLen: textTf.size, names: 0 });
      storage.writeSegment(segment);
    }
    storage.maintain(pages, () => undefined);
    expect(storage.segmentCounts().n).toBe(1);
    const docs = (term: string) => storage.termRows(term).flatMap((row) => [...decodePostings(row.data).docs]);
    expect(docs(astral)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(docs(late)).toEqual([1, 3, 5, 7, 9]);
    storage.db.close();
  });
});
