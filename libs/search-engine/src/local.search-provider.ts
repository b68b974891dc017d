import * as fs from 'node:fs';
import * as path from 'node:path';
import { type IndexSeed, parseIndexSeed } from '@app/config';
import { extractAny } from '@app/extraction';
import type { PageFetcher } from '@app/fetch';
import {
  type SearchCapabilities,
  type SearchPage,
  type SearchProvider,
  SearchProviderError,
  type SearchQuery,
} from '@app/providers';
import { Crawler, type CrawlOptions, type CrawlResult } from './crawler';
import { type PreloadMode, type PreloadReport, preloadFile } from './file-preload';
import { FolderWatcher } from './folder-source';
import { FOLDER_SOURCE, forgetFiles, recordFiles, syncFolder } from './folder-sync';
import { IndexSearcher } from './index-searcher';
import type { IndexedDocument } from './document';
import { LocalIndex } from './local-index';
import { type Extractor, type RawPage, toIndexedDocument } from './to-document';
import { mirroredUrl } from '@app/urls';

export interface LocalSearchProviderOptions {
  /** The index is kept under `<dataDir>/index/`. */
  dataDir: string;
  /**
   * Names this copy of the index (`<dataDir>/index/<name>/`): search replicas that share a data
   * dir each keep their own copy, built from the same sources.
   */
  indexName?: string;
  /** `LOCAL_INDEX_DIR`: a folder of `.html`/`.md` pages. */
  indexDir?: string;
  /** `LOCAL_INDEX_SEEDS`: sites to crawl (needs `fetcher`), each a URL or `PUBLIC_ORIGIN=FETCH_URL` (see `parseIndexSeed`). */
  seeds?: string[];
  fetcher?: PageFetcher;
  now?: () => Date;
  /** Defaults to `extractAny` from `@app/extraction` (pages, PDF and Word files). */
  extract?: Extractor;
  /**
   * How crawled pages (hostile: any site a seed links to) are extracted; defaults to `extract`.
   * The service gives extraction threads with a deadline, so no page can stall the index.
   */
  extractCrawled?: Extractor;
  crawl?: CrawlOptions;
  /** `LOCAL_INDEX_REFRESH`: re-crawl the seeds (and re-read the whole folder) this often; never when absent. */
  refreshMs?: number;
  /** Watch the folder and index a changed file at once (default true). */
  watch?: boolean;
  /** Bytes of decoded postings kept in memory. */
  cacheBytes?: number;
  /** Search on a worker thread (default true where the compiled worker exists and no test clock is given). */
  searchThread?: boolean;
  /** Told about what a background refresh or folder change did. */
  onUpdate?: (report: UpdateReport) => void;
  /** Told when the search thread died, and whether another was started (else searches run in the provider's thread). */
  onSearchThread?: (report: SearchThreadReport) => void;
  /** `LOCAL_INDEX_PRELOAD`: read the index file once after boot into the system's page cache (see `PreloadMode`; default `auto`). */
  preload?: PreloadMode;
  /** Told when the preload ended (or failed: the index still answers, reading the file as it goes). */
  onPreload?: (report: PreloadReport | { error: string }) => void;
}

export interface SearchThreadReport {
  /** Why the thread ended, as its error or exit says. */
  error: string;
  /** Whether a new search thread was started in its place. */
  restarted: boolean;
  /** Threads started in its place within the last SEARCH_THREAD_WINDOW_MS, this one included. */
  restarts: number;
}

/** A search thread that dies is started again at most this many times within SEARCH_THREAD_WINDOW_MS; after that, searches stay in the provider's thread. */
export const SEARCH_THREAD_RESTARTS = 3;
export const SEARCH_THREAD_WINDOW_MS = 10 * 60_000;

export interface RefreshReport {
  documents: number;
  /** Pages (re)indexed from the seeds. */
  crawled: number;
  /** Pages a seed no longer links to, dropped. */
  removed: number;
  /** One line per seed that yielded nothing. */
  errors: string[];
}

