import * as fs from 'node:fs';
import * as path from 'node:path';
import { type IndexSeed, parseIndexSeed } from '@app/config';
import { extractDocument } from '@app/extraction';
import type { PageFetcher } from '../../fetch/fetcher.port';
import { type SearchCapabilities, type SearchPage, type SearchProvider, SearchProviderError, type SearchQuery } from '../search-provider.port';
import { Crawler, type CrawlOptions, type CrawlResult } from './crawler';
import { folderFingerprint, readFolder } from './folder-source';
import { type IndexedDocument, LocalIndex } from './local-index';
import { type Extractor, type RawPage, toIndexedDocument } from './to-document';
import { mirroredUrl } from './urls';

export interface LocalSearchProviderOptions {
  /** The index is kept under `<dataDir>/index/`. */
  dataDir: string;
  /** `LOCAL_INDEX_DIR`: a folder of `.html`/`.md` pages. */
  indexDir?: string;
  /** `LOCAL_INDEX_SEEDS`: sites to crawl (needs `fetcher`), each a URL or `PUBLIC_ORIGIN=FETCH_URL` (see `parseIndexSeed`). */
  seeds?: string[];
  fetcher?: PageFetcher;
  now?: () => Date;
  /** Defaults to `extractDocument` from `@app/extraction`. */
  extract?: Extractor;
  crawl?: CrawlOptions;
}

export interface RefreshReport {
  documents: number;
  /** Pages (re)indexed from the seeds. */
  crawled: number;
  /** Pages a seed no longer links to, dropped. */
  removed: number;
  /** One line per seed that yielded nothing. */
  errors: string[];
}

type StoredMeta = {
  folder: string | null;
  folderKey: string | null;
  /** Seeds whose pages are in the index. */
  seeds: string[];
};

const FOLDER_SOURCE = 'folder';
// Seed sites crawled at once; each crawl is itself limited to a couple of requests in flight.
const SEED_CONCURRENCY = 4;

/** The repository's `corpus/` folder (from `libs/...` in sources or `dist/libs/...` when built). */
export const DEMO_CORPUS_DIR = (() => {
  let dir = __dirname;
  while (!fs.existsSync(path.join(dir, 'package.json')) && path.dirname(dir) !== dir) dir = path.dirname(dir);
  return path.join(dir, 'corpus');
})();

