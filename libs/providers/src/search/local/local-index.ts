import { randomUUID } from 'node:crypto';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import MiniSearch, { type AsPlainObject, type Options, type SearchResult } from 'minisearch';
import type { Category, Freshness, SearchHit, SearchPage, SearchQuery } from '../search-provider.port';
import { processTerm, snippetFor, tokenize } from './text-analysis';
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

// Bump when the document shape or the analysis changes: a stored index of another format is rebuilt.
// 2: crawled pages no longer take a canonical on another host as their identity. An index saved
// as 1 may hold such claims, so it is not loaded (and is rebuilt) rather than served on.
const FORMAT = 2;
const DOCUMENTS_FILE = 'local-documents.json';
const MINISEARCH_FILE = 'local-minisearch.json';
// Longer pages are cut for the index (not for `content`): BM25 gains nothing from a book's tail.
const MAX_INDEXED_CHARS = 100_000;

const MINISEARCH_OPTIONS: Options<IndexedDocument> = {
  idField: 'url',
  fields: ['title', 'text'],
  extractField: (doc, field) => (field === 'text' ? doc.text.slice(0, MAX_INDEXED_CHARS) : doc[field as keyof IndexedDocument]),
  tokenize,
  processTerm,
  // Exact terms only: prefix and fuzzy expansion cost milliseconds per query on a large index.
  searchOptions: { boost: { title: 2.5 }, prefix: false, fuzzy: false, combineWith: 'OR', bm25: { k: 1.2, b: 0.7, d: 0.5 } },
};

const FRESHNESS_WINDOW: Record<Freshness, (now: Date) => Date> = {
  hour: (now) => new Date(now.getTime() - 3_600_000),
  day: (now) => new Date(now.getTime() - 86_400_000),
  week: (now) => new Date(now.getTime() - 7 * 86_400_000),
  month: (now) => new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, now.getUTCDate())),
  year: (now) => new Date(Date.UTC(now.getUTCFullYear() - 1, now.getUTCMonth(), now.getUTCDate())),
};

export interface LocalIndexOptions {
  /** The clock freshness windows count back from. */
  now?: () => Date;
}

/** A BM25 (minisearch) index of pages with the filters of the search port applied inside it. */
export class LocalIndex {
  private mini: MiniSearch<IndexedDocument>;
  private readonly docs = new Map<string, IndexedDocument>();
  private readonly now: () => Date;

  constructor(options: LocalIndexOptions = {}) {
    this.now = options.now ?? (() => new Date());
    this.mini = new MiniSearch(MINISEARCH_OPTIONS);
  }

  get size(): number {
    return this.docs.size;
  }

  get(url: string): IndexedDocument | undefined {
    return this.docs.get(url);
  }

  documents(): IndexedDocument[] {
    return [...this.docs.values()];
  }

  /** Adds the page, replacing the one with the same URL (a re-crawl). */
  upsert(doc: IndexedDocument): void {
    if (this.docs.has(doc.url)) this.mini.discard(doc.url);
    this.docs.set(doc.url, doc);
    this.mini.add(doc);
  }

  remove(url: string): boolean {
    if (!this.docs.delete(url)) return false;
    this.mini.discard(url);
    return true;
  }

  search(query: SearchQuery): SearchPage {
    const limit = Math.max(1, Math.min(100, Math.floor(query.limit ?? 10)));
    const page = Math.max(1, Math.floor(query.page ?? 1));
    const keep = this.compileFilter(query);
    const results = query.query.trim()
      ? this.mini.search(query.query, keep ? { filter: (result) => keep(this.docs.get(result.id as string)!) } : {})
      : [];
    const hits = results.slice((page - 1) * limit, page * limit).map((result) => this.toHit(result));
    return { hits, page, hasMore: results.length > page * limit, warnings: [] };
  }

