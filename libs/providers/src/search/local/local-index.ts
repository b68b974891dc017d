import * as fs from 'node:fs';
import * as path from 'node:path';
import Database from 'better-sqlite3';
import { freshnessStart } from '@app/domain/freshness';
import { CATEGORIES, type Category, type Freshness, type SearchHit, type SearchPage, type SearchQuery } from '../search-provider.port';
import { entityCount, processTerm, snippetFor, terms } from './text-analysis';
import { BLOCK, impactList, type ImpactList, scoreOf, type Scored, topK } from './top-k';
import { domainMatches, normalizeDomain } from './urls';

/** One page as the index keeps it. */
export interface IndexedDocument {
  /** Identity: the canonical (or normalised) URL; adding the same URL again replaces the page. */
  url: string;
  title: string;
  /** The whole main text: searched, and returned as a hit's `content`. */
  text: string;
  /** Meta description, used for the snippet when no sentence matches the query. */
  description: string | null;
  /** `YYYY-MM-DD`. */
  date: string | null;
  category: Category | null;
  language: string | null;
  /** Lower-case host name, matched by domain filters with its subdomains. */
  domain: string;
  /** What added it (`folder`, or the seed as written in LOCAL_INDEX_SEEDS): a source is rebuilt on its own. */
  source: string;
}

// Bump when the stored shape or the analysis changes: an index of another format is rebuilt.
// 3: the SQLite segment store (2 and before were minisearch JSON files).
const FORMAT = 3;
// Longer pages are cut for the index (not for `content`): BM25 gains nothing from a book's tail.
const MAX_INDEXED_CHARS = 100_000;
/** Pages buffered before they are written as one segment by a bulk writer. */
const FLUSH_DOCS = 10_000;
/** More segments than this and the two smallest neighbours are merged. */
const MAX_SEGMENTS = 10;
/** A segment whose pages are more than this share replaced or removed is rewritten without them. */
const MAX_DEAD_SHARE = 0.3;
/** Postings kept decoded in memory (bytes, about 8 per posting); least recently used terms go first. */
const DEFAULT_CACHE_BYTES = 96 * 1024 * 1024;
/** The collection's statistics may drift this much before cached impacts are recomputed. */
const STATS_DRIFT = 0.02;

// BM25+ as the index has always scored (minisearch's defaults then): per field, summed with the title boosted.
const K1 = 1.2;
const B = 0.7;
const DELTA = 0.5;
const TITLE_BOOST = 2.5;

/** Names a page about one entity mentions at most before it counts as a listing (prior halves at twice this). */
const MANY_NAMES = 10;
/** Results looked at for a listing whose entry names the entity a description is about. */
const LISTINGS_CHECKED = 3;
/** A name in a listing's entry: capitalised words in a row ("Marrowby Otter Trust", "Kestrel & Loaf"). */
const NAME_PHRASE = /\p{Lu}[\p{L}'’-]+(?:\s+(?:&|and|of|de)?\s*\p{Lu}[\p{L}'’-]+)*/gu;
/** A site's home page over its other pages, all else equal. */
const HOME_BOOST = 1.3;
/** The query spells the host's name: its home page, and its other pages a little. */
const NAMED_HOME_BOOST = 1.5;
const NAMED_SITE_BOOST = 1.1;
/** A word no page has is matched with up to a quarter of its letters changed, and weighs this much less. */
const FUZZY_SHARE = 0.25;
const FUZZY_WEIGHT = 0.45;
/** Indexed words a misspelt one is matched with at most, nearest first. */
const MAX_NEAR = 8;

const NO_DATE = 0;

/** `https://www.kestrel-and-loaf.test/` -> home; `/about` -> not. */
const isHome = (url: string) => {
  try {
    const { pathname, search } = new URL(url);
    return (pathname === '/' || pathname === '') && !search;
  } catch {
    return false;
  }
};

/** The same word, or one typo away in a long one ("ledgrlark" for "ledgerlark"). */
function sameWord(label: string, term: string): boolean {
  if (label === term) return true;
  if (term.length < 6 || Math.abs(label.length - term.length) > 1) return false;
  // One insertion, deletion, substitution or swap of neighbours.
  let i = 0;
  while (i < label.length && label[i] === term[i]) i++;
  const rest = (a: number, b: number) => label.slice(a) === term.slice(b);
  return rest(i + 1, i + 1) || rest(i + 1, i) || rest(i, i + 1) || (label[i] === term[i + 1] && label[i + 1] === term[i] && rest(i + 2, i + 2));
}

/** The host's name words: `www.kestrel-and-loaf.test` -> kestrel, loaf, kestrelandloaf (the top-level domain and www dropped). */
function hostLabels(domain: string): string[] {
  const parts = domain.toLowerCase().split('.').filter((p) => p !== 'www');
  const name = parts.length > 1 ? parts.slice(0, -1) : parts;
  const words = name.flatMap((p) => p.split('-')).map((w) => processTerm(w)).filter((w): w is string => !!w);
  return [...words, ...name.map((p) => p.replace(/-/g, ''))];
}

/** The word with one letter left out, each way. */
function deletions(word: string): string[] {
  const out: string[] = [];
  for (let i = 0; i < word.length; i++) out.push(word.slice(0, i) + word.slice(i + 1));
  return out;
}

/** Which of a–z a word holds, one bit each (other characters share the last bit). */
function letterMask(word: string): number {
  let mask = 0;
  for (let i = 0; i < word.length; i++) {
    const c = word.charCodeAt(i) - 97;
    mask |= 1 << (c >= 0 && c < 26 ? c : 26);
  }
  return mask;
}

