import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import fc from 'fast-check';
import { LocalIndex } from './local-index';
import { doc, NOW } from './testing/local-index-fixtures';
import { NAMING_TITLE_CHARS, namingTitle } from './ranking-priors';
import { TITLE_BLOCK_SHIFT, TitleCache } from './title-cache';

const BLOCK = 1 << TITLE_BLOCK_SHIFT;

/** A table of titles by id, read by range as the index's statement reads it (ascending ids). */
function table(titles: Map<number, string>) {
  const ranges: Array<[number, number]> = [];
  const readRange = (first: number, end: number) => {
    ranges.push([first, end]);
    return [...titles].filter(([id]) => id >= first && id < end).sort((a, b) => a[0] - b[0]);
  };
  return { readRange, ranges };
}

describe('TitleCache', () => {
  it('gives each id its title, an empty one where the index has no page, across blocks and in any script', () => {
    fc.assert(
      fc.property(
        fc.dictionary(
          fc.nat(4 * BLOCK).map(String),
          fc.oneof(fc.string(), fc.string({ unit: 'grapheme' }), fc.constant('')),
          { maxKeys: 60 },
        ),
        fc.array(fc.nat(5 * BLOCK), { maxLength: 40 }),
        (entries, asked) => {
          const titles = new Map(Object.entries(entries).map(([id, title]) => [Number(id), title]));
          const cache = new TitleCache(table(titles).readRange, 1 << 20);
          const ids = [...titles.keys(), ...asked];
          const got = cache.titlesOf(ids);
          for (const id of ids) expect(got.get(id)).toBe(titles.get(id) ?? '');
        },
      ),
    );
  });

  it('reads a block once, again after its id is forgotten, and keeps under its bound by dropping the least recently used', () => {
    const titles = new Map<number, string>();
    for (let id = 0; id < 6 * BLOCK; id += 3) titles.set(id, `Title number ${id}`);
    const source = table(titles);
    // Room for two blocks (each about 10 KB: 342 titles and 1,025 offsets), not three.
    const limit = 2 * (BLOCK * 7 + 4 * (BLOCK + 1));
    const cache = new TitleCache(source.readRange, limit);
    cache.titlesOf([3, 6, 9]);
    cache.titlesOf([12, 15]);
    expect(cache.reads).toBe(1);
    expect(source.ranges).toEqual([[0, BLOCK]]);

    titles.set(6, 'A new title');
    expect(cache.titlesOf([6]).get(6)).toBe('Title number 6');
    cache.forget(6);
    expect(cache.titlesOf([6]).get(6)).toBe('A new title');
    expect(cache.reads).toBe(2);

    cache.titlesOf([BLOCK + 2]);
    cache.titlesOf([0]); // block 0 is now the most recently used
    cache.titlesOf([2 * BLOCK + 1]); // past the bound: block 1 goes, not block 0
    expect(cache.cachedBytes).toBeLessThanOrEqual(limit);
    expect(cache.cachedBytes).toBeGreaterThan(limit / 2);
    const reads = cache.reads;
    cache.titlesOf([0]);
    expect(cache.reads).toBe(reads);
    cache.titlesOf([BLOCK + 2]);
    expect(cache.reads).toBe(reads + 1);
  });

  it("keeps a reader's titles as the writer's: a page written or replaced after its block was read is read again", async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'titles-'));
    const file = path.join(dir, 'index.db');
    const writer = new LocalIndex({ file, now: () => NOW });
    writer.apply([doc('https://titles.example/a', { title: 'First page', text: 'Something.' })], []);
    const reader = new LocalIndex({ file, now: () => NOW, readonly: true });
    writer.onChange = (change) => reader.applyChange(change);
    const titlesOf = (index: LocalIndex, ids: number[]) =>
      (index as unknown as { titles: TitleCache }).titles.titlesOf(ids);
    // The block of the next ids is read while they have no page.
    expect([...titlesOf(reader, [1, 2, 3]).values()]).toEqual(['First page', '', '']);
    expect([...titlesOf(writer, [1, 2, 3]).values()]).toEqual(['First page', '', '']);
    // A page added: its id's block was read while it had none.
    writer.apply([doc('https://titles.example/b', { title: 'Second page', text: 'Something else.' })], []);
    const ids = [1, 2, 3];
    expect([...titlesOf(reader, ids).values()]).toEqual(['First page', 'Second page', '']);
    expect(titlesOf(writer, ids)).toEqual(titlesOf(reader, ids));
    // A page replaced: its old id has no page, its new one the new title.
    writer.apply([doc('https://titles.example/a', { title: 'First page, again', text: 'Something.' })], []);
    expect([...titlesOf(reader, ids).values()]).toEqual(['', 'Second page', 'First page, again']);
    expect(titlesOf(writer, ids)).toEqual(titlesOf(reader, ids));
    reader.close();
    writer.close();
    await fs.rm(dir, { recursive: true, force: true });
  });
  it("keeps only the start of a title a page made huge: what the ranking reads of it, not the page's megabytes", () => {
    const index = new LocalIndex({ now: () => NOW });
    const huge = `Harbour ${'é'.repeat(150)} ${'w'.repeat(200_000)}`;
    index.apply(
      Array.from({ length: 20 }, (_, i) =>
        doc(`https://huge.example/${i}`, { title: `${i} ${huge}`, text: 'Something.' }),
      ),
      [],
    );
    const cache = (index as unknown as { titles: TitleCache }).titles;
    const titles = cache.titlesOf(Array.from({ length: 20 }, (_, i) => i + 1));
    for (const [id, title] of titles) {
      const full = `${id - 1} ${huge}`;
      expect(title).toBe([...full].slice(0, NAMING_TITLE_CHARS).join(''));
      expect(namingTitle(title)).toBe(namingTitle(full));
    }
    expect(cache.cachedBytes).toBeLessThan(20 * NAMING_TITLE_CHARS * 2 + 4 * (BLOCK + 1));
    index.close();
  });
});