export interface UpdateReport {
  /** A folder sync, a refresh of every seed, or the first crawl of seeds not yet in the index (at boot). */
  kind: 'folder' | 'refresh' | 'seeds';
  /** Pages added or replaced, and removed. */
  indexed: number;
  removed: number;
  errors: string[];
  ms: number;
}

/** Where the index's sources stood when it was last written. */
type SourcesMeta = {
  folder: string | null;
  /** Seeds whose pages are in the index. */
  seeds: string[];
};

const INDEX_FILE = 'local-index.db';
/** Files of the index formats before the SQLite store: removed when found. */
const LEGACY_FILES = ['local-documents.json', 'local-minisearch.json'];
// Seed sites crawled at once; each crawl is itself limited to a couple of requests in flight.
const SEED_CONCURRENCY = 4;

/** The repository's `corpus/` folder (from `libs/...` in sources or `dist/libs/...` when built). */
export const DEMO_CORPUS_DIR = (() => {
  let dir = __dirname;
  while (!fs.existsSync(path.join(dir, 'package.json')) && path.dirname(dir) !== dir) dir = path.dirname(dir);
  return path.join(dir, 'corpus');
})();

/**
 * The embedded search provider: a BM25 index (`LocalIndex`, one SQLite file under
 * `DATA_DIR/index/`) over a folder of pages and/or crawled seed sites. The folder is kept in step
 * file by file: a file added, edited or deleted is indexed (or dropped) within a second while
 * the folder is watched, and at boot only what changed since the last run is read again. Seeds
 * are crawled once and again every `refreshMs`. With neither a folder nor seeds, it serves the
 * shipped demo corpus.
 */
export class LocalSearchProvider implements SearchProvider {
  readonly name = 'local' as const;
  readonly capabilities: SearchCapabilities = {
    domainFilter: 'native',
    freshness: 'native',
    dateRange: 'native',
    category: 'native',
    country: 'none',
    language: 'native',
    pagination: true,
    fullText: true,
    dates: true,
  };

  private index: LocalIndex | undefined;
  private readonly folder: string | undefined;
  private readonly seeds: string[];
  /** Each seed as written -> where its crawl starts and the public origin of a mirror. */
  private readonly plans: Map<string, IndexSeed>;
  private readonly storeDir: string;
  private readonly extract: Extractor;
  private loading?: Promise<void>;
  /** Folder syncs and crawls run one at a time, in order. */
  private work: Promise<unknown> = Promise.resolve();
  private refreshing?: Promise<RefreshReport>;
  private crawledSeeds = new Set<string>();
  private watcher?: FolderWatcher;
  private searcher?: IndexSearcher | null;
  private timer?: NodeJS.Timeout;
  private closed = false;
  /** Stops the preload of the index file when the provider closes. */
  private readonly stopPreload = new AbortController();
  private preloading?: Promise<void>;
  /** When search threads were started in place of one that died (the last SEARCH_THREAD_WINDOW_MS). */
  private restarts: number[] = [];

  constructor(private readonly options: LocalSearchProviderOptions) {
    this.seeds = [...new Set(options.seeds ?? [])];
    if (this.seeds.length > 0 && !options.fetcher)
      throw new Error('LocalSearchProvider: seeds to crawl need a page fetcher');
    this.plans = new Map(
      this.seeds.map((seed) => {
        try {
          return [seed, parseIndexSeed(seed)] as const;
        } catch (error) {
          throw new Error(`LocalSearchProvider: LOCAL_INDEX_SEEDS ${(error as Error).message}`, { cause: error });
        }
      }),
    );
    this.folder = options.indexDir ?? (this.seeds.length === 0 ? DEMO_CORPUS_DIR : undefined);
    const name = options.indexName?.replace(/[^A-Za-z0-9._-]+/g, '-');
    this.storeDir = name ? path.join(options.dataDir, 'index', name) : path.join(options.dataDir, 'index');
    this.extract = options.extract ?? extractAny;
  }

  /** Where each team's own pages are kept (`TeamIndexes`), beside this copy of the shared index. */
  get teamDir(): string {
    return path.join(this.storeDir, 'teams');
  }