function bitCount(n: number): number {
  n -= (n >>> 1) & 0x55555555;
  n = (n & 0x33333333) + ((n >>> 2) & 0x33333333);
  return (((n + (n >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
}

const rowA = new Int32Array(128);
const rowB = new Int32Array(128);

/** Edit distance up to `max` (insert, delete, substitute); `max + 1` once it is certainly beyond. */
function editDistance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  if (a.length >= 127 || b.length >= 127) return a === b ? 0 : max + 1;
  let previous = rowA;
  let row = rowB;
  for (let j = 0; j <= b.length; j++) previous[j] = j;
  for (let i = 1; i <= a.length; i++) {
    row[0] = i;
    let best = i;
    const ca = a.charCodeAt(i - 1);
    for (let j = 1; j <= b.length; j++) {
      const value = Math.min(previous[j] + 1, row[j - 1] + 1, previous[j - 1] + (ca === b.charCodeAt(j - 1) ? 0 : 1));
      row[j] = value;
      if (value < best) best = value;
    }
    if (best > max) return max + 1;
    const swap = previous;
    previous = row;
    row = swap;
  }
  return previous[b.length];
}

/** `2025-06-15` -> 20250615 (0 when absent): days compare as numbers. */
const dayNumber = (date: string | null | undefined) => (date && /^\d{4}-\d{2}-\d{2}/.test(date) ? Number(date.slice(0, 10).replace(/-/g, '')) : NO_DATE);

/** `en-GB` -> `en`: a filter for English keeps British and American pages alike. */
const primaryLanguage = (tag: string) => tag.toLowerCase().split(/[-_]/)[0];

export interface LocalIndexOptions {
  /** The SQLite file the index lives in; in memory when absent (tests). */
  file?: string;
  /** The clock freshness windows count back from. */
  now?: () => Date;
  /** Bytes of decoded postings kept in memory. */
  cacheBytes?: number;
  /** A reader of an index another thread writes: opens the file read-only and follows `applyChange`. */
  readonly?: boolean;
}

/** What one write changed, for a reader on another thread to follow (`applyChange`). */
export interface IndexChange {
  added: number[];
  dropped: number[];
  touched: string[];
}

/** A page's terms, counted per field, as a segment records them. */
export interface Analysed {
  titleTf: Map<string, number>;
  textTf: Map<string, number>;
  titleLen: number;
  textLen: number;
  names: number;
}

/** A page with its terms already counted (by an extraction worker): the writer only stores it. */
export interface PreparedDocument {
  doc: IndexedDocument;
  analysed: Analysed;
}

export function analyse(doc: IndexedDocument): Analysed {
  const count = (text: string) => {
    const tf = new Map<string, number>();
    let length = 0;
    for (const term of terms(text)) {
      tf.set(term, (tf.get(term) ?? 0) + 1);
      length++;
    }
    return { tf, length };
  };
  const body = doc.text.slice(0, MAX_INDEXED_CHARS);
  const title = count(doc.title);
  const text = count(body);
  return { titleTf: title.tf, textTf: text.tf, titleLen: title.length, textLen: text.length, names: entityCount(body) };
}

/** Words remembered per cache, the oldest forgotten first. */
const REMEMBERED_WORDS = 10_000;

/** Keeps `value` under `key` in a bounded cache and returns it. */
function remember<V>(cache: Map<string, V>, key: string, value: V): V {
  if (cache.size >= REMEMBERED_WORDS) cache.delete(cache.keys().next().value as string);
  cache.set(key, value);
  return value;
}

/** A 32-bit FNV-1a hash of a term, from `seed`. */
function termHash(term: string, seed: number): number {
  let h = seed;
  for (let i = 0; i < term.length; i++) h = Math.imul(h ^ term.charCodeAt(i), 16777619);
  return h >>> 0;
}

/**
 * The pages in an order that puts similar ones side by side: by two MinHash values of their
 * terms (pages sharing most of their words share them with like odds). Ids are given in this
 * order, so a query's best pages, which tend to be alike, fall in few postings blocks and
 * block-max retrieval steps over the rest (document reordering, as in Silvestri 2007).
 */
function clustered(pages: PreparedDocument[]): PreparedDocument[] {
  if (pages.length < 2 * BLOCK) return pages;
  const keyed = pages.map((page, index) => {
    let a = 0xffffffff;
    let b = 0xffffffff;
    const visit = (term: string) => {
      const x = termHash(term, 0x811c9dc5);
      if (x < a) a = x;
      const y = termHash(term, 0x2166136);
      if (y < b) b = y;
    };
    for (const term of page.analysed.titleTf.keys()) visit(term);
    for (const term of page.analysed.textTf.keys()) visit(term);
    return { page, a, b, index };
  });
  keyed.sort((x, y) => x.a - y.a || x.b - y.b || x.index - y.index);
  return keyed.map((k) => k.page);
}

/** Postings of one segment being written: ids ascending (pages get ids in the order they are added). */
class SegmentBuilder {
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

function decodePostings(blob: Buffer): { docs: Uint32Array; title: Uint8Array; text: Uint8Array } {
  const n = blob.length / 6;
  // A Uint32Array view needs 4-byte alignment; SQLite's buffers are not promised to have it.
  const docs = blob.byteOffset % 4 === 0 ? new Uint32Array(blob.buffer, blob.byteOffset, n) : new Uint32Array(blob.buffer.slice(blob.byteOffset, blob.byteOffset + n * 4));
  return { docs, title: blob.subarray(n * 4, n * 5), text: blob.subarray(n * 5, n * 6) };
}

interface TermRow {
  segment: number;
  df_title: number;
  df_text: number;
  data: Buffer;
}

/** A term's decoded postings with their impacts, as the last query that needed it left them. */
interface CachedTerm {
  list: ImpactList | null;
  bytes: number;
}

/** Per-page facts searches need without reading the page: by page id, grown as ids are handed out. */
class PageTable {
  live = new Uint8Array(1024);
  prior = new Float32Array(1024);
  titleLen = new Uint32Array(1024);
  textLen = new Uint32Array(1024);
  day = new Int32Array(1024);
  category = new Uint8Array(1024);
  language = new Uint16Array(1024);
  domain = new Uint32Array(1024);
  home = new Uint8Array(1024);
  names = new Uint32Array(1024);

  ensure(id: number): void {
    if (id < this.live.length) return;
    let size = this.live.length;
    while (size <= id) size *= 2;
    const grow = <T extends Uint8Array | Float32Array | Uint32Array | Int32Array | Uint16Array>(array: T): T => {
      const next = new (array.constructor as new (n: number) => T)(size);
      next.set(array);
      return next;
    };
    this.live = grow(this.live);
    this.prior = grow(this.prior);
    this.titleLen = grow(this.titleLen);
    this.textLen = grow(this.textLen);
    this.day = grow(this.day);
    this.category = grow(this.category);
    this.language = grow(this.language);
    this.domain = grow(this.domain);
    this.home = grow(this.home);
    this.names = grow(this.names);
  }
}

export interface IndexStats {
  documents: number;
  segments: number;
  postings: number;
  /** Terms whose postings are decoded in memory, and their bytes. */
  cachedTerms: number;
  cachedBytes: number;
}

/**
 * The local search index: pages and their postings in one SQLite file (better-sqlite3, WAL),
 * updated page by page without a rebuild, searched with BM25 over title and text and top-k
 * retrieval that scores only the documents that can still make the page of results.
 *
 * Storage is segmented, as in Lucene: each batch of added pages writes one segment of postings
 * (term -> ids and term frequencies); a replaced or removed page is dropped from the page table at
 * once and from its segment's postings when that segment is next merged. Queries read a term's
 * postings from every segment, drop dead pages, and keep the decoded list with each posting's
 * score contribution in a bounded cache. The page table's per-page facts (lengths, prior, date,
 * category, language, domain) live in typed arrays, so filters are applied inside the retrieval.
 */
export class LocalIndex {
  readonly db: Database.Database;
  private readonly now: () => Date;
  private readonly cacheLimit: number;
  private readonly pages = new PageTable();
  private readonly cache = new Map<string, CachedTerm>();
  private cacheBytes = 0;
  /** Collection statistics the cached impacts were computed with. */
  private cacheBasis = { documents: 0, avgTitle: 0, avgText: 0 };
  private documents = 0;
  private sumTitle = 0;
  private sumText = 0;
  private nextId = 1;
  private readonly domains: string[] = [''];
  private readonly domainIds = new Map<string, number>();
  private readonly languages: string[] = [''];
  private readonly languageIds = new Map<string, number>();
  /** Live pages per language id (0: unknown), so a filter every page passes is not applied page by page. */
  private readonly languagePages: number[] = [0];
  /** Host name words -> domain ids, and host name words -> home page ids: built when first needed. */
  private labels: { exact: Map<string, number[]>; byDeletion: Map<string, string[]> } | null = null;
  private homes: Map<string, number> | null = null;
  /** Every indexed term, by length, for typo matching: read when first needed. */
  private vocabulary: Map<string, { terms: string[]; masks: number[] }> | null = null;
  /** What `near` and `domainsSpelledBy` found per word, until the vocabulary or the domains change. */
  private readonly nearCache = new Map<string, Array<{ term: string; distance: number }>>();
  private readonly spelledCache = new Map<string, number[]>();
  private readonly statements: ReturnType<LocalIndex['prepare']>;

  constructor(options: LocalIndexOptions = {}) {
    this.now = options.now ?? (() => new Date());
    this.cacheLimit = options.cacheBytes ?? DEFAULT_CACHE_BYTES;
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
    this.loadPages();
  }

  /** Counts the index's writes: a result computed before the last one may be stale. */
  generation = 0;
  /** Told what each write changed (a reader on another thread follows it). */
  onChange?: (change: IndexChange) => void;
  private change: IndexChange | null = null;

  /** Pages in the index. */
  get size(): number {
    return this.documents;
  }

  get(url: string): IndexedDocument | undefined {
    return this.statements.byUrl.get(url) as IndexedDocument | undefined;
  }

  /** URLs of the pages a source added. */
  urlsOf(source: string): string[] {
    return this.statements.urlsOfSource.pluck().all(source) as string[];
  }

  /** Sources with at least one page. */
  sources(): string[] {
    return this.statements.sources.pluck().all() as string[];
  }

  meta<T>(key: string): T | undefined {
    const value = this.statements.getMeta.pluck().get(key) as string | undefined;
    return value === undefined ? undefined : (JSON.parse(value) as T);
  }

  setMeta(key: string, value: unknown): void {
    this.statements.setMeta.run(key, JSON.stringify(value));
  }

  stats(): IndexStats {
    // A closed index still says how many pages it held.
    const segments = this.db.open
      ? (this.db.prepare('SELECT COUNT(*) AS n, COALESCE(SUM(postings), 0) AS p FROM segments').get() as { n: number; p: number })
      : { n: 0, p: 0 };
    return { documents: this.documents, segments: segments.n, postings: segments.p, cachedTerms: this.cache.size, cachedBytes: this.cacheBytes };
  }

  /** Adds the page, replacing the one with the same URL (a re-crawl). */
  upsert(doc: IndexedDocument): void {
    this.apply([doc], []);
  }

  remove(url: string): boolean {
    return this.apply([], [url]).removed > 0;
  }

  /**
   * Adds, replaces and removes pages in one transaction: a search sees all of it or none. The
   * added pages become one new segment (a bulk load should use `writer()`, which cuts segments
   * at a bounded size).
   */
  apply(upserts: Array<IndexedDocument | PreparedDocument>, removals: string[], alongside?: () => void): { removed: number } {
    let removed = 0;
    const segment = new SegmentBuilder();
    this.change = { added: [], dropped: [], touched: [] };
    this.db.transaction(() => {
      for (const url of removals) if (this.drop(url)) removed++;
      // The last copy of a URL in the batch wins, as it would added one by one.
      const last = new Map<string, PreparedDocument>();
      for (const page of upserts) {
        const prepared = 'analysed' in page ? page : { doc: page, analysed: analyse(page) };
        last.delete(prepared.doc.url);
        last.set(prepared.doc.url, prepared);
      }
      for (const page of clustered([...last.values()])) this.insert(page.doc, page.analysed, segment);
      this.writeSegment(segment);
      alongside?.();
    })();
    this.afterWrite(new Set(segment.terms.keys()));
    const change = this.change;
    this.change = null;
    if (change && (change.added.length || change.dropped.length || change.touched.length)) this.onChange?.(change);
    return { removed };
  }

  /**
   * A bulk writer: pages are buffered and written a segment at a time; searches see each segment
   * once written. `alongside` work (a source's own bookkeeping) commits with the next segment, so
   * the two never disagree after a crash.
   */
  writer(): { add(doc: IndexedDocument | PreparedDocument): void; remove(url: string): void; alongside(work: () => void): void; flush(): void } {
    let upserts: Array<IndexedDocument | PreparedDocument> = [];
    let removals: string[] = [];
    let work: Array<() => void> = [];
    const flush = () => {
      if (upserts.length === 0 && removals.length === 0 && work.length === 0) return;
      const batch = { upserts, removals, work };
      upserts = [];
      removals = [];
      work = [];
      this.apply(batch.upserts, batch.removals, () => batch.work.forEach((w) => w()));
    };
    return {
      add: (doc) => {
        upserts.push(doc);
        if (upserts.length >= FLUSH_DOCS) flush();
      },
      remove: (url) => {
        removals.push(url);
      },
      alongside: (w) => {
        work.push(w);
      },
      flush,
    };
  }

  close(): void {
    if (this.db.open) this.db.close();
  }

  search(query: SearchQuery): SearchPage {
    const limit = Math.max(1, Math.min(100, Math.floor(query.limit ?? 10)));
    const page = Math.max(1, Math.floor(query.page ?? 1));
    const admit = this.compileFilter(query);
    const queryTerms = [...new Set(terms(query.query))];
    const lists: ImpactList[] = [];
    const matchedTerms: string[] = [];
    const missing: string[] = [];
    for (const term of queryTerms) {
      const list = this.list(term);
      if (list) {
        lists.push(list);
        matchedTerms.push(term);
      } else missing.push(term);
    }
    // A rare word no page has is likely misspelt ("Ledgerlrak"): it alone is matched loosely, so
    // exact queries keep their exact scores and cost.
    for (const term of missing) {
      if (term.length < 5 || /\d/.test(term)) continue;
      for (const { term: near, distance } of this.near(term)) {
        const list = this.list(near);
        if (!list) continue;
        lists.push({ ...list, weight: (FUZZY_WEIGHT * term.length) / (term.length + distance) });
        matchedTerms.push(near);
      }
    }
    const wanted = page * limit + 1;
    const found = new Map<number, number>();
    for (const hit of topK(lists, wanted, admit)) found.set(hit.doc, hit.score);
    // Pages of a site the query names may rise above what BM25 alone ranks first: its best pages are fetched too.
    const named = this.namedDomains(queryTerms);
    if (named.size > 0) {
      const onNamed = (doc: number) => named.has(this.pages.domain[doc]) && (!admit || admit(doc));
      for (const hit of topK(lists, wanted, onNamed)) found.set(hit.doc, hit.score);
    }
    const results = this.reweigh(
      [...found].map(([doc, score]) => ({ doc, score })),
      queryTerms,
      named,
      lists,
      admit,
    );
    const shown = results.slice((page - 1) * limit, page * limit);
    // One read for the page of results.
    const rows = new Map(
      (this.statements.byIds.all(JSON.stringify(shown.map((r) => r.doc))) as Array<Omit<IndexedDocument, 'domain' | 'source'> & { id: number }>).map((row) => [row.id, row]),
    );
    const hits = shown.map((result) => this.toHit(result, rows.get(result.doc)!, matchedTerms, query.withContent === true));
    return { hits, page, hasMore: results.length > page * limit, warnings: [] };
  }

  // ---- storage ----

  private createSchema(): void {
    const format = Number(this.db.pragma('user_version', { simple: true }));
    if (format !== FORMAT) {
      // Another format (or a new file): start empty, the sources' own tables too; the provider
      // fills it again from its sources.
      const tables = this.db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'").pluck().all() as string[];
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
      byUrl: db.prepare('SELECT url, title, text, description, date, category, language, domain, source FROM docs WHERE url = ?'),
      byIds: db.prepare('SELECT id, url, title, text, description, date, category, language FROM docs WHERE id IN (SELECT value FROM json_each(?))'),
      textOf: db.prepare('SELECT title, text FROM docs WHERE id = ?'),
      idOf: db.prepare('SELECT id FROM docs WHERE url = ?').pluck(),
      urlsOfSource: db.prepare('SELECT url FROM docs WHERE source = ?'),
      sources: db.prepare('SELECT DISTINCT source FROM docs'),
      deleteDoc: db.prepare('DELETE FROM docs WHERE id = ?'),
      insertDoc: db.prepare(
        'INSERT INTO docs (id, url, source, title, text, description, date, category, language, domain, title_len, text_len, names) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
      ),
      insertPostings: db.prepare('INSERT INTO postings (term, segment, df_title, df_text, data) VALUES (?, ?, ?, ?, ?)'),
      termRows: db.prepare('SELECT segment, df_title, df_text, data FROM postings WHERE term = ? ORDER BY segment'),
      insertSegment: db.prepare('INSERT INTO segments (min_doc, max_doc, docs, postings) VALUES (?, ?, ?, ?)'),
      segments: db.prepare('SELECT id, min_doc, max_doc, docs, postings FROM segments ORDER BY id'),
      getMeta: db.prepare('SELECT value FROM meta WHERE key = ?'),
      setMeta: db.prepare('INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value'),
    };
  }

  private loadPages(): void {
    const rows = this.db.prepare('SELECT id, url, date, category, language, domain, title_len, text_len, names FROM docs').raw().iterate() as IterableIterator<
      [number, string, string | null, string | null, string | null, string, number, number, number]
    >;
    for (const [id, url, date, category, language, domain, titleLen, textLen, names] of rows) {
      this.setPage(id, { url, date, category: category as Category | null, language, domain }, titleLen, textLen, names);
    }
    const maxId = (this.db.prepare('SELECT MAX(id) FROM docs').pluck().get() as number | null) ?? 0;
    const maxPosted = (this.db.prepare('SELECT MAX(max_doc) FROM segments').pluck().get() as number | null) ?? 0;
    // Ids are never reused: a dead page's postings may linger in a segment until it is merged.
    this.nextId = Math.max(maxId, maxPosted) + 1;
    this.cacheBasis = this.currentBasis();
  }

  private setPage(id: number, doc: Pick<IndexedDocument, 'url' | 'date' | 'category' | 'language' | 'domain'>, titleLen: number, textLen: number, names: number): void {
    const p = this.pages;
    p.ensure(id);
    const home = isHome(doc.url);
    p.live[id] = 1;
    p.titleLen[id] = titleLen;
    p.textLen[id] = textLen;
    p.names[id] = names;
    p.home[id] = home ? 1 : 0;
    p.prior[id] = (1 / (1 + Math.max(0, names - MANY_NAMES) / MANY_NAMES)) * (home ? HOME_BOOST : 1);
    p.day[id] = dayNumber(doc.date);
    p.category[id] = doc.category ? CATEGORIES.indexOf(doc.category) + 1 : 0;
    p.language[id] = doc.language ? this.languageId(primaryLanguage(doc.language)) : 0;
    this.languagePages[p.language[id]]++;
    p.domain[id] = this.domainId(doc.domain);
    this.documents++;
    this.sumTitle += titleLen;
    this.sumText += textLen;
    if (home) this.homes = null;
  }

  private domainId(domain: string): number {
    let id = this.domainIds.get(domain);
    if (id === undefined) {
      id = this.domains.push(domain) - 1;
      this.domainIds.set(domain, id);
      this.labels = null;
      this.spelledCache.clear();
    }
    return id;
  }

  private languageId(language: string): number {
    let id = this.languageIds.get(language);
    if (id === undefined) {
      id = this.languages.push(language) - 1;
      this.languageIds.set(language, id);
      this.languagePages[id] = 0;
    }
    return id;
  }

  /** Drops a page from the table (its postings die with it). */
  private drop(url: string): boolean {
    const id = this.statements.idOf.get(url) as number | undefined;
    if (id === undefined) return false;
    this.statements.deleteDoc.run(id);
    this.kill(id);
    this.change?.dropped.push(id);
    return true;
  }

  private kill(id: number): void {
    const p = this.pages;
    if (!p.live[id]) return;
    p.live[id] = 0;
    this.languagePages[p.language[id]]--;
    this.documents--;
    this.sumTitle -= p.titleLen[id];
    this.sumText -= p.textLen[id];
    if (p.home[id]) this.homes = null;
  }

  private insert(doc: IndexedDocument, analysed: Analysed, segment: SegmentBuilder): void {
    this.drop(doc.url);
    const id = this.nextId++;
    this.statements.insertDoc.run(
      id,
      doc.url,
      doc.source,
      doc.title,
      doc.text,
      doc.description,
      doc.date,
      doc.category,
      doc.language,
      doc.domain,
      analysed.titleLen,
      analysed.textLen,
      analysed.names,
    );
    this.setPage(id, doc, analysed.titleLen, analysed.textLen, analysed.names);
    this.change?.added.push(id);
    segment.add(id, analysed);
  }

  private writeSegment(segment: SegmentBuilder): void {
    if (segment.terms.size === 0) return;
    const id = Number(this.statements.insertSegment.run(segment.min, segment.max, segment.docs, segment.postings).lastInsertRowid);
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

  /** After a commit: stale cache entries go, and segments are merged while there are too many or too dead. */
  private afterWrite(touched: Set<string>): void {
    this.refreshCaches(touched);
    this.maintain();
  }

  /**
   * Follows a write made through another connection (the index's writer, on another thread):
   * pages it added are read, pages it dropped die, words it touched are read again when next needed.
   */
  applyChange(change: IndexChange): void {
    for (const id of change.dropped) this.kill(id);
    if (change.added.length > 0) {
      const rows = this.db
        .prepare('SELECT id, url, date, category, language, domain, title_len, text_len, names FROM docs WHERE id IN (SELECT value FROM json_each(?))')
        .raw()
        .all(JSON.stringify(change.added)) as Array<[number, string, string | null, string | null, string | null, string, number, number, number]>;
      for (const [id, url, date, category, language, domain, titleLen, textLen, names] of rows) {
        if (this.pages.live.length > id && this.pages.live[id]) continue;
        this.setPage(id, { url, date, category: category as Category | null, language, domain }, titleLen, textLen, names);
        this.nextId = Math.max(this.nextId, id + 1);
      }
    }
    this.refreshCaches(new Set(change.touched));
  }

  private refreshCaches(touched: Set<string>): void {
    this.generation++;
    for (const term of touched) this.evict(term);
    this.change?.touched.push(...touched);
    this.vocabulary = null;
    this.nearCache.clear();
    const basis = this.currentBasis();
    const drift = (a: number, b: number) => Math.abs(a - b) > STATS_DRIFT * Math.max(a, b, 1);
    if (drift(basis.documents, this.cacheBasis.documents) || drift(basis.avgTitle, this.cacheBasis.avgTitle) || drift(basis.avgText, this.cacheBasis.avgText)) {
      this.cache.clear();
      this.cacheBytes = 0;
      this.cacheBasis = basis;
    }
  }

  private currentBasis() {
    const n = Math.max(1, this.documents);
    return { documents: this.documents, avgTitle: this.sumTitle / n, avgText: this.sumText / n };
  }

  /** Merges neighbouring small segments past MAX_SEGMENTS, and rewrites a segment that is mostly dead pages. */
  private maintain(): void {
    for (;;) {
      const segments = this.statements.segments.all() as Array<{
        id: number;
        min_doc: number;
        max_doc: number;
        docs: number;
        postings: number;
      }>;
      const dead = segments.find((s) => s.docs > 0 && 1 - this.liveIn(s.min_doc, s.max_doc) / s.docs > MAX_DEAD_SHARE);
      if (dead) {
        this.merge([dead.id]);
        continue;
      }
      if (segments.length <= MAX_SEGMENTS) return;
      let best = 0;
      for (let i = 1; i + 1 < segments.length; i++) {
        if (segments[i].postings + segments[i + 1].postings < segments[best].postings + segments[best + 1].postings) best = i;
      }
      this.merge([segments[best].id, segments[best + 1].id]);
    }
  }

  private liveIn(min: number, max: number): number {
    let live = 0;
    const end = Math.min(max, this.pages.live.length - 1);
    for (let id = min; id <= end; id++) live += this.pages.live[id];
    return live;
  }

  /** Rewrites the segments (neighbours, in id order) as one, keeping only live pages' postings. */
  private merge(ids: number[]): void {
    const placeholders = ids.map(() => '?').join(', ');
    const live = this.pages.live;
    const touched = new Set<string>();
    this.db.transaction(() => {
      const rows = this.db.prepare(`SELECT term, segment, data FROM postings WHERE segment IN (${placeholders}) ORDER BY term, segment`).iterate(...ids) as IterableIterator<{
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
          kept.push([current, encodePostings(docs, title, text), title.filter((t) => t > 0).length, text.filter((t) => t > 0).length]);
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
      this.db.prepare('INSERT INTO segments (id, min_doc, max_doc, docs, postings) VALUES (?, ?, ?, ?, ?)').run(target, min, max, pages.size, postings);
      for (const [term, data, dfTitle, dfText] of kept) this.statements.insertPostings.run(term, target, dfTitle, dfText, data);
    })();
    for (const term of touched) this.evict(term);
    this.change?.touched.push(...touched);
  }

  private evict(term: string): void {
    const cached = this.cache.get(term);
    if (!cached) return;
    this.cache.delete(term);
    this.cacheBytes -= cached.bytes;
  }

  // ---- retrieval ----

  /** The term's live postings with each one's contribution (BM25 over title and text, times the page's prior); null when no page has it. */
  private list(term: string): ImpactList | null {
    const cached = this.cache.get(term);
    if (cached) {
      // Most recently used last: Map keeps insertion order, so eviction takes the first.
      this.cache.delete(term);
      this.cache.set(term, cached);
      return cached.list;
    }
    const rows = this.statements.termRows.all(term) as TermRow[];
    let list: ImpactList | null = null;
    if (rows.length > 0) {
      const { documents, avgTitle, avgText } = this.cacheBasis;
      let dfTitle = 0;
      let dfText = 0;
      let total = 0;
      for (const row of rows) {
        dfTitle += row.df_title;
        dfText += row.df_text;
        total += row.data.length / 6;
      }
      const idf = (df: number) => Math.log(1 + (documents - df + 0.5) / (df + 0.5));
      const idfTitle = TITLE_BOOST * idf(dfTitle);
      const idfText = idf(dfText);
      const docs = new Uint32Array(total);
      const impacts = new Float32Array(total);
      const p = this.pages;
      let n = 0;
      for (const row of rows) {
        const decoded = decodePostings(row.data);
        for (let i = 0; i < decoded.docs.length; i++) {
          const id = decoded.docs[i];
          if (!p.live[id]) continue;
          let impact = 0;
          const tfTitle = decoded.title[i];
          if (tfTitle > 0) impact += idfTitle * (DELTA + (tfTitle * (K1 + 1)) / (tfTitle + K1 * (1 - B + (B * p.titleLen[id]) / avgTitle)));
          const tfText = decoded.text[i];
          if (tfText > 0) impact += idfText * (DELTA + (tfText * (K1 + 1)) / (tfText + K1 * (1 - B + (B * p.textLen[id]) / avgText)));
          docs[n] = id;
          impacts[n] = impact * p.prior[id];
          n++;
        }
      }
      if (n > 0) list = impactList(n === total ? docs : docs.slice(0, n), n === total ? impacts : impacts.slice(0, n));
    }
    const bytes = 64 + term.length * 2 + (list ? list.docs.length * 8 + list.blockMax.length * 4 : 0);
    this.cache.set(term, { list, bytes });
    this.cacheBytes += bytes;
    while (this.cacheBytes > this.cacheLimit && this.cache.size > 1) {
      const [oldest, entry] = this.cache.entries().next().value as [string, CachedTerm];
      this.cache.delete(oldest);
      this.cacheBytes -= entry.bytes;
    }
    return list;
  }

  /** Indexed terms within a quarter of `term`'s letters of it (at most two edits), nearest first. */
  private near(term: string): Array<{ term: string; distance: number }> {
    const known = this.nearCache.get(term);
    if (known) return known;
    if (!this.vocabulary) {
      // Words by length and first letter, and by length and last letter: a typo seldom changes both ends.
      this.vocabulary = new Map();
      const put = (key: string, t: string, mask: number) => {
        let bucket = this.vocabulary!.get(key);
        if (!bucket) this.vocabulary!.set(key, (bucket = { terms: [], masks: [] }));
        bucket.terms.push(t);
        bucket.masks.push(mask);
      };
      for (const t of this.db.prepare('SELECT DISTINCT term FROM postings').pluck().iterate() as IterableIterator<string>) {
        const mask = letterMask(t);
        put(`${t.length}^${t[0]}`, t, mask);
        put(`${t.length}$${t[t.length - 1]}`, t, mask);
      }
    }
    const max = Math.min(2, Math.round(term.length * FUZZY_SHARE));
    const mask = letterMask(term);
    const found = new Map<string, number>();
    for (let length = term.length - max; length <= term.length + max; length++) {
      for (const key of [`${length}^${term[0]}`, `${length}$${term[term.length - 1]}`]) {
        const bucket = this.vocabulary.get(key);
        if (!bucket) continue;
        for (let i = 0; i < bucket.terms.length; i++) {
          // An edit adds or removes at most one letter of a–z each side: a cheap test first.
          if (bitCount(mask ^ bucket.masks[i]) > 2 * max || found.has(bucket.terms[i])) continue;
          const distance = editDistance(term, bucket.terms[i], max);
          if (distance <= max) found.set(bucket.terms[i], distance);
        }
      }
    }
    return remember(
      this.nearCache,
      term,
      [...found]
        .map(([t, distance]) => ({ term: t, distance }))
        .sort((a, b) => a.distance - b.distance || (a.term < b.term ? -1 : 1))
        .slice(0, MAX_NEAR),
    );
  }

  private compileFilter(query: SearchQuery): ((doc: number) => boolean) | undefined {
    const checks: Array<(doc: number) => boolean> = [];
    const p = this.pages;
    const include = (query.includeDomains ?? []).map(normalizeDomain).filter(Boolean);
    const exclude = (query.excludeDomains ?? []).map(normalizeDomain).filter(Boolean);
    if (include.length || exclude.length) {
      // Decided once per domain the index holds, then one lookup per page.
      const allowed = new Uint8Array(this.domains.length);
      this.domains.forEach((domain, id) => {
        allowed[id] = (!include.length || include.some((d) => domainMatches(domain, d))) && !exclude.some((d) => domainMatches(domain, d)) ? 1 : 0;
      });
      checks.push((doc) => allowed[p.domain[doc]] === 1);
    }
    const fresh = query.freshness ? freshnessStart(query.freshness, this.now()).toISOString().slice(0, 10) : undefined;
    const fromDay = [query.dateFrom, fresh].filter((d): d is string => !!d).sort().pop();
    // Dates are days, so `hour` keeps pages dated on the day an hour ago fell on, or later.
    if (fromDay || query.dateTo) {
      const from = dayNumber(fromDay);
      const to = query.dateTo ? dayNumber(query.dateTo) : Infinity;
      checks.push((doc) => p.day[doc] !== NO_DATE && p.day[doc] >= from && p.day[doc] <= to);
    }
    if (query.category) {
      const category = CATEGORIES.indexOf(query.category) + 1;
      checks.push((doc) => p.category[doc] === category);
    }
    if (query.language) {
      // A page of unknown language is kept: nothing says it is in another one. Where no page is
      // in another language (most indexes), nothing is checked page by page.
      const language = this.languageIds.get(primaryLanguage(query.language)) ?? -1;
      const passing = this.languagePages[0] + (language > 0 ? this.languagePages[language] : 0);
      if (passing < this.documents) checks.push((doc) => p.language[doc] === 0 || p.language[doc] === language);
    }
    if (checks.length === 0) return undefined;
    if (checks.length === 1) return checks[0];
    return (doc) => checks.every((check) => check(doc));
  }

  /** Domain ids whose host name the query spells ("Ledgerlark" -> ledgerlark.test), with one typo allowed in a long word. */
  private namedDomains(queryTerms: string[]): Set<number> {
    const named = new Set<number>();
    if (queryTerms.length === 0) return named;
    const spelled = new Set([...queryTerms, ...queryTerms.slice(1).map((t, i) => `${queryTerms[i]}${t}`), queryTerms.join('')]);
    for (const word of spelled) for (const id of this.domainsSpelledBy(word)) named.add(id);
    return named;
  }

  /** Domain ids whose host name `word` spells, with one typo allowed in a long word (remembered per word). */
  private domainsSpelledBy(word: string): number[] {
    const known = this.spelledCache.get(word);
    if (known) return known;
    const labels = (this.labels ??= this.labelIndex());
    const ids = new Set(labels.exact.get(word) ?? []);
    if (word.length >= 6) {
      // One typo: the label and the word share a form with one letter deleted (or are one).
      for (const form of [word, ...deletions(word)]) {
        for (const label of labels.byDeletion.get(form) ?? []) {
          if (label !== word && sameWord(label, word)) for (const id of labels.exact.get(label)!) ids.add(id);
        }
      }
    }
    return remember(this.spelledCache, word, [...ids]);
  }

  /** Host name words -> domain ids, and each word's one-letter deletions -> words, for typo lookups. */
  private labelIndex(): { exact: Map<string, number[]>; byDeletion: Map<string, string[]> } {
    const exact = new Map<string, number[]>();
    const byDeletion = new Map<string, string[]>();
    this.domains.forEach((domain, id) => {
      if (!domain) return;
      for (const label of hostLabels(domain)) {
        const ids = exact.get(label);
        if (ids) {
          if (!ids.includes(id)) ids.push(id);
          continue;
        }
        exact.set(label, [id]);
        if (label.length < 5) continue;
        for (const form of [label, ...deletions(label)]) {
          const words = byDeletion.get(form);
          if (!words) byDeletion.set(form, [label]);
          else if (!words.includes(label)) words.push(label);
        }
      }
    });
    return { exact, byDeletion };
  }

  /**
   * Priors a page has beyond its words: a page that names many entities (a directory, a roundup)
   * is about none of them, so it yields to the page about one; a site's home page stands for the
   * site (both already in each posting's impact); a site whose host name the query spells
   * ("Ledgerlark" -> ledgerlark.test) is what the query names. BM25 alone ranks the directory
   * first for a description it matches term for term.
   */
  private reweigh(results: Scored[], queryTerms: string[], named: Set<number>, lists: ImpactList[], admit?: (doc: number) => boolean): Scored[] {
    const p = this.pages;
    let navigational: Scored | null = null;
    const joined = queryTerms.join('');
    for (const result of results) {
      if (!named.has(p.domain[result.doc])) continue;
      const home = p.home[result.doc] === 1;
      result.score *= home ? NAMED_HOME_BOOST : NAMED_SITE_BOOST;
      // The whole query is the site's name ("Ledgerlark", "Kestrel and Loaf"): a navigational
      // query, answered by the site's home page first, as a user typing a name expects.
      // So is a name the home page opens with, one of its words naming the host ("Lanthorne Tidal
      // Energy" on lanthorne-tidal.test).
      if (!home || navigational) continue;
      const labels = hostLabels(this.domains[p.domain[result.doc]]);
      const spells = (t: string) => labels.some((label) => sameWord(label, t));
      if (queryTerms.every(spells) || spells(joined) || this.opensWith(result.doc, queryTerms)) navigational = result;
    }
    results.sort((a, b) => b.score - a.score || a.doc - b.doc);
    this.promoteListed(results, queryTerms, lists, admit);
    if (navigational && results[0] !== navigational) {
      navigational.score = results[0].score * 1.01;
      results.sort((a, b) => b.score - a.score || a.doc - b.doc);
    }
    return results;
  }

  /** The page's title or opening words hold the query's terms in a row (its name as the page writes it). */
  private opensWith(doc: number, queryTerms: string[]): boolean {
    if (queryTerms.length === 0) return false;
    const row = this.statements.textOf.get(doc) as { title: string; text: string };
    const opening = terms(`${row.title} ${row.text.slice(0, 300)}`);
    for (let i = 0; i + queryTerms.length <= opening.length; i++) if (queryTerms.every((t, j) => sameWord(opening[i + j], t))) return true;
    return false;
  }

  /**
   * A listing among the first results (a directory, a roundup) answers a description with one of
   * its entries ("Ledgerlark — payroll software, Leeds, founded 2016"): the entry's entity, when its
   * own site is indexed, is what the query describes. Its home page is put just above the listing.
   */
  private promoteListed(results: Scored[], queryTerms: string[], lists: ImpactList[], admit?: (doc: number) => boolean): void {
    const wanted = new Set(queryTerms);
    if (wanted.size < 2) return;
    const byDoc = new Map(results.map((r) => [r.doc, r]));
    let changed = false;
    for (const listing of results.slice(0, LISTINGS_CHECKED)) {
      if (this.pages.names[listing.doc] <= MANY_NAMES) continue;
      // An entry must hold two of the query's words: a listing holding fewer has none such.
      if (lists.filter((list) => scoreOf([list], listing.doc) > 0).length < 2) continue;
      const text = (this.statements.textOf.get(listing.doc) as { text: string }).text.slice(0, MAX_INDEXED_CHARS);
      const stems = [...wanted].map((t) => t.slice(0, 4));
      let best: { entry: string; matched: number } | null = null;
      for (const entry of text.split(/\n+|(?<=[.!?])\s+(?=\p{Lu})/u)) {
        const lower = entry.toLowerCase();
        let near = 0;
        for (const stem of stems) if (lower.includes(stem)) near++;
        if (near < 2 && /^[\x00-\x7f]*$/.test(entry)) continue;
        const matched = new Set(terms(entry).filter((t) => wanted.has(t))).size;
        if (matched >= 2 && (!best || matched > best.matched)) best = { entry, matched };
      }
      if (!best) continue;
      for (const name of best.entry.match(NAME_PHRASE) ?? []) {
        const home = this.homeNamed(name);
        if (home === undefined || home === listing.doc || (admit && !admit(home))) continue;
        // The home page may rank below the results fetched: it is scored on its own.
        let result = byDoc.get(home);
        if (!result) {
          const score = scoreOf(lists, home);
          if (score <= 0) continue;
          result = { doc: home, score };
          results.push(result);
          byDoc.set(home, result);
        }
        if (result.score <= listing.score) result.score = listing.score * 1.01;
        changed = true;
        break;
      }
    }
    if (changed) results.sort((a, b) => b.score - a.score || a.doc - b.doc);
  }

  /** The home page of the indexed site a name spells ("Kestrel & Loaf" -> kestrel-and-loaf.test/), if one. */
  private homeNamed(name: string): number | undefined {
    if (!this.homes) {
      this.homes = new Map();
      const p = this.pages;
      for (let id = 1; id < this.nextId && id < p.live.length; id++) {
        if (!p.live[id] || !p.home[id]) continue;
        for (const label of hostLabels(this.domains[p.domain[id]])) if (!this.homes.has(label)) this.homes.set(label, id);
      }
    }
    const words = terms(name);
    return this.homes.get(words.join('')) ?? (words[0] && words[0].length >= 4 ? this.homes.get(words[0]) : undefined);
  }

  private toHit(result: Scored, row: Omit<IndexedDocument, 'domain' | 'source'>, matchedTerms: string[], withContent: boolean): SearchHit {
    return {
      url: row.url,
      title: row.title,
      snippet: snippetFor(row.text, matchedTerms, row.description),
      date: row.date,
      category: row.category,
      language: row.language,
      score: result.score,
      ...(withContent && { content: row.text }),
    };
  }
}
