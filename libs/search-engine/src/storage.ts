/**
 * The index's storage: pages and their postings in one SQLite file (better-sqlite3, WAL).
 *
 * Storage is segmented, as in Lucene: each batch of added pages writes one segment of postings
 * (term -> ids and term frequencies); a replaced or removed page is dropped from the page table at
 * once and from its segment's postings when that segment is next merged.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import Database from 'better-sqlite3';
import type { Analysed } from './document';
import type { PageFacts, PageTable } from './page-table';

// Bump when the stored shape or the analysis changes: an index of another format is rebuilt.
// 3: the SQLite segment store (2 and before were minisearch JSON files).
const FORMAT = 3;
/** More segments than this and the two smallest neighbours are merged. */
const MAX_SEGMENTS = 10;
/** A segment whose pages are more than this share replaced or removed is rewritten without them. */
const MAX_DEAD_SHARE = 0.3;

/** Postings of one segment being written: ids ascending (pages get ids in the order they are added). */
export class SegmentBuilder {
  readonly terms = new Map<string, { docs: number[]; title: number[]; text: number[] }>();
  postings = 0;
  docs = 0;
  min = Infinity;
  max = 0;
  add(id: number, analysed: Analysed): void {
    this.docs++;
    this.min = Math.min(this.min, id);
    this.max = Math.max(this.max, id);
    const seen = new Set<string>();
    for (const [term, tf] of analysed.titleTf) this.post(term, id, tf, analysed.textTf.get(term) ?? 0, seen);
    for (const [term, tf] of analysed.textTf) if (!seen.has(term)) this.post(term, id, 0, tf, seen);
  }
  private post(term: string, id: number, title: number, text: number, seen: Set<string>): void {
    seen.add(term);
    let list = this.terms.get(term);
    if (!list) this.terms.set(term, (list = { docs: [], title: [], text: [] }));
    list.docs.push(id);
    list.title.push(Math.min(255, title));
    list.text.push(Math.min(255, text));
    this.postings++;
  }
}

/** A postings row's blob: ids (u32 little-endian), then title and text term frequencies (u8 each). */
function encodePostings(docs: ArrayLike<number>, title: ArrayLike<number>, text: ArrayLike<number>): Buffer {
  const n = docs.length;
  const buffer = Buffer.allocUnsafe(n * 6);
  for (let i = 0; i < n; i++) buffer.writeUInt32LE(docs[i], i * 4);
  for (let i = 0; i < n; i++) buffer[n * 4 + i] = title[i];
  for (let i = 0; i < n; i++) buffer[n * 5 + i] = text[i];
  return buffer;
}

export function decodePostings(blob: Buffer): { docs: Uint32Array; title: Uint8Array; text: Uint8Array } {
  const n = blob.length / 6;
  // A Uint32Array view needs 4-byte alignment; SQLite's buffers are not promised to have it.
  const docs =
    blob.byteOffset % 4 === 0
      ? new Uint32Array(blob.buffer, blob.byteOffset, n)
      : new Uint32Array(blob.buffer.slice(blob.byteOffset, blob.byteOffset + n * 4));
  return { docs, title: blob.subarray(n * 4, n * 5), text: blob.subarray(n * 5, n * 6) };
}

/** One segment's postings of a term. */
export interface TermRow {
  segment: number;
  df_title: number;
  df_text: number;
  data: Buffer;
}

/** A page table row as stored: id, url, date, category, language, domain, title and text lengths, names. */
type PageRow = [number, string, string | null, string | null, string | null, string, number, number, number];

const PAGE_COLUMNS = 'id, url, date, category, language, domain, title_len, text_len, names';

export class IndexStorage {
  readonly db: Database.Database;
  readonly statements: ReturnType<IndexStorage['prepare']>;

  constructor(options: { file?: string; readonly?: boolean }) {
    if (options.readonly) {
      this.db = new Database(options.file!, { readonly: true });
    } else {
      if (options.file) fs.mkdirSync(path.dirname(options.file), { recursive: true });
      this.db = new Database(options.file ?? ':memory:');
      this.db.pragma('journal_mode = WAL');
      this.db.pragma('synchronous = NORMAL');
      this.createSchema();
    }
    this.db.pragma('cache_size = -32768');
    this.db.pragma('temp_store = MEMORY');
    this.statements = this.prepare();
  }