  /** Changes with every write to the index (a watched file, a refresh): cached answers from before are stale. */
  get generation(): number {
    return this.index?.generation ?? 0;
  }

  ready(): Promise<void> {
    this.loading ??= this.load();
    return this.loading;
  }

  async search(query: SearchQuery): Promise<SearchPage> {
    query.signal?.throwIfAborted();
    await this.ready().catch((err: unknown) => {
      throw new SearchProviderError(
        'local',
        `the index could not be built: ${err instanceof Error ? err.message : String(err)}`,
        false,
      );
    });
    // On the search thread when there is one; in this thread otherwise, or once it has died.
    // A search the thread was given when it died is answered here (a thread started in its place takes the next ones).
    const searcher = this.searcher;
    const page = searcher?.alive
      ? await searcher.search(query).catch((error: unknown) => {
          if (searcher.alive || this.closed) throw error;
          return this.index!.search(query);
        })
      : this.index!.search(query);
    if (this.index!.size === 0)
      page.warnings.push('the local index has no pages: set LOCAL_INDEX_DIR or LOCAL_INDEX_SEEDS');
    return page;
  }

  /** Starts the search thread over the index as it stands now; one that dies is started again (SEARCH_THREAD_RESTARTS). */
  private startSearchThread(index: LocalIndex): void {
    // The search thread reads the page table kept beside the index, as it stands now.
    index.keepPages();
    this.searcher = IndexSearcher.start(path.join(this.storeDir, INDEX_FILE), this.options.cacheBytes, (error) => {
      if (this.closed) return;
      const now = Date.now();
      this.restarts = this.restarts.filter((at) => now - at < SEARCH_THREAD_WINDOW_MS);
      const restarted = this.restarts.length < SEARCH_THREAD_RESTARTS;
      if (restarted) this.restarts.push(now);
      this.options.onSearchThread?.({ error: error.message, restarted, restarts: this.restarts.length });
      if (restarted) this.startSearchThread(index);
    });
    index.onChange = this.searcher ? (change) => this.searcher?.follow(change) : undefined;
  }

  /** Re-reads what changed in the folder and re-crawls every seed (bypassing the fetch cache); a re-crawled page replaces its old document. */
  refresh(): Promise<RefreshReport> {
    this.refreshing ??= this.ready()
      .then(() =>
        this.serial(async () => {
          await this.syncFolder();
          return this.crawlSeeds(this.seeds, true);
        }),
      )
      .finally(() => (this.refreshing = undefined));
    return this.refreshing;
  }

  /** Resolves once the index writes queued so far (a boot's catch-up, watched changes) are done. */
  async settled(): Promise<void> {
    await this.ready();
    await this.work;
  }

  stats(): { documents: number; folder: string | null; seeds: string[]; segments: number; file: string } {
    const stats = this.index?.stats();
    return {
      documents: stats?.documents ?? 0,
      folder: this.folder ?? null,
      seeds: [...this.crawledSeeds],
      segments: stats?.segments ?? 0,
      file: path.join(this.storeDir, INDEX_FILE),
    };
  }

  async close(): Promise<void> {
    this.closed = true;
    this.stopPreload.abort();
    this.watcher?.close();
    if (this.timer) clearInterval(this.timer);
    // Let a build, sync or refresh finish its write: the store must not be torn by a shutdown.
    await Promise.allSettled([this.loading, this.refreshing, this.work, this.preloading]);
    await this.searcher?.close();
    this.index?.close();
  }

