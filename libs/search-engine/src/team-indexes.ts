import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { SearchHit, SearchPage, SearchQuery } from '@app/providers';
import type { IndexedDocument } from './document';
import { LocalIndex } from './local-index';
import { type Extractor, toIndexedDocument } from './to-document';

/** A page a team's crawl indexed, as its index event names it: the text itself is kept elsewhere (the log). */
export interface TeamPageRef {
  crawlId: string;
  /** Where the crawl read it (after redirects). */
  url: string;
  /** Where its text is kept (the crawl stream's revision of the page). */
  pageRevision: string;
  contentType: string;
}

/** A referenced page's text, as the crawl recorded it (content capped there). */
export interface TeamPageText {
  url: string;
  title: string | null;
  content: string;
  contentType: string;
}

export interface TeamIndexesOptions {
  /** One SQLite file per team with pages is kept here. */
  dir: string;
  /** Reads a referenced page (null when it cannot be read: it is then left out). */
  read: (ref: TeamPageRef) => Promise<TeamPageText | null>;
  extract: Extractor;
  now?: () => Date;
  /** Bytes of decoded postings each team's index keeps in memory. */
  cacheBytes?: number;
}

/** The team's index file is named by a hash of the team id: any id is a safe file name, and none reads as another. */
const fileOf = (dir: string, team: string) =>
  path.join(dir, `${createHash('sha256').update(team).digest('hex').slice(0, 40)}.db`);
const sourceOf = (crawlId: string) => `crawl:${crawlId}`;
/** Meta key: the last revision of the team's stream applied (decimal). */
const APPLIED = 'team_pages_applied';
const DEFAULT_CACHE_BYTES = 8 * 1024 * 1024;

/**
 * Each team's own pages, beside the shared index: one `LocalIndex` per team, written only from the
 * team's index events (in the order of its stream) and searched only for that team. The shared
 * corpus is never written, so its ranking is the same for every team; a team's pages are merged
 * into its answers by score (`merge`).
 *
 * Every crawl's claim on a page is kept (`team_page_refs`): the page shows the latest claim, and
 * when a crawl is removed a page another crawl of the team also indexed falls back to that one.
 * The last applied revision commits with each write, so a boot resumes after it and a replay
 * changes nothing.
 */
export class TeamIndexes {
  private readonly open = new Map<string, LocalIndex>();
  /**
   * Teams whose index file was looked for and is not there. Only this instance creates files in
   * its folder (`get(team, true)`), so a search for a team without pages (most of them) costs
   * neither a hash nor a file system call.
   */
  private readonly absent = new Set<string>();

  constructor(private readonly options: TeamIndexesOptions) {}

  /** The last revision of the team's stream this copy applied (-1 when none). */
  applied(team: string): bigint {
    const index = this.get(team, false);
    const value = index?.meta<string>(APPLIED);
    return value === undefined ? -1n : BigInt(value);
  }

  /** Pages the team holds here. */
  size(team: string): number {
    return this.get(team, false)?.size ?? 0;
  }

  /** Changes with every write to the team's index (cached answers from before are stale). */
  generation(team: string): number {
    return this.get(team, false)?.generation ?? 0;
  }

  /** Applies `TeamPageIndexed` at `revision`: the page joins the team's index (the latest claim on a URL wins). */
  async index(team: string, revision: bigint, ref: TeamPageRef): Promise<void> {
    if (revision <= this.applied(team)) return;
    const doc = await this.document(ref);
    const index = this.get(team, true)!;
    index.apply(doc ? [doc] : [], [], () => {
      index.db
        .prepare(
          'INSERT INTO team_page_refs (crawl_id, url, seq, page_revision, content_type, doc_url) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (crawl_id, url) DO UPDATE SET seq = excluded.seq, page_revision = excluded.page_revision, content_type = excluded.content_type, doc_url = excluded.doc_url',
        )
        .run(ref.crawlId, ref.url, Number(revision), ref.pageRevision, ref.contentType, doc?.url ?? null);
      index.setMeta(APPLIED, String(revision));
    });
  }