  private createSchema(): void {
    const format = Number(this.db.pragma('user_version', { simple: true }));
    if (format !== FORMAT) {
      // Another format (or a new file): start empty, the sources' own tables too; the provider
      // fills it again from its sources.
      const tables = this.db
        .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
        .pluck()
        .all() as string[];
      for (const table of tables) this.db.exec(`DROP TABLE IF EXISTS "${table.replace(/"/g, '""')}"`);
    }
    this.db.exec(`
      CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
      CREATE TABLE IF NOT EXISTS docs (
        id INTEGER PRIMARY KEY, url TEXT NOT NULL UNIQUE, source TEXT NOT NULL,
        title TEXT NOT NULL, text TEXT NOT NULL, description TEXT, date TEXT, category TEXT, language TEXT, domain TEXT NOT NULL,
        title_len INTEGER NOT NULL, text_len INTEGER NOT NULL, names INTEGER NOT NULL);
      CREATE INDEX IF NOT EXISTS docs_source ON docs (source);
      CREATE TABLE IF NOT EXISTS segments (id INTEGER PRIMARY KEY, min_doc INTEGER NOT NULL, max_doc INTEGER NOT NULL, docs INTEGER NOT NULL, postings INTEGER NOT NULL);
      CREATE TABLE IF NOT EXISTS postings (
        term TEXT NOT NULL, segment INTEGER NOT NULL, df_title INTEGER NOT NULL, df_text INTEGER NOT NULL, data BLOB NOT NULL,
        PRIMARY KEY (term, segment)) WITHOUT ROWID;
      CREATE INDEX IF NOT EXISTS postings_segment ON postings (segment);
    `);
    this.db.pragma(`user_version = ${FORMAT}`);
  }

  private prepare() {
    const db = this.db;
    return {
      byUrl: db.prepare(
        'SELECT url, title, text, description, date, category, language, domain, source FROM docs WHERE url = ?',
      ),
      byIds: db.prepare(
        'SELECT id, url, title, text, description, date, category, language FROM docs WHERE id IN (SELECT value FROM json_each(?))',
      ),
      textOf: db.prepare('SELECT title, text FROM docs WHERE id = ?'),
      titlesOf: db.prepare('SELECT id, title FROM docs WHERE id IN (SELECT value FROM json_each(?))'),
      idOf: db.prepare('SELECT id FROM docs WHERE url = ?').pluck(),
      urlsOfSource: db.prepare('SELECT url FROM docs WHERE source = ?'),
      sources: db.prepare('SELECT DISTINCT source FROM docs'),
      deleteDoc: db.prepare('DELETE FROM docs WHERE id = ?'),
      insertDoc: db.prepare(
        'INSERT INTO docs (id, url, source, title, text, description, date, category, language, domain, title_len, text_len, names) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
      ),
      insertPostings: db.prepare(
        'INSERT INTO postings (term, segment, df_title, df_text, data) VALUES (?, ?, ?, ?, ?)',
      ),
      termRows: db.prepare('SELECT segment, df_title, df_text, data FROM postings WHERE term = ? ORDER BY segment'),
      insertSegment: db.prepare('INSERT INTO segments (min_doc, max_doc, docs, postings) VALUES (?, ?, ?, ?)'),
      segments: db.prepare('SELECT id, min_doc, max_doc, docs, postings FROM segments ORDER BY id'),
      getMeta: db.prepare('SELECT value FROM meta WHERE key = ?'),
      setMeta: db.prepare(
        'INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value',
      ),
    };
  }

  /** How many writes of pages the index has had (a page table snapshot names the one it was taken at). */
  pagesVersion(): number {
    const value = this.statements.getMeta.pluck().get('pages_version') as string | undefined;
    return value === undefined ? 0 : Number(JSON.parse(value));
  }

  /** Counts a write of pages, inside its transaction: the new version. */
  bumpPagesVersion(): number {
    const next = this.pagesVersion() + 1;
    this.statements.setMeta.run('pages_version', JSON.stringify(next));
    return next;
  }

  /** Every stored page into the table; the next page id (ids are never reused). */
  loadPages(pages: PageTable): number {
    const rows = this.db.prepare(`SELECT ${PAGE_COLUMNS} FROM docs`).raw().iterate() as IterableIterator<PageRow>;
    for (const row of rows) setRow(pages, row);
    const maxId = (this.db.prepare('SELECT MAX(id) FROM docs').pluck().get() as number | null) ?? 0;
    const maxPosted = (this.db.prepare('SELECT MAX(max_doc) FROM segments').pluck().get() as number | null) ?? 0;
    // Ids are never reused: a dead page's postings may linger in a segment until it is merged.
    return Math.max(maxId, maxPosted) + 1;
  }

  /** The stored rows of these pages (written through another connection), to be set in the table. */
  pageRows(ids: number[]): PageRow[] {
    return this.db
      .prepare(`SELECT ${PAGE_COLUMNS} FROM docs WHERE id IN (SELECT value FROM json_each(?))`)
      .raw()
      .all(JSON.stringify(ids)) as PageRow[];
  }

