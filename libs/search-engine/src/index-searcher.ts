import * as fs from 'node:fs';
import * as path from 'node:path';
import { Worker } from 'node:worker_threads';
import type { SearchPage, SearchQuery } from '@app/providers';
import type { IndexChange } from './index-change';

/** The compiled worker script next to this file (absent when running from TypeScript sources, e.g. under jest). */
const WORKER_SCRIPT = path.join(__dirname, 'index-search-worker.js');

type Reply = { id: number; page?: SearchPage; error?: string };

/**
 * Searches the index on a thread of its own, so the process's main thread keeps serving HTTP
 * while a query is scored: the worker opens the index file read-only and follows every write the
 * main thread makes (`follow`, in order, so a search sent after a write sees it).
 */
/** The search thread's young generation (V8's default is 32 MB of semi-spaces on 64-bit). */
const SEARCH_YOUNG_GENERATION_MB = 8;

export class IndexSearcher {
  private readonly pending = new Map<number, { resolve: (page: SearchPage) => void; reject: (error: Error) => void }>();
  private next = 0;
  private failed: Error | null = null;
  private closing = false;

  private constructor(
    private readonly worker: Worker,
    onLost?: (error: Error) => void,
  ) {
    worker.unref();
    worker.on('message', (reply: Reply) => {
      const waiting = this.pending.get(reply.id);
      if (!waiting) return;
      this.pending.delete(reply.id);
      if (reply.page) waiting.resolve(reply.page);
      else waiting.reject(new Error(reply.error ?? 'the index worker failed'));
    });
    const fail = (error: Error) => {
      this.failed = error;
      for (const waiting of this.pending.values()) waiting.reject(error);
      this.pending.clear();
    };
    worker.on('error', fail);
    // Once the thread is gone (an error is followed by its exit), the owner hears it once, unless it closed it.
    worker.on('exit', (code) => {
      const error = this.failed ?? new Error(`the index worker exited (${code})`);
      fail(error);
      if (!this.closing) onLost?.(error);
    });
  }

  /**
   * A searcher over `file`, or null where there is no compiled worker script (the caller searches
   * in-thread). `onLost` is called once if the thread dies (not when closed).
   */
  static start(file: string, cacheBytes?: number, onLost?: (error: Error) => void): IndexSearcher | null {
    if (!fs.existsSync(WORKER_SCRIPT)) return null;
    // What a search allocates dies with it: a small young generation is collected as often at
    // little cost, and keeps 24 MB of the default's semi-spaces out of the process.
    return new IndexSearcher(
      new Worker(WORKER_SCRIPT, {
        workerData: { file, cacheBytes },
        resourceLimits: { maxYoungGenerationSizeMb: SEARCH_YOUNG_GENERATION_MB },
      }),
      onLost,
    );
  }

  /** Whether the worker still answers (after a crash, the caller searches in-thread). */
  get alive(): boolean {
    return this.failed === null;
  }

  follow(change: IndexChange): void {
    if (this.alive) this.worker.postMessage({ kind: 'change', change });
  }

  search(query: SearchQuery): Promise<SearchPage> {
    if (this.failed) return Promise.reject(this.failed);
    const id = ++this.next;
    // An AbortSignal does not cross threads; the caller checked it already.
    const { signal: _signal, ...plain } = query;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.worker.postMessage({ kind: 'search', id, query: plain });
    });
  }

  async close(): Promise<void> {
    this.closing = true;
    this.failed ??= new Error('the index worker is closed');
    await this.worker.terminate();
  }
}