  private async load(): Promise<void> {
    fs.mkdirSync(this.storeDir, { recursive: true });
    for (const legacy of LEGACY_FILES) fs.rmSync(path.join(this.storeDir, legacy), { force: true });
    const index = (this.index = new LocalIndex({
      file: path.join(this.storeDir, INDEX_FILE),
      now: this.options.now,
      cacheBytes: this.options.cacheBytes,
    }));
    recordFiles(index);
    const meta = index.meta<SourcesMeta>('sources');
    const stored = !!meta && (meta.folder ?? null) === (this.folder ?? null);
    if (!stored) {
      // A new index, or another folder (its files are not the ones recorded): read it before answering.
      this.removeWhere(FOLDER_SOURCE);
      forgetFiles(index);
      await this.syncFolder();
    }
    this.crawledSeeds = new Set((meta?.seeds ?? []).filter((seed) => this.seeds.includes(seed)));
    let dropped = 0;
    for (const source of index.sources())
      if (source !== FOLDER_SOURCE && !this.seeds.includes(source)) dropped += this.removeWhere(source);
    // A page two seeds shared (a www. twin) is recorded under one of them: when a seed goes, the
    // remaining ones are crawled again so none of their pages goes with it.
    const missing = dropped > 0 ? this.seeds : this.seeds.filter((seed) => !this.crawledSeeds.has(seed));
    if (missing.length > 0) {
      const started = performance.now();
      const report = await this.crawlSeeds(missing, false);
      this.options.onUpdate?.({
        kind: 'seeds',
        indexed: report.crawled,
        removed: report.removed,
        errors: report.errors,
        ms: Math.round(performance.now() - started),
      });
    }
    this.saveMeta();
    if (this.closed) return;
    // Searches run on a thread of their own, which follows every write made here from now on. A
    // test clock cannot cross threads: with one, searches stay here.
    if (this.options.searchThread !== false && !this.options.now) {
      this.startSearchThread(index);
    }
    // In the background: the index answers meanwhile, reading from disk what is not read yet.
    this.preloading = preloadFile(
      path.join(this.storeDir, INDEX_FILE),
      this.options.preload ?? 'auto',
      this.stopPreload.signal,
    ).then(
      (report) => {
        if (report) this.options.onPreload?.(report);
      },
      (error: unknown) => {
        this.options.onPreload?.({ error: error instanceof Error ? error.message : String(error) });
      },
    );
    // Every folder is watched before the catch-up below lists the tree, so a change made meanwhile
    // is seen by one or the other.
    let watching = Promise.resolve();
    if (this.folder && this.options.watch !== false) {
      this.watcher = new FolderWatcher(this.folder, (changed) => this.onFolderChange(changed));
      watching = this.watcher.start();
    }
    // The stored index answers at once, while the tree is being watched (at a million pages,
    // listing its folders took longer than opening the index); what changed in the folder while the
    // service was down is read in the background after that, as a watched change would be.
    if (stored) this.onFolderChange('all', watching);
    else await watching;
    if (this.options.refreshMs) {
      this.timer = setInterval(() => {
        const started = performance.now();
        this.refresh().then(
          (report) =>
            this.options.onUpdate?.({
              kind: 'refresh',
              indexed: report.crawled,
              removed: report.removed,
              errors: report.errors,
              ms: Math.round(performance.now() - started),
            }),
          (error: unknown) =>
            this.options.onUpdate?.({
              kind: 'refresh',
              indexed: 0,
              removed: 0,
              errors: [String(error)],
              ms: Math.round(performance.now() - started),
            }),
        );
      }, this.options.refreshMs);
      this.timer.unref();
    }
  }

  /** Runs index writers one after another (a watch event during a crawl waits for it). */
  private serial<T>(task: () => Promise<T>): Promise<T> {
    const run = this.work.then(task, task);
    this.work = run.catch(() => undefined);
    return run;
  }

  private syncFolder(only?: string[]): Promise<{ indexed: number; removed: number }> {
    if (!this.folder) return Promise.resolve({ indexed: 0, removed: 0 });
    return syncFolder(
      this.index!,
      {
        folder: this.folder,
        required: !!this.options.indexDir,
        extract: this.extract,
        poolExtract: this.options.extract,
      },
      only,
    );
  }