/**
 * The embedded search provider: a BM25 index over a folder of pages and/or crawled seed sites,
 * persisted under `DATA_DIR/index/` and reloaded at boot unless its sources changed. With neither
 * a folder nor seeds, it serves the shipped demo corpus.
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

  private index: LocalIndex;
  private readonly folder: string | undefined;
  private readonly seeds: string[];
  /** Each seed as written -> where its crawl starts and the public origin of a mirror. */
  private readonly plans: Map<string, IndexSeed>;
  private readonly storeDir: string;
  private readonly extract: Extractor;
  private loading?: Promise<void>;
  private refreshing?: Promise<RefreshReport>;
  private crawledSeeds = new Set<string>();
  /** Fingerprint of the folder as last read into the index. */
  private folderKey: string | null = null;

  constructor(private readonly options: LocalSearchProviderOptions) {
    this.seeds = [...new Set(options.seeds ?? [])];
    if (this.seeds.length > 0 && !options.fetcher) throw new Error('LocalSearchProvider: seeds to crawl need a page fetcher');
    this.plans = new Map(
      this.seeds.map((seed) => {
        try {
          return [seed, parseIndexSeed(seed)] as const;
        } catch (error) {
          throw new Error(`LocalSearchProvider: LOCAL_INDEX_SEEDS ${(error as Error).message}`);
        }
      }),
    );
    this.folder = options.indexDir ?? (this.seeds.length === 0 ? DEMO_CORPUS_DIR : undefined);
    this.storeDir = path.join(options.dataDir, 'index');
    this.extract = options.extract ?? extractDocument;
    this.index = new LocalIndex({ now: options.now });
  }

  ready(): Promise<void> {
    this.loading ??= this.load();
    return this.loading;
  }

  async search(query: SearchQuery): Promise<SearchPage> {
    query.signal?.throwIfAborted();
    await this.ready().catch((err: unknown) => {
      throw new SearchProviderError('local', `the index could not be built: ${err instanceof Error ? err.message : String(err)}`, false);
    });
    const page = this.index.search(query);
    if (this.index.size === 0) page.warnings.push('the local index has no pages: set LOCAL_INDEX_DIR or LOCAL_INDEX_SEEDS');
    return page;
  }

  /** Re-reads the folder if it changed and re-crawls every seed (bypassing the fetch cache); a re-crawled page replaces its old document. */
  refresh(): Promise<RefreshReport> {
    this.refreshing ??= this.ready()
      .then(async () => {
        if ((await this.currentFolderKey()) !== this.folderKey) await this.reindexFolder();
        return this.crawlSeeds(this.seeds, true);
      })
      .finally(() => (this.refreshing = undefined));
    return this.refreshing;
  }

  stats(): { documents: number; folder: string | null; seeds: string[] } {
    return { documents: this.index.size, folder: this.folder ?? null, seeds: [...this.crawledSeeds] };
  }

  async close(): Promise<void> {
    // Let a build or refresh finish its write: the store must not be torn by a shutdown.
    await Promise.allSettled([this.loading, this.refreshing]);
  }

  private async load(): Promise<void> {
    const stored = await LocalIndex.load(this.storeDir, { now: this.options.now });
    const meta = stored?.meta as StoredMeta | undefined;
    if (stored) this.index = stored.index;
    this.folderKey = meta?.folderKey ?? null;
    let changed = !stored;
    if (!stored || meta?.folder !== (this.folder ?? null) || meta?.folderKey !== (await this.currentFolderKey())) {
      await this.reindexFolder();
      changed = true;
    }
    this.crawledSeeds = new Set((meta?.seeds ?? []).filter((seed) => this.seeds.includes(seed)));
    const dropped = this.removeWhere((doc) => doc.source !== FOLDER_SOURCE && !this.seeds.includes(doc.source));
    // A page two seeds shared (a www. twin) is recorded under one of them: when a seed goes, the
    // remaining ones are crawled again so none of their pages goes with it.
    const missing = dropped > 0 ? this.seeds : this.seeds.filter((seed) => !this.crawledSeeds.has(seed));
    if (missing.length > 0) await this.crawlSeeds(missing, false);
    else if (changed || dropped > 0) await this.save();
  }

  private async currentFolderKey(): Promise<string | null> {
    if (!this.folder) return null;
    if (!fs.existsSync(this.folder)) {
      // The demo corpus may be absent from a slim image; a folder the operator named must exist.
      if (this.options.indexDir) throw new Error(`LOCAL_INDEX_DIR ${this.folder} does not exist`);
      return null;
    }
    return folderFingerprint(this.folder);
  }

  private async reindexFolder(): Promise<void> {
    // Fingerprinted before reading: an edit made meanwhile makes the next boot read it again.
    const key = await this.currentFolderKey();
    const pages = this.folder && fs.existsSync(this.folder) ? await readFolder(this.folder, FOLDER_SOURCE) : [];
    const docs = await this.toDocuments(pages);
    // Swapped in one synchronous step: a search never sees the folder half indexed.
    this.removeWhere((doc) => doc.source === FOLDER_SOURCE);
    for (const doc of docs) this.index.upsert(doc);
    this.folderKey = key;
  }

  private async crawlSeeds(seeds: string[], refresh: boolean): Promise<RefreshReport> {
    const report: RefreshReport = { documents: 0, crawled: 0, removed: 0, errors: [] };
    const crawler = new Crawler(this.options.fetcher!, { ...this.options.crawl, ...(refresh ? { maxAgeMs: 0 } : {}) });
    const queue = [...seeds];
    const worker = async () => {
      for (let seed = queue.shift(); seed !== undefined; seed = queue.shift()) {
        const { fetchUrl, publicOrigin } = this.plans.get(seed)!;
        const result: Omit<CrawlResult, 'seed'> = await crawler
          .crawl(fetchUrl)
          .catch((err: unknown) => ({ pages: [], skipped: [{ url: seed!, reason: String(err) }] }));
        // A page is where it was fetched from (after redirects), or for a mirror seed the public
        // address the operator says it stands for; its canonical counts only on that same site.
        const address = (finalUrl: string) => (publicOrigin ? mirroredUrl(finalUrl, fetchUrl, publicOrigin) : finalUrl);
        const docs = await this.toDocuments(
          result.pages.map((page) => ({ url: address(page.finalUrl), body: page.body, contentType: page.contentType, source: seed!, canonical: 'same-site' })),
        );
        if (docs.length === 0) {
          // A seed that is down keeps what it had: better stale pages than none.
          report.errors.push(`seed ${seed} yielded no pages (${result.skipped[0]?.reason ?? 'no links'})`);
          continue;
        }
        const fresh = new Set(docs.map((doc) => doc.url));
        report.removed += this.removeWhere((doc) => doc.source === seed && !fresh.has(doc.url));
        for (const doc of docs) this.index.upsert(doc);
        report.crawled += docs.length;
        this.crawledSeeds.add(seed!);
      }
    };
    await Promise.all(Array.from({ length: Math.min(SEED_CONCURRENCY, seeds.length) }, worker));
    await this.save();
    report.documents = this.index.size;
    return report;
  }

  private async toDocuments(pages: RawPage[]): Promise<IndexedDocument[]> {
    const docs: IndexedDocument[] = [];
    for (const page of pages) {
      const doc = await toIndexedDocument(page, this.extract).catch(() => null);
      if (doc) docs.push(doc);
    }
    return docs;
  }

  private removeWhere(predicate: (doc: IndexedDocument) => boolean): number {
    const doomed = this.index.documents().filter(predicate);
    for (const doc of doomed) this.index.remove(doc.url);
    return doomed.length;
  }

  private save(): Promise<void> {
    const meta: StoredMeta = { folder: this.folder ?? null, folderKey: this.folderKey, seeds: [...this.crawledSeeds] };
    return this.index.save(this.storeDir, meta);
  }
}