  /** Writes the index under `dir`, each file atomically; `meta` comes back from `load`. */
  async save(dir: string, meta: Record<string, unknown>): Promise<void> {
    // Replaced pages leave postings behind that minisearch cleans lazily, shifting document
    // frequencies (and scores) as it goes; clean them now so the saved index scores as this one will.
    if (this.mini.dirtCount > 0) await this.mini.vacuum();
    await fs.mkdir(dir, { recursive: true });
    // Both files carry one generation: a crash between the two renames leaves a pair that `load`
    // refuses (and the caller rebuilds) rather than an index that disagrees with its documents.
    const generation = randomUUID();
    await writeAtomic(path.join(dir, MINISEARCH_FILE), JSON.stringify({ format: FORMAT, generation, index: this.mini.toJSON() }));
    await writeAtomic(path.join(dir, DOCUMENTS_FILE), JSON.stringify({ format: FORMAT, generation, meta, documents: this.documents() }));
  }

  /** The index saved under `dir`, or null when there is none usable (missing, torn, other format). */
  static async load(dir: string, options: LocalIndexOptions = {}): Promise<{ index: LocalIndex; meta: Record<string, unknown> } | null> {
    try {
      const [miniFile, docsFile] = await Promise.all([
        fs.readFile(path.join(dir, MINISEARCH_FILE), 'utf8'),
        fs.readFile(path.join(dir, DOCUMENTS_FILE), 'utf8'),
      ]);
      const stored = JSON.parse(miniFile) as { format: number; generation: string; index: AsPlainObject };
      const documents = JSON.parse(docsFile) as { format: number; generation: string; meta: Record<string, unknown>; documents: IndexedDocument[] };
      if (stored.format !== FORMAT || documents.format !== FORMAT || stored.generation !== documents.generation) return null;
      const index = new LocalIndex(options);
      index.mini = MiniSearch.loadJS(stored.index, MINISEARCH_OPTIONS);
      for (const doc of documents.documents) index.docs.set(doc.url, doc);
      if (index.mini.documentCount !== index.docs.size) return null;
      return { index, meta: documents.meta };
    } catch {
      return null;
    }
  }

  private compileFilter(query: SearchQuery): ((doc: IndexedDocument) => boolean) | null {
    const checks: Array<(doc: IndexedDocument) => boolean> = [];
    const include = (query.includeDomains ?? []).map(normalizeDomain).filter(Boolean);
    const exclude = (query.excludeDomains ?? []).map(normalizeDomain).filter(Boolean);
    if (include.length) checks.push((doc) => include.some((domain) => domainMatches(doc.domain, domain)));
    if (exclude.length) checks.push((doc) => !exclude.some((domain) => domainMatches(doc.domain, domain)));

    const fresh = query.freshness ? FRESHNESS_WINDOW[query.freshness](this.now()).toISOString().slice(0, 10) : undefined;
    const from = [query.dateFrom, fresh].filter((d): d is string => !!d).sort().pop();
    const to = query.dateTo;
    // Dates are days, so `hour` keeps pages dated on the day an hour ago fell on, or later.
    if (from || to) checks.push((doc) => doc.date !== null && (!from || doc.date >= from) && (!to || doc.date <= to));

    if (query.category) checks.push((doc) => doc.category === query.category);
    const language = query.language ? primaryLanguage(query.language) : undefined;
    // A page of unknown language is kept: nothing says it is in another one.
    if (language) checks.push((doc) => doc.language === null || primaryLanguage(doc.language) === language);
    if (checks.length === 0) return null;
    return (doc) => checks.every((check) => check(doc));
  }

  private toHit(result: SearchResult): SearchHit {
    const doc = this.docs.get(result.id as string)!;
    return {
      url: doc.url,
      title: doc.title,
      snippet: snippetFor(doc.text, result.terms, doc.description),
      date: doc.date,
      category: doc.category,
      language: doc.language,
      score: result.score,
      content: doc.text,
    };
  }
}

/** `en-GB` -> `en`: a filter for English keeps British and American pages alike. */
const primaryLanguage = (tag: string) => tag.toLowerCase().split(/[-_]/)[0];

async function writeAtomic(file: string, data: string): Promise<void> {
  const tmp = `${file}.${process.pid}.${randomUUID()}.tmp`;
  const handle = await fs.open(tmp, 'w');
  try {
    await handle.writeFile(data, 'utf8');
    await handle.sync();
  } finally {
    await handle.close();
  }
  await fs.rename(tmp, file);
}
