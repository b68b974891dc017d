import { createHash, randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { LRUCache } from 'lru-cache';
import type { FetchedPage } from './fetcher.port';

export type CachedPage = Omit<FetchedPage, 'fromCache'>;

export interface PageCacheOptions {
  /** Pages kept in memory. */
  entries?: number;
  /** Memory bound in body characters, so 500 near-5 MiB pages cannot pin gigabytes. */
  maxChars?: number;
  /** One JSON file per URL here, surviving restarts; memory only when absent. */
  dir?: string;
  /** Bytes the files in `dir` may take; past it the oldest written go first (default 512 MiB). */
  maxDiskBytes?: number;
  now?: () => number;
}

/** Once over its bound, the folder is trimmed to this share of it, so trims are rare. */
const TRIM_TO = 0.8;
/** A temporary file older than this was left by a crash mid-write. */
const STALE_TMP_MS = 60_000;

/**
 * Pages by normalised URL, in an LRU in memory and optionally on disk. Freshness is decided by
 * the reader (`maxAgeMs` of the request), not at write time: one stored copy serves a crawler
 * that accepts a day-old page and refuses a user who wants it from the last minute.
 */
export class PageCache {
  private readonly memory: LRUCache<string, CachedPage>;
  private readonly dir?: string;
  private readonly now: () => number;
  private readonly maxDiskBytes: number;
  private dirReady?: Promise<unknown>;
  /** Bytes in `dir` as this process last counted them (other processes may share the folder). */
  private diskBytes?: number;
  private trimming?: Promise<void>;

  constructor(opts: PageCacheOptions = {}) {
    this.memory = new LRUCache<string, CachedPage>({
      max: opts.entries ?? 500,
      maxSize: opts.maxChars ?? 64 * 1024 * 1024,
      sizeCalculation: (page) => page.body.length + 1,
    });
    this.dir = opts.dir;
    this.now = opts.now ?? Date.now;
    this.maxDiskBytes = opts.maxDiskBytes ?? 512 * 1024 * 1024;
  }

  /** A copy fetched less than `maxAgeMs` ago, or undefined. */
  async get(url: string, maxAgeMs: number): Promise<CachedPage | undefined> {
    if (maxAgeMs <= 0) return undefined;
    let page = this.memory.get(url);
    if (!page && this.dir) {
      page = await this.readDisk(url);
      if (page) this.memory.set(url, page);
    }
    return page && this.now() - Date.parse(page.fetchedAt) < maxAgeMs ? page : undefined;
  }

  async set(page: CachedPage): Promise<void> {
    this.memory.set(page.url, page);
    if (!this.dir) return;
    this.dirReady ??= fs.mkdir(this.dir, { recursive: true });
    await this.dirReady;
    const file = this.file(page.url);
    // Write-then-rename: a reader (or a crash) never sees half a file.
    const tmp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
    const json = JSON.stringify(page);
    await fs.writeFile(tmp, json);
    await fs.rename(tmp, file);
    // The folder lives beside the event log: it never grows past its bound.
    this.diskBytes = (this.diskBytes ?? (await this.measure())) + Buffer.byteLength(json);
    if (this.diskBytes > this.maxDiskBytes)
      await (this.trimming ??= this.trim().finally(() => (this.trimming = undefined)));
  }

  /** Bytes the folder holds now. */
  async measure(): Promise<number> {
    return (await this.listDisk()).reduce((sum, f) => sum + f.size, 0);
  }

  /** Deletes the oldest written pages (and crash leftovers) until the folder holds TRIM_TO of its bound. */
  private async trim(): Promise<void> {
    const files = (await this.listDisk()).sort((a, b) => a.mtimeMs - b.mtimeMs);
    let total = files.reduce((sum, f) => sum + f.size, 0);
    const target = this.maxDiskBytes * TRIM_TO;
    for (const f of files) {
      const staleTmp = f.name.endsWith('.tmp') && this.now() - f.mtimeMs > STALE_TMP_MS;
      if (total <= target && !staleTmp) continue;
      if (f.name.endsWith('.tmp') && !staleTmp) continue;
      await fs.rm(path.join(this.dir!, f.name), { force: true });
      total -= f.size;
    }
    this.diskBytes = total;
  }

  private async listDisk(): Promise<Array<{ name: string; size: number; mtimeMs: number }>> {
    let names: string[];
    try {
      names = await fs.readdir(this.dir!);
    } catch {
      return [];
    }
    const out: Array<{ name: string; size: number; mtimeMs: number }> = [];
    for (const name of names) {
      try {
        const stat = await fs.stat(path.join(this.dir!, name));
        if (stat.isFile()) out.push({ name, size: stat.size, mtimeMs: stat.mtimeMs });
      } catch {
        // Deleted meanwhile (another process trimming).
      }
    }
    return out;
  }

  clearMemory(): void {
    this.memory.clear();
  }

  private file(url: string): string {
    return path.join(this.dir!, `${createHash('sha256').update(url).digest('hex')}.json`);
  }

  private async readDisk(url: string): Promise<CachedPage | undefined> {
    try {
      const page = JSON.parse(await fs.readFile(this.file(url), 'utf8')) as CachedPage;
      // A damaged file or a foreign one is a miss, not an error.
      return page && page.url === url && typeof page.body === 'string' && typeof page.fetchedAt === 'string'
        ? page
        : undefined;
    } catch {
      return undefined;
    }
  }
}

/**
 * Concurrent callers of the same key share one run. Each caller may abort on its own; the shared
 * run is aborted only when every caller waiting on it has gone.
 */
export class SingleFlight<T> {
  private readonly flights = new Map<string, { promise: Promise<T>; controller: AbortController; waiters: number }>();

  run(key: string, work: (signal: AbortSignal) => Promise<T>, signal?: AbortSignal): Promise<T> {
    signal?.throwIfAborted();
    let f = this.flights.get(key);
    // A run whose callers all left is being torn down; a newcomer starts afresh.
    if (!f || f.controller.signal.aborted) {
      const controller = new AbortController();
      const fresh = { controller, waiters: 0 } as { promise: Promise<T>; controller: AbortController; waiters: number };
      fresh.promise = work(controller.signal).finally(() => {
        if (this.flights.get(key) === fresh) this.flights.delete(key);
      });
      this.flights.set(key, fresh);
      f = fresh;
    }
    const flight = f;
    flight.waiters++;
    if (!signal) return flight.promise;
    return new Promise<T>((resolve, reject) => {
      const onAbort = () => {
        if (--flight.waiters === 0) flight.controller.abort(signal.reason);
        reject(signal.reason);
      };
      signal.addEventListener('abort', onAbort, { once: true });
      flight.promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
    });
  }

  get size(): number {
    return this.flights.size;
  }
}