  /** Applies `TeamCrawlPagesRemoved` at `revision`: the crawl's pages leave the team's index. How many left it. */
  async removeCrawl(team: string, revision: bigint, crawlId: string): Promise<number> {
    if (revision <= this.applied(team)) return 0;
    const index = this.get(team, true)!;
    const shown = index.urlsOf(sourceOf(crawlId));
    // A page another crawl of the team also indexed stays, as that crawl read it.
    const fallbacks: IndexedDocument[] = [];
    const removals: string[] = [];
    for (const url of shown) {
      const other = index.db
        .prepare(
          'SELECT crawl_id, url, page_revision, content_type FROM team_page_refs WHERE doc_url = ? AND crawl_id <> ? ORDER BY seq DESC LIMIT 1',
        )
        .get(url, crawlId) as
        { crawl_id: string; url: string; page_revision: string; content_type: string } | undefined;
      const doc = other
        ? await this.document({
            crawlId: other.crawl_id,
            url: other.url,
            pageRevision: other.page_revision,
            contentType: other.content_type,
          })
        : null;
      if (doc && doc.url === url) fallbacks.push(doc);
      else removals.push(url);
    }
    index.apply(fallbacks, removals, () => {
      index.db.prepare('DELETE FROM team_page_refs WHERE crawl_id = ?').run(crawlId);
      index.setMeta(APPLIED, String(revision));
    });
    return removals.length;
  }

  /** The team's own hits for the query, or undefined when it holds no pages. */
  search(team: string, query: SearchQuery): SearchPage | undefined {
    const index = this.get(team, false);
    if (!index || index.size === 0) return undefined;
    return index.search(query);
  }

  close(): void {
    for (const index of this.open.values()) index.close();
    this.open.clear();
  }

  private async document(ref: TeamPageRef): Promise<IndexedDocument | null> {
    const page = await this.options.read(ref).catch(() => null);
    if (!page || !page.content.trim()) return null;
    return toIndexedDocument(
      {
        url: page.url,
        body: page.content,
        contentType: page.contentType,
        source: sourceOf(ref.crawlId),
        ...(page.title && { overrides: { title: page.title } }),
      },
      this.options.extract,
    ).catch(() => null);
  }

  private get(team: string, create: boolean): LocalIndex | undefined {
    const known = this.open.get(team);
    if (known) return known;
    if (!create && this.absent.has(team)) return undefined;
    const file = fileOf(this.options.dir, team);
    if (!create && !fs.existsSync(file)) {
      this.absent.add(team);
      return undefined;
    }
    this.absent.delete(team);
    const index = new LocalIndex({
      file,
      now: this.options.now,
      cacheBytes: this.options.cacheBytes ?? DEFAULT_CACHE_BYTES,
    });
    index.db.exec(
      'CREATE TABLE IF NOT EXISTS team_page_refs (crawl_id TEXT NOT NULL, url TEXT NOT NULL, seq INTEGER NOT NULL, page_revision TEXT NOT NULL, content_type TEXT NOT NULL, doc_url TEXT, PRIMARY KEY (crawl_id, url)); CREATE INDEX IF NOT EXISTS team_page_refs_doc ON team_page_refs (doc_url)',
    );
    this.open.set(team, index);
    return index;
  }
}

/**
 * One page of results from the shared index and a team's own, merged by score: the shared hits
 * keep their order among themselves, the team's are placed by their score, and a URL both hold is
 * shown once (where it ranks first). `page` of the merge is cut from the first `page * limit` of each.
 */
export function mergePages(shared: SearchPage, own: SearchPage, page: number, limit: number): SearchPage {
  const seen = new Set<string>();
  const merged: SearchHit[] = [];
  const take = (hit: SearchHit) => {
    if (seen.has(hit.url)) return;
    seen.add(hit.url);
    merged.push(hit);
  };
  // Two ranked lists merged (not re-sorted): each keeps its own order.
  let a = 0;
  let b = 0;
  while (a < shared.hits.length || b < own.hits.length) {
    const next =
      b >= own.hits.length || (a < shared.hits.length && shared.hits[a]!.score >= own.hits[b]!.score)
        ? shared.hits[a++]!
        : own.hits[b++]!;
    take(next);
  }
  const start = (page - 1) * limit;
  return {
    hits: merged.slice(start, start + limit),
    page,
    hasMore: merged.length > start + limit || shared.hasMore || own.hasMore,
    warnings: shared.warnings,
  };
}