  /** Reads what changed into the index, in turn with the other writes (and once `after` settles). */
  private onFolderChange(changed: string[] | 'all', after?: Promise<void>): void {
    if (this.closed || !this.index) return;
    const started = performance.now();
    this.serial(async () => {
      await after;
      if (this.closed) return { indexed: 0, removed: 0 };
      return this.syncFolder(changed === 'all' ? undefined : changed);
    }).then(
      (result) =>
        this.options.onUpdate?.({ kind: 'folder', ...result, errors: [], ms: Math.round(performance.now() - started) }),
      (error: unknown) =>
        this.options.onUpdate?.({
          kind: 'folder',
          indexed: 0,
          removed: 0,
          errors: [String(error)],
          ms: Math.round(performance.now() - started),
        }),
    );
  }

  private async crawlSeeds(seeds: string[], refresh: boolean): Promise<RefreshReport> {
    const report: RefreshReport = { documents: 0, crawled: 0, removed: 0, errors: [] };
    const crawler = new Crawler(this.options.fetcher!, { ...this.options.crawl, ...(refresh ? { maxAgeMs: 0 } : {}) });
    const queue = [...seeds];
    const index = this.index!;
    const worker = async () => {
      for (let seed = queue.shift(); seed !== undefined; seed = queue.shift()) {
        if (this.closed) return;
        const { fetchUrl, publicOrigin } = this.plans.get(seed)!;
        const result: Omit<CrawlResult, 'seed'> = await crawler
          .crawl(fetchUrl)
          .catch((err: unknown) => ({ pages: [], skipped: [{ url: seed!, reason: String(err) }] }));
        // A page is where it was fetched from (after redirects), or for a mirror seed the public
        // address the operator says it stands for; its canonical counts only on that same site.
        const address = (finalUrl: string) => (publicOrigin ? mirroredUrl(finalUrl, fetchUrl, publicOrigin) : finalUrl);
        const docs = await this.toDocuments(
          result.pages.map((page) => ({
            url: address(page.finalUrl),
            body: page.body,
            contentType: page.contentType,
            ...(page.encoding && { encoding: page.encoding }),
            source: seed!,
            canonical: 'same-site',
          })),
          report.errors,
        );
        if (docs.length === 0) {
          // A seed that is down keeps what it had: better stale pages than none.
          report.errors.push(`seed ${seed} yielded no pages (${result.skipped[0]?.reason ?? 'no links'})`);
          continue;
        }
        const fresh = new Set(docs.map((doc) => doc.url));
        const stale = index.urlsOf(seed!).filter((url) => !fresh.has(url));
        // The seed's new pages and the removal of those it no longer links to land together.
        index.apply(docs, stale);
        report.removed += stale.length;
        report.crawled += docs.length;
        this.crawledSeeds.add(seed!);
      }
    };
    await Promise.all(Array.from({ length: Math.min(SEED_CONCURRENCY, seeds.length) }, worker));
    this.saveMeta();
    report.documents = index.size;
    return report;
  }

  /**
   * The pages' documents. A page whose reading fails (a PDF's thread past its deadline on a busy
   * machine, say) is tried once more, then left out with the reason in the report's errors: a
   * seed is crawled once per refresh, so a page dropped without a word would stay out of the index.
   */
  private async toDocuments(pages: RawPage[], errors: string[]): Promise<IndexedDocument[]> {
    const docs: IndexedDocument[] = [];
    const extract = this.options.extractCrawled ?? this.extract;
    for (const page of pages) {
      const doc = await toIndexedDocument(page, extract)
        .catch(() => toIndexedDocument(page, extract))
        .catch((error: unknown) => {
          errors.push(`${page.url} not indexed: ${error instanceof Error ? error.message : String(error)}`);
          return null;
        });
      if (doc) docs.push(doc);
    }
    return docs;
  }

  private removeWhere(source: string): number {
    const urls = this.index!.urlsOf(source);
    if (urls.length > 0) this.index!.apply([], urls);
    return urls.length;
  }

  private saveMeta(): void {
    if (!this.index?.db.open) return;
    const meta: SourcesMeta = { folder: this.folder ?? null, seeds: [...this.crawledSeeds] };
    this.index.setMeta('sources', meta);
  }
}