  /** Segments and their postings, for `stats()` (none once closed). */
  segmentCounts(): { n: number; p: number } {
    return this.db.open
      ? (this.db.prepare('SELECT COUNT(*) AS n, COALESCE(SUM(postings), 0) AS p FROM segments').get() as {
          n: number;
          p: number;
        })
      : { n: 0, p: 0 };
  }

  /** Every indexed term. */
  terms(): IterableIterator<string> {
    return this.db.prepare('SELECT DISTINCT term FROM postings').pluck().iterate() as IterableIterator<string>;
  }

  termRows(term: string): TermRow[] {
    return this.statements.termRows.all(term) as TermRow[];
  }

  writeSegment(segment: SegmentBuilder): void {
    if (segment.terms.size === 0) return;
    const id = Number(
      this.statements.insertSegment.run(segment.min, segment.max, segment.docs, segment.postings).lastInsertRowid,
    );
    for (const [term, list] of segment.terms) {
      let dfTitle = 0;
      let dfText = 0;
      for (let i = 0; i < list.docs.length; i++) {
        if (list.title[i] > 0) dfTitle++;
        if (list.text[i] > 0) dfText++;
      }
      this.statements.insertPostings.run(term, id, dfTitle, dfText, encodePostings(list.docs, list.title, list.text));
    }
  }

  /**
   * Merges neighbouring small segments past MAX_SEGMENTS, and rewrites a segment that is mostly
   * dead pages. `merged` is told the terms each merge rewrote.
   */
  maintain(pages: PageTable, merged: (touched: Set<string>) => void): void {
    for (;;) {
      const segments = this.statements.segments.all() as Array<{
        id: number;
        min_doc: number;
        max_doc: number;
        docs: number;
        postings: number;
      }>;
      const dead = segments.find((s) => s.docs > 0 && 1 - pages.liveIn(s.min_doc, s.max_doc) / s.docs > MAX_DEAD_SHARE);
      if (dead) {
        merged(this.merge([dead.id], pages.live));
        continue;
      }
      if (segments.length <= MAX_SEGMENTS) return;
      let best = 0;
      for (let i = 1; i + 1 < segments.length; i++) {
        if (segments[i].postings + segments[i + 1].postings < segments[best].postings + segments[best + 1].postings)
          best = i;
      }
      merged(this.merge([segments[best].id, segments[best + 1].id], pages.live));
    }
  }

  /** Rewrites the segments (neighbours, in id order) as one, keeping only live pages' postings. */
  private merge(ids: number[], live: Uint8Array): Set<string> {
    const placeholders = ids.map(() => '?').join(', ');
    const touched = new Set<string>();
    this.db.transaction(() => {
      const rows = this.db
        .prepare(`SELECT term, segment, data FROM postings WHERE segment IN (${placeholders}) ORDER BY term, segment`)
        .iterate(...ids) as IterableIterator<{
        term: string;
        segment: number;
        data: Buffer;
      }>;
      const target = ids[0];
      const kept: Array<[string, Buffer, number, number]> = [];
      let current: string | null = null;
      let docs: number[] = [];
      let title: number[] = [];
      let text: number[] = [];
      const close = () => {
        if (current !== null && docs.length > 0) {
          kept.push([
            current,
            encodePostings(docs, title, text),
            title.filter((t) => t > 0).length,
            text.filter((t) => t > 0).length,
          ]);
        }
        docs = [];
        title = [];
        text = [];
      };
      let postings = 0;
      let min = Infinity;
      let max = 0;
      const pages = new Set<number>();
      for (const row of rows) {
        if (row.term !== current) {
          close();
          current = row.term;
        }
        touched.add(row.term);
        const decoded = decodePostings(row.data);
        for (let i = 0; i < decoded.docs.length; i++) {
          const id = decoded.docs[i];
          if (!live[id]) continue;
          docs.push(id);
          title.push(decoded.title[i]);
          text.push(decoded.text[i]);
          postings++;
          pages.add(id);
          if (id < min) min = id;
          if (id > max) max = id;
        }
      }
      close();
      this.db.prepare(`DELETE FROM postings WHERE segment IN (${placeholders})`).run(...ids);
      this.db.prepare(`DELETE FROM segments WHERE id IN (${placeholders})`).run(...ids);
      if (kept.length === 0) return;
      this.db
        .prepare('INSERT INTO segments (id, min_doc, max_doc, docs, postings) VALUES (?, ?, ?, ?, ?)')
        .run(target, min, max, pages.size, postings);
      for (const [term, data, dfTitle, dfText] of kept)
        this.statements.insertPostings.run(term, target, dfTitle, dfText, data);
    })();
    return touched;
  }
}

/** Sets a stored page row in the table. */
export function setRow(
  pages: PageTable,
  [id, url, date, category, language, domain, titleLen, textLen, names]: PageRow,
): void {
  pages.set(id, { url, date, category: category as PageFacts['category'], language, domain }, titleLen, textLen, names);
}
