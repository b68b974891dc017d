import type { SearchPage, SearchQuery } from '@app/providers';
import { analyse, type Analysed, type IndexedDocument, type PreparedDocument } from './document';
import { compileFilter } from './filters';
import type { ImpactList } from './impact-list';
import { changesSomething, emptyChange, type IndexChange, MAX_TOLD_WORDS } from './index-change';
import { clustered } from './minhash-order';
import { readPageSnapshot, writePageSnapshot } from './page-snapshot';
import { PageTable } from './page-table';
import { PostingsCache } from './postings-cache';
import { evaluate, type Retrieval, type StoredPage } from './query-evaluation';
import { NAMING_TITLE_CHARS, Ranking } from './ranking-priors';
import { IndexStorage, SegmentBuilder, setRow } from './storage';
import { TitleCache } from './title-cache';
import { HostNames, Vocabulary } from './typo-matching';

/** Pages buffered before they are written as one segment by a bulk writer. */
const FLUSH_DOCS = 10_000;
/**
 * Characters of text buffered before a bulk writer writes them, however few pages hold them: ten
 * thousand pages of a megabyte each would otherwise be held at once (a typical page holds a few
 * thousand characters, so the page count cuts first).
 */
const FLUSH_CHARS = 48 * 1024 * 1024;
/** Postings kept decoded in memory (bytes, about 8 per posting); least recently used terms go first. */
const DEFAULT_CACHE_BYTES = 96 * 1024 * 1024;
/** Pages' titles kept in memory (about 45 bytes a page: a million pages' in 64 MB). */
const DEFAULT_TITLE_CACHE_BYTES = 64 * 1024 * 1024;

export interface LocalIndexOptions {
  /** The SQLite file the index lives in; in memory when absent (tests). */
  file?: string;
  /** The clock freshness windows count back from. */
  now?: () => Date;
  /** Bytes of decoded postings kept in memory. */
  cacheBytes?: number;
  /** Bytes of pages' titles kept in memory (see TitleCache). */
  titleCacheBytes?: number;
  /** A reader of an index another thread writes: opens the file read-only and follows `applyChange`. */
  readonly?: boolean;
}

export interface IndexStats {
  documents: number;
  segments: number;
  postings: number;
  /** Terms whose postings are decoded in memory, and their bytes (block bounds kept included). */
  cachedTerms: number;
  cachedBytes: number;
  /** Terms whose block bounds are kept (their lists are then computed only where a query reads). */
  boundedTerms: number;
  /** Lists built from kept bounds since the index was opened, their postings, and the impacts computed of them. */
  lazyLists: number;
  lazyPostings: { computed: number; total: number };
}

/**
 * The local search index: pages and their postings in one SQLite file (better-sqlite3, WAL),
 * updated page by page without a rebuild, searched with BM25 over title and text and top-k
 * retrieval that scores only the documents that can still make the page of results.
 *
 * A thin front over: segmented storage (./storage), the page table of per-page facts in typed
 * arrays, so filters are applied inside the retrieval (./page-table, ./filters), the cache of
 * decoded postings with their impacts (./postings-cache), query evaluation
 * (./query-evaluation, ./top-k), typo and host matching (./typo-matching), ranking priors
 * (./ranking-priors), the order new pages get their ids in (./minhash-order), and the protocol a
 * reader on the search thread follows writes by (./index-change). Pages are kept by source
 * (`urlsOf`, `sources`), so a source is rebuilt on its own.
 */
export class LocalIndex {
  readonly db: IndexStorage['db'];
  private readonly storage: IndexStorage;
  private readonly now: () => Date;
  private readonly pages = new PageTable();
  private readonly postings: PostingsCache;
  private readonly vocabulary: Vocabulary;
  private readonly hosts = new HostNames(this.pages);
  private readonly ranking: Ranking;
  private readonly titles: TitleCache;
  private readonly retrieval: Retrieval;
  private nextId = 1;

