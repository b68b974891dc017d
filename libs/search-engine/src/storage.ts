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
// 4: postings keyed by segment, then term (a segment is written and merged as one run of the
//    table, not scattered through it), and the words in a table of their own.
// 5: postings in a table of rowids with its key in an index of its own: a table keyed by its
//    columns (WITHOUT ROWID) compares a sought key with whole rows, and a long list's row spills
//    into overflow pages, which SQLite reads whole for each comparison (a word of 5,000 pages took
//    0.13 ms to find, not 0.03). A format-4 file is moved over in place (`fromFormat4`).
const FORMAT = 5;
/** This many neighbouring segments of about the same size are merged into one. */
const MERGE_FACTOR = 10;
/** Segments "of about the same size": the largest of the run at most this many times the smallest. */
const SAME_SIZE = 3;
/** More segments than this (pages added one by one make segments of every size) and the two smallest neighbours are merged. */
const MAX_SEGMENTS = 30;
/** Rows of one segment read at a time while merging. */
const MERGE_SLICE = 256;
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
    if (format === 4) this.fromFormat4();
    else if (format !== FORMAT) {
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
      -- The ranking reads some thirty titles per query: from this narrow index rather than the wide rows.
      CREATE INDEX IF NOT EXISTS docs_titles ON docs (id, title);
      CREATE TABLE IF NOT EXISTS segments (id INTEGER PRIMARY KEY, min_doc INTEGER NOT NULL, max_doc INTEGER NOT NULL, docs INTEGER NOT NULL, postings INTEGER NOT NULL);
      CREATE INDEX IF NOT EXISTS segments_order ON segments (min_doc);
      CREATE TABLE IF NOT EXISTS postings (
        segment INTEGER NOT NULL, term TEXT NOT NULL, df_title INTEGER NOT NULL, df_text INTEGER NOT NULL, data BLOB NOT NULL);
      CREATE UNIQUE INDEX IF NOT EXISTS postings_key ON postings (segment, term);
      CREATE TABLE IF NOT EXISTS terms (term TEXT PRIMARY KEY) WITHOUT ROWID;
    `);
    this.db.pragma(`user_version = ${FORMAT}`);
  }

  /** A format-4 file's postings moved into the table format 5 keeps (its pages and words are as they were). */
  private fromFormat4(): void {
    this.db.transaction(() => {
      this.db.exec(`
        CREATE TABLE postings_5 (
          segment INTEGER NOT NULL, term TEXT NOT NULL, df_title INTEGER NOT NULL, df_text INTEGER NOT NULL, data BLOB NOT NULL);
        INSERT INTO postings_5 (segment, term, df_title, df_text, data)
          SELECT segment, term, df_title, df_text, data FROM postings ORDER BY segment, term;
        DROP TABLE postings;
        ALTER TABLE postings_5 RENAME TO postings;
      `);
    })();
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
      // The titles of a block of ids (see TitleCache), each cut to its first characters (the first
      // parameter), by one range read of the narrow index.
      titlesRange: db
        .prepare('SELECT id, substr(title, 1, ?) FROM docs INDEXED BY docs_titles WHERE id >= ? AND id < ? ORDER BY id')
        .raw(),
      idOf: db.prepare('SELECT id FROM docs WHERE url = ?').pluck(),
      urlsOfSource: db.prepare('SELECT url FROM docs WHERE source = ?'),
      // Each distinct source by one seek in its index, rather than a walk over every page's entry
      // (a boot asks, and at a million pages the walk read 17 MB).
      sources: db.prepare(
        `WITH RECURSIVE s(source) AS (
           SELECT MIN(source) FROM docs
           UNION ALL SELECT (SELECT MIN(source) FROM docs WHERE source > s.source) FROM s WHERE s.source IS NOT NULL)
         SELECT source FROM s WHERE source IS NOT NULL`,
      ),
      deleteDoc: db.prepare('DELETE FROM docs WHERE id = ?'),
      insertDoc: db.prepare(
        'INSERT INTO docs (id, url, source, title, text, description, date, category, language, domain, title_len, text_len, names) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
      ),
      insertPostings: db.prepare(
        'INSERT INTO postings (term, segment, df_title, df_text, data) VALUES (?, ?, ?, ?, ?)',
      ),
      insertTerms: db.prepare('INSERT OR IGNORE INTO terms (term) SELECT value FROM json_each(?)'),
      // A seek per segment (at most MAX_SEGMENTS), in the order of their pages (CROSS JOIN: the
      // segments drive, whatever the planner would guess without statistics).
      termRows: db.prepare(
        'SELECT p.segment, p.df_title, p.df_text, p.data FROM segments s CROSS JOIN postings p ON p.segment = s.id AND p.term = ? ORDER BY s.min_doc',
      ),
      insertSegment: db.prepare('INSERT INTO segments (min_doc, max_doc, docs, postings) VALUES (?, ?, ?, ?)'),
      // Segments hold neighbouring ranges of page ids; a merged one takes a new id.
      segments: db.prepare('SELECT id, min_doc, max_doc, docs, postings FROM segments ORDER BY min_doc'),
      segmentSlice: db.prepare('SELECT term, data FROM postings WHERE segment = ? AND term > ? ORDER BY term LIMIT ?'),
      deleteSegmentRows: db.prepare('DELETE FROM postings WHERE segment = ?'),
      deleteSegment: db.prepare('DELETE FROM segments WHERE id = ?'),
      updateSegment: db.prepare('UPDATE segments SET min_doc = ?, max_doc = ?, docs = ?, postings = ? WHERE id = ?'),
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

  /** Records a write of pages, inside its transaction (the writer keeps the count it loaded). */
  setPagesVersion(version: number): void {
    this.statements.setMeta.run('pages_version', JSON.stringify(version));
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

  /** Every word indexed (one whose pages are all gone may remain until the index is rebuilt). */
  terms(): IterableIterator<string> {
    return this.db.prepare('SELECT term FROM terms').pluck().iterate() as IterableIterator<string>;
  }

  termRows(term: string): TermRow[] {
    return this.statements.termRows.all(term) as TermRow[];
  }

  writeSegment(segment: SegmentBuilder): void {
    if (segment.terms.size === 0) return;
    const id = Number(
      this.statements.insertSegment.run(segment.min, segment.max, segment.docs, segment.postings).lastInsertRowid,
    );
    // In word order: the segment's rows are appended to the table as one run.
    const words = [...segment.terms.keys()].sort();
    for (const term of words) {
      const list = segment.terms.get(term)!;
      let dfTitle = 0;
      let dfText = 0;
      for (let i = 0; i < list.docs.length; i++) {
        if (list.title[i] > 0) dfTitle++;
        if (list.text[i] > 0) dfText++;
      }
      this.statements.insertPostings.run(term, id, dfTitle, dfText, encodePostings(list.docs, list.title, list.text));
    }
    this.statements.insertTerms.run(JSON.stringify(words));
  }

  /**
   * Merges segments as they pile up, and rewrites a segment that is mostly dead pages. Merges are
   * tiered, as in Lucene's log merge policy: MERGE_FACTOR neighbours of about the same size become
   * one, so a page's postings are rewritten about once per tenfold growth of the index (not at
   * every write past a fixed count). `merged` is told the terms each merge rewrote.
   */
  maintain(pages: PageTable, merged: (touched: Set<string>) => void): void {
    for (;;) {
      const segments = this.statements.segments.all() as SegmentRow[];
      const dead = segments.find((s) => s.docs > 0 && 1 - pages.liveIn(s.min_doc, s.max_doc) / s.docs > MAX_DEAD_SHARE);
      if (dead) {
        merged(this.merge([dead.id], pages));
        continue;
      }
      const run = mergeable(segments);
      if (!run) return;
      merged(this.merge(run, pages));
    }
  }

  /**
   * Rewrites the segments (neighbours, in page order) as one new segment, keeping only live
   * pages' postings. Each segment is read in word order a slice at a time and the words are merged
   * as they come (a k-way merge), each written as soon as it is whole, in word order, so the new
   * segment is appended to the table as one run: the merge holds a slice per segment, never the
   * segments themselves.
   */
  private merge(ids: number[], pages: PageTable): Set<string> {
    const live = pages.live;
    const touched = new Set<string>();
    const { segmentSlice, deleteSegmentRows, deleteSegment, updateSegment } = this.statements;
    this.db.transaction(() => {
      const target = Number(this.statements.insertSegment.run(0, 0, 0, 0).lastInsertRowid);
      const cursors = ids.map((segment) => new SegmentCursor(segmentSlice, segment));
      let postings = 0;
      let min = Infinity;
      let max = 0;
      for (;;) {
        let term: string | null = null;
        for (const cursor of cursors) {
          const head = cursor.head();
          if (head !== null && (term === null || compareCodePoints(head.term, term) < 0)) term = head.term;
        }
        if (term === null) break;
        touched.add(term);
        const parts: Buffer[] = [];
        for (const cursor of cursors) {
          const head = cursor.head();
          if (head === null || head.term !== term) continue;
          parts.push(head.data);
          cursor.next();
        }
        const merged = keepLive(parts, live);
        if (merged.n === 0) continue;
        this.statements.insertPostings.run(term, target, merged.dfTitle, merged.dfText, merged.data);
        postings += merged.n;
        if (merged.min < min) min = merged.min;
        if (merged.max > max) max = merged.max;
      }
      for (const id of ids) {
        deleteSegmentRows.run(id);
        deleteSegment.run(id);
      }
      if (postings === 0) deleteSegment.run(target);
      else updateSegment.run(min, max, pages.liveIn(min, max), postings, target);
    })();
    return touched;
  }
}

interface SegmentRow {
  id: number;
  min_doc: number;
  max_doc: number;
  docs: number;
  postings: number;
}

/**
 * The segments to merge next, or null: the newest run of MERGE_FACTOR neighbours of about the same
 * size; past MAX_SEGMENTS, the two smallest neighbours.
 */
export function mergeable(segments: ReadonlyArray<Pick<SegmentRow, 'id' | 'postings'>>): number[] | null {
  for (let end = segments.length; end >= MERGE_FACTOR; end--) {
    const run = segments.slice(end - MERGE_FACTOR, end);
    const sizes = run.map((s) => Math.max(1, s.postings));
    if (Math.max(...sizes) <= SAME_SIZE * Math.min(...sizes)) return run.map((s) => s.id);
  }
  if (segments.length <= MAX_SEGMENTS) return null;
  let best = 0;
  for (let i = 1; i + 1 < segments.length; i++) {
    if (segments[i].postings + segments[i + 1].postings < segments[best].postings + segments[best + 1].postings)
      best = i;
  }
  return [segments[best].id, segments[best + 1].id];
}

/**
 * Orders strings as SQLite's BINARY collation does (UTF-8 bytes, that is code points): a
 * surrogate pair (a code point past U+FFFF) sorts after every other UTF-16 unit, where plain
 * string comparison would put it before U+E000..U+FFFF.
 */
export function compareCodePoints(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    let x = a.charCodeAt(i);
    let y = b.charCodeAt(i);
    if (x === y) continue;
    if (x >= 0xd800) x += x < 0xe000 ? 0x2000 : -0x800;
    if (y >= 0xd800) y += y < 0xe000 ? 0x2000 : -0x800;
    return x - y;
  }
  return a.length - b.length;
}

/** One segment's postings rows in term order, read a slice at a time. */
class SegmentCursor {
  private rows: Array<{ term: string; data: Buffer }> = [];
  private at = 0;
  private done = false;
  private after = '';

  constructor(
    private readonly slice: Database.Statement,
    readonly segment: number,
  ) {}

  head(): { term: string; data: Buffer } | null {
    if (this.at < this.rows.length) return this.rows[this.at];
    if (this.done) return null;
    this.rows = this.slice.all(this.segment, this.after, MERGE_SLICE) as Array<{ term: string; data: Buffer }>;
    this.at = 0;
    if (this.rows.length < MERGE_SLICE) this.done = true;
    if (this.rows.length === 0) return null;
    this.after = this.rows[this.rows.length - 1].term;
    return this.rows[0];
  }

  next(): void {
    this.at++;
  }
}

/** Postings blobs of one term (segments in id order) as one, live pages only, with its counts. */
function keepLive(
  parts: Buffer[],
  live: Uint8Array,
): { data: Buffer; n: number; dfTitle: number; dfText: number; min: number; max: number } {
  const decoded = parts.map(decodePostings);
  let n = 0;
  for (const d of decoded) for (let i = 0; i < d.docs.length; i++) if (live[d.docs[i]]) n++;
  const data = Buffer.allocUnsafe(n * 6);
  let k = 0;
  let dfTitle = 0;
  let dfText = 0;
  for (const d of decoded) {
    for (let i = 0; i < d.docs.length; i++) {
      const id = d.docs[i];
      if (!live[id]) continue;
      data.writeUInt32LE(id, k * 4);
      data[n * 4 + k] = d.title[i];
      data[n * 5 + k] = d.text[i];
      if (d.title[i] > 0) dfTitle++;
      if (d.text[i] > 0) dfText++;
      k++;
    }
  }
  return {
    data,
    n,
    dfTitle,
    dfText,
    min: n > 0 ? data.readUInt32LE(0) : Infinity,
    max: n > 0 ? data.readUInt32LE((n - 1) * 4) : 0,
  };
}

/** Sets a stored page row in the table. */
export function setRow(
  pages: PageTable,
  [id, url, date, category, language, domain, titleLen, textLen, names]: PageRow,
): void {
  pages.set(id, { url, date, category: category as PageFacts['category'], language, domain }, titleLen, textLen, names);
}
