/** LocalIndex updates and persistence: replacing and removing pages, and the index kept in its file. */
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { LocalIndex } from './local-index';
import { build, DOCS, doc, NOW, urls } from './testing/local-index-fixtures';

describe('LocalIndex', () => {
  describe('updates and persistence', () => {
    let dir: string;
    beforeEach(async () => (dir = await fs.mkdtemp(path.join(os.tmpdir(), 'local-index-'))));
    afterEach(() => fs.rm(dir, { recursive: true, force: true }));

    it('upserting a URL again replaces the old page: old words no longer match', () => {
      const index = build();
      index.upsert({
        ...DOCS[5],
        title: 'Cardamom buns',
        text: 'Grind cardamom seeds and twist the dough into knots.',
      });
      expect(index.size).toBe(DOCS.length);
      expect(urls(index, { query: 'rye' })).toEqual([]);
      expect(urls(index, { query: 'cardamom' })).toEqual(['https://bakers.example/rye']);
    });

    it('remove drops the page from results', () => {
      const index = build();
      expect(index.remove('https://papers.example/abs/sodium')).toBe(true);
      expect(urls(index, { query: 'magnesium' })).toEqual([]);
      expect(index.remove('https://papers.example/abs/sodium')).toBe(false);
    });

    it('names each source that has pages, once, and forgets one whose pages are all gone', () => {
      const index = new LocalIndex({ now: () => NOW });
      expect(index.sources()).toEqual([]);
      const sources = ['seed:b', 'folder', 'seed:a', 'folder', 'seed:b', 'seed:c'];
      DOCS.forEach((d, i) => index.upsert({ ...d, source: sources[i % sources.length] }));
      expect(index.sources()).toEqual(['folder', 'seed:a', 'seed:b', 'seed:c']);
      for (const url of index.urlsOf('seed:a')) index.remove(url);
      expect(index.sources()).toEqual(['folder', 'seed:b', 'seed:c']);
      index.close();
    });

    it('lives in its file: reopened, it answers the same queries with the same pages and meta', () => {
      const file = path.join(dir, 'index.db');
      const index = new LocalIndex({ file, now: () => NOW });
      for (const d of DOCS) index.upsert(d);
      index.upsert({ ...DOCS[5], text: 'Rye bread replaced.' });
      index.setMeta('sources', { seeds: ['https://x.example/'] });
      const queries = ['sodium battery', 'heliogrid', 'rye bread', 'bike lanes'].map(
        (query) => [query, index.search({ query })] as const,
      );
      index.close();
      const reopened = new LocalIndex({ file, now: () => NOW });
      expect(reopened.meta('sources')).toEqual({ seeds: ['https://x.example/'] });
      expect(reopened.size).toBe(DOCS.length);
      for (const [query, page] of queries) expect(reopened.search({ query })).toEqual(page);
      reopened.close();
    });

    it('keeps its page table beside the file: a boot reads it when it is of the stored pages, else the rows', async () => {
      const file = path.join(dir, 'index.db');
      const snapshot = `${file}.pages`;
      const queries = ['sodium battery', 'heliogrid', 'rye bread', 'bike lanes', 'site:bakers.example rye'];
      const index = new LocalIndex({ file, now: () => NOW });
      for (const d of DOCS) index.upsert(d);
      index.remove('https://papers.example/abs/sodium');
      const answers = queries.map((query) => index.search({ query }));
      const heliogrid = urls(index, { query: 'heliogrid' });
      index.close();
      const kept = await fs.readFile(snapshot);

      // From the snapshot: the same table as the rows give (the same answers, to the score).
      const reopened = new LocalIndex({ file, now: () => NOW });
      expect(reopened.size).toBe(DOCS.length - 1);
      expect(queries.map((query) => reopened.search({ query }))).toEqual(answers);
      // Ids go on from where they were: a page added now is found, and no id is handed out twice.
      reopened.upsert(
        doc('https://new.example/page', { title: 'Quokka census', text: 'Quokkas counted on the island.' }),
      );
      expect(urls(reopened, { query: 'quokka' })).toEqual(['https://new.example/page']);
      expect(urls(reopened, { query: 'heliogrid' })).toEqual(heliogrid);
      reopened.close();

      // A snapshot of an earlier version (the pages written after it, then the service killed) is not used.
      await fs.writeFile(snapshot, kept);
      const afterCrash = new LocalIndex({ file, now: () => NOW });
      expect(afterCrash.size).toBe(DOCS.length);
      expect(urls(afterCrash, { query: 'quokka' })).toEqual(['https://new.example/page']);
      afterCrash.close();

      // Nor one cut short: the rows are read.
      const whole = await fs.readFile(snapshot);
      await fs.writeFile(snapshot, whole.subarray(0, whole.length - 100));
      const cut = new LocalIndex({ file, now: () => NOW });
      expect(cut.size).toBe(DOCS.length);
      expect(urls(cut, { query: 'quokka' })).toEqual(['https://new.example/page']);
      cut.close();
    });

    it('adds, replaces and removes pages in place, merging segments as they pile up', () => {
      const index = new LocalIndex({ file: path.join(dir, 'index.db'), now: () => NOW });
      for (let i = 0; i < 40; i++)
        index.upsert(doc(`https://grow.example/${i}`, { text: `tram depot ${i} ${i % 2 ? 'night bus' : 'ferry'}` }));
      for (let i = 0; i < 40; i += 3)
        index.upsert(doc(`https://grow.example/${i}`, { text: `replaced page ${i} with a cable car` }));
      for (let i = 1; i < 40; i += 4) index.remove(`https://grow.example/${i}`);
      const stats = index.stats();
      expect(stats.segments).toBeLessThanOrEqual(10);
      const survivors = Array.from({ length: 40 }, (_, i) => i).filter((i) => i % 4 !== 1);
      expect(index.size).toBe(survivors.length);
      const tram = index.search({ query: 'tram', limit: 100 }).hits.map((h) => Number(h.url.split('/').pop()));
      expect(tram.sort((a, b) => a - b)).toEqual(survivors.filter((i) => i % 3 !== 0));
      const cable = index.search({ query: 'cable car', limit: 100 }).hits.map((h) => Number(h.url.split('/').pop()));
      expect(cable.sort((a, b) => a - b)).toEqual(survivors.filter((i) => i % 3 === 0));
      index.close();
    });

    it('scores a page the same however its index was built (one batch, or page by page with replacements)', () => {
      const pages = DOCS.map((d) => ({ ...d }));
      const batch = new LocalIndex({ now: () => NOW });
      batch.apply(pages, []);
      const incremental = new LocalIndex({ now: () => NOW });
      for (const d of pages) incremental.upsert({ ...d, text: 'placeholder words' });
      for (const d of pages) incremental.upsert(d);
      for (const query of ['sodium battery cathode', 'heliogrid inverter', 'rye']) {
        const a = batch.search({ query }).hits;
        const b = incremental.search({ query }).hits;
        expect(b.map((h) => h.url)).toEqual(a.map((h) => h.url));
        b.forEach((h, i) => expect(h.score).toBeCloseTo(a[i].score, 3));
      }
    });

    it('a read-only reader of the same file follows the writer change by change and answers as the writer does', () => {
      const file = path.join(dir, 'index.db');
      const writer = new LocalIndex({ file, now: () => NOW });
      writer.apply(DOCS.slice(0, 3), []);
      const reader = new LocalIndex({ file, now: () => NOW, readonly: true });
      writer.onChange = (change) => reader.applyChange(change);
      const same = (query: string) => expect(reader.search({ query })).toEqual(writer.search({ query }));
      same('sodium battery');
      writer.apply(DOCS.slice(3), []);
      writer.upsert({ ...DOCS[5], text: 'Cardamom buns twisted into knots.' });
      writer.remove('https://papers.example/abs/sodium');
      for (let i = 0; i < 12; i++) writer.upsert(doc(`https://more.example/${i}`, { text: `tram depot ${i}` }));
      for (const query of ['sodium battery', 'heliogrid', 'cardamom', 'rye', 'tram depot', 'magnesium']) same(query);
      expect(reader.size).toBe(writer.size);
      expect(() => reader.upsert(DOCS[0])).toThrow(/readonly/);
      reader.close();
      writer.close();
    });

    it('moves the postings of a format-4 file into the table format 5 keeps, its pages and answers as they were', () => {
      const file = path.join(dir, 'index.db');
      const index = new LocalIndex({ file });
      index.apply(DOCS, []);
      const queries = ['sodium battery', 'rye', 'heliogrid', 'magnesium'];
      const before = queries.map((query) => index.search({ query }));
      // The table as format 4 kept it: keyed by its columns.
      index.db.exec(`
        CREATE TABLE postings_4 (
          segment INTEGER NOT NULL, term TEXT NOT NULL, df_title INTEGER NOT NULL, df_text INTEGER NOT NULL, data BLOB NOT NULL,
          PRIMARY KEY (segment, term)) WITHOUT ROWID;
        INSERT INTO postings_4 SELECT segment, term, df_title, df_text, data FROM postings;
        DROP TABLE postings;
        ALTER TABLE postings_4 RENAME TO postings;
      `);
      index.db.pragma('user_version = 4');
      const rows = index.db.prepare('SELECT COUNT(*) FROM postings').pluck().get();
      index.close();
      const reopened = new LocalIndex({ file });
      expect(reopened.db.pragma('user_version', { simple: true })).toBe(5);
      const table = reopened.db.prepare("SELECT sql FROM sqlite_master WHERE name = 'postings'").pluck().get();
      expect(table).not.toMatch(/WITHOUT ROWID/i);
      expect(reopened.db.prepare('SELECT COUNT(*) FROM postings').pluck().get()).toBe(rows);
      expect(reopened.size).toBe(DOCS.length);
      expect(queries.map((query) => reopened.search({ query }))).toEqual(before);
      reopened.close();
    });

    it('starts empty from a file of another format, so the provider rebuilds it', () => {
      const file = path.join(dir, 'index.db');
      const index = new LocalIndex({ file });
      index.apply(DOCS, []);
      index.db.pragma('user_version = 2');
      index.close();
      const reopened = new LocalIndex({ file });
      expect(reopened.size).toBe(0);
      expect(reopened.search({ query: 'sodium' }).hits).toEqual([]);
      reopened.close();
    });
  });
});