  constructor(options: LocalIndexOptions = {}) {
    this.now = options.now ?? (() => new Date());
    this.postings = new PostingsCache(options.cacheBytes ?? DEFAULT_CACHE_BYTES);
    this.storage = new IndexStorage({ file: options.file, readonly: options.readonly });
    this.db = this.storage.db;
    this.titles = new TitleCache(
      // A page's title is its own (bounded only by what the page sent): the ranking reads its start.
      (first, end) =>
        this.storage.statements.titlesRange.all(NAMING_TITLE_CHARS, first, end) as Array<[number, string]>,
      options.titleCacheBytes ?? DEFAULT_TITLE_CACHE_BYTES,
    );
    this.vocabulary = new Vocabulary(() => this.storage.terms());
    this.ranking = new Ranking(this.pages, this.hosts, {
      textOf: (doc) => this.storage.statements.textOf.get(doc) as { title: string; text: string },
      titlesOf: (ids) => this.titles.titlesOf(ids),
    });
    this.retrieval = {
      pages: this.pages,
      list: (term) => this.list(term),
      near: (term) => this.vocabulary.near(term),
      filter: (query) => compileFilter(query, this.pages, this.now),
      namedDomains: (queryTerms) => this.hosts.namedDomains(queryTerms),
      reweigh: (results, queryTerms, named, lists, listTerms, admit) =>
        this.ranking.reweigh(results, queryTerms, named, lists, listTerms, admit),
      rows: (ids) =>
        new Map(
          (this.storage.statements.byIds.all(JSON.stringify(ids)) as Array<StoredPage & { id: number }>).map((row) => [
            row.id,
            row,
          ]),
        ),
    };
    this.snapshotFile = options.file ? `${options.file}.pages` : null;
    this.pagesVersion = this.storage.pagesVersion();
    const fromSnapshot = this.snapshotFile ? readPageSnapshot(this.snapshotFile, this.pages, this.pagesVersion) : null;
    if (fromSnapshot !== null) {
      this.nextId = fromSnapshot;
      this.snapshotVersion = this.pagesVersion;
    } else this.nextId = this.storage.loadPages(this.pages);
    this.readonly = options.readonly ?? false;
    this.postings.reset(this.pages.basis());
  }

  /** Where the page table is kept between boots (none for an index in memory). */
  private readonly snapshotFile: string | null;
  private readonly readonly: boolean;
  /** The pages version of the stored pages, and of the snapshot on disk (-1: none of this index). */
  private pagesVersion: number;
  private snapshotVersion = -1;

  /** Counts the index's writes: a result computed before the last one may be stale. */
  generation = 0;
  /** Told what each write changed (a reader on another thread follows it). */
  onChange?: (change: IndexChange) => void;
  private change: IndexChange | null = null;

  /** Pages in the index. */
  get size(): number {
    return this.pages.documents;
  }

  get(url: string): IndexedDocument | undefined {
    return this.storage.statements.byUrl.get(url) as IndexedDocument | undefined;
  }

  /** URLs of the pages a source added. */
  urlsOf(source: string): string[] {
    return this.storage.statements.urlsOfSource.pluck().all(source) as string[];
  }

  /** Sources with at least one page. */
  sources(): string[] {
    return this.storage.statements.sources.pluck().all() as string[];
  }

  meta<T>(key: string): T | undefined {
    const value = this.storage.statements.getMeta.pluck().get(key) as string | undefined;
    return value === undefined ? undefined : (JSON.parse(value) as T);
  }

  setMeta(key: string, value: unknown): void {
    this.storage.statements.setMeta.run(key, JSON.stringify(value));
  }

  stats(): IndexStats {
    // A closed index still says how many pages it held.
    const segments = this.storage.segmentCounts();
    return {
      documents: this.pages.documents,
      segments: segments.n,
      postings: segments.p,
      cachedTerms: this.postings.size,
      cachedBytes: this.postings.cachedBytes,
      boundedTerms: this.postings.boundedTerms,
      lazyLists: this.postings.lazy.lists,
      lazyPostings: { computed: this.postings.lazy.computed, total: this.postings.lazy.postings },
    };
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
  apply(
    upserts: Array<IndexedDocument | PreparedDocument>,
    removals: string[],
    alongside?: () => void,
  ): { removed: number } {
    let removed = 0;
    const segment = new SegmentBuilder();
    this.change = emptyChange();
    const version = this.pagesVersion + 1;
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
      this.storage.writeSegment(segment);
      this.storage.setPagesVersion(version);
      alongside?.();
    })();
    this.pagesVersion = version;
    this.afterWrite(new Set(segment.terms.keys()));
    const change = this.change;
    this.change = null;
    if (change && changesSomething(change)) this.onChange?.(change);
    return { removed };
  }

  /**
   * A bulk writer: pages are buffered and written a segment at a time (FLUSH_DOCS pages or
   * FLUSH_CHARS characters of text, whichever comes first; `bounds` sets others); searches see each segment
   * once written. `alongside` work (a source's own bookkeeping) commits with the next segment, so
   * the two never disagree after a crash.
   */
  writer(bounds: { docs?: number; chars?: number } = {}): {
    add(doc: IndexedDocument | PreparedDocument): void;
    remove(url: string): void;
    alongside(work: () => void): void;
    flush(): void;
  } {
    const maxDocs = bounds.docs ?? FLUSH_DOCS;
    const maxChars = bounds.chars ?? FLUSH_CHARS;
    let chars = 0;
    let upserts: Array<IndexedDocument | PreparedDocument> = [];
    let removals: string[] = [];
    let work: Array<() => void> = [];
    const flush = () => {
      if (upserts.length === 0 && removals.length === 0 && work.length === 0) return;
      const batch = { upserts, removals, work };
      chars = 0;
      upserts = [];
      removals = [];
      work = [];
      this.apply(batch.upserts, batch.removals, () => batch.work.forEach((w) => w()));
    };
    return {
      add: (doc) => {
        upserts.push(doc);
        const page = 'analysed' in doc ? doc.doc : doc;
        chars += page.text.length + page.title.length + (page.description?.length ?? 0);
        if (upserts.length >= maxDocs || chars >= maxChars) flush();
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

  /**
   * Closes the index, keeping the page table beside it for the next boot when pages changed since
   * the snapshot (a writer's; a reader's table is the writer's).
   */
  close(): void {
    if (!this.db.open) return;
    if (!this.readonly) this.keepPages();
    this.db.close();
  }

  /** Writes the page table's snapshot if the stored pages moved past it (a failure leaves the rows to read). */
  keepPages(): void {
    if (!this.snapshotFile || this.readonly || this.snapshotVersion === this.pagesVersion) return;
    try {
      writePageSnapshot(this.snapshotFile, this.pages, this.pagesVersion, this.nextId);
      this.snapshotVersion = this.pagesVersion;
    } catch {
      // A full disk or a read-only folder: the next boot reads the rows.
    }
  }

  search(query: SearchQuery): SearchPage {
    return evaluate(query, this.retrieval);
  }

  /**
   * Follows a write made through another connection (the index's writer, on another thread):
   * pages it added are read, pages it dropped die, words it touched are read again when next needed.
   */
  applyChange(change: IndexChange): void {
    for (const id of change.dropped) {
      this.pages.kill(id);
      this.titles.forget(id);
    }
    if (change.added.length > 0) {
      for (const id of change.added) this.titles.forget(id);
      for (const row of this.storage.pageRows(change.added)) {
        const id = row[0];
        if (this.pages.isLive(id)) continue;
        setRow(this.pages, row);
        this.nextId = Math.max(this.nextId, id + 1);
      }
    }
    this.refreshCaches(new Set(change.touched), change.touchedAll === true);
  }

  /** Drops a page from the table (its postings die with it). */
  private drop(url: string): boolean {
    const id = this.storage.statements.idOf.get(url) as number | undefined;
    if (id === undefined) return false;
    this.storage.statements.deleteDoc.run(id);
    this.pages.kill(id);
    this.titles.forget(id);
    this.change?.dropped.push(id);
    return true;
  }

  private insert(doc: IndexedDocument, analysed: Analysed, segment: SegmentBuilder): void {
    this.drop(doc.url);
    const id = this.nextId++;
    this.storage.statements.insertDoc.run(
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
    this.pages.set(id, doc, analysed.titleLen, analysed.textLen, analysed.names);
    this.titles.forget(id);
    this.change?.added.push(id);
    segment.add(id, analysed);
  }

  /** After a commit: stale cache entries go, and segments are merged while there are too many or too dead. */
  private afterWrite(touched: Set<string>): void {
    this.refreshCaches(touched);
    this.storage.maintain(this.pages, (merged) => {
      this.forgetWords(merged);
      this.told(merged);
    });
  }

  /**
   * Adds words to the change a reader follows, one at a time (`push(...words)` overflowed the
   * stack at 880,000 pages); past MAX_TOLD_WORDS, the change says every word was touched instead:
   * a merge of large segments touches millions, which would cross to the reader's thread for nothing.
   */
  private told(words: Set<string>): void {
    const change = this.change;
    if (!change || change.touchedAll) return;
    if (change.touched.length + words.size > MAX_TOLD_WORDS) {
      change.touchedAll = true;
      change.touched = [];
    } else for (const word of words) change.touched.push(word);
  }

  /** The cached postings of these words go (all of them, past MAX_TOLD_WORDS, as a reader does). */
  private forgetWords(words: Set<string>): void {
    if (words.size > MAX_TOLD_WORDS) this.postings.clear();
    else for (const term of words) this.postings.evict(term);
  }

  private refreshCaches(touched: Set<string>, all = false): void {
    this.generation++;
    if (all) this.postings.clear();
    else this.forgetWords(touched);
    this.told(touched);
    this.vocabulary.forget();
    this.postings.rebase(this.pages.basis());
  }

  private list(term: string): ImpactList | null {
    return this.postings.list(term, (t) => this.storage.termRows(t), this.pages);
  }
}
