import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Worker } from 'node:worker_threads';
import { DocumentUnreadable } from './documents/document-error';
import { isBinaryDocument } from './documents/extract-any';
import type { ExtractedDocument, ExtractOptions } from './extraction.port';
import type { PageLinks } from './html/links';
import type { Sitemap } from './sitemap';
import {
  overdueMessage,
  type Renderings,
  type RobotsVerdict,
  runTask,
  type ThreadResults,
  type ThreadTask,
} from './thread-tasks';

/** A page given up: it took longer than the deadline, or more memory than a thread may hold. */
export class ExtractionAbandoned extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ExtractionAbandoned';
  }
}

export interface ExtractionWorkersOptions {
  /** Threads (default: one per core, at most 4). */
  size?: number;
  /** How long one page may take once a thread has it (ms). */
  timeoutMs: number;
  /** How long one PDF or Word file may take (ms; default `timeoutMs`). */
  documentTimeoutMs?: number;
  /**
   * Old-generation heap limit of each thread (MB): a page that needs more is given up. What is
   * parsed is bounded to keep within it (see ExtractOptions.heapMb): a page with more tags than a
   * tree may have is read as its words (only its first tags searched for links), a Word file
   * with more XML refused.
   */
  maxHeapMb?: number;
  /**
   * What one thread may hold in buffers outside its heap (MB; default `maxHeapMb`): a page or
   * document past it is given up and the thread replaced.
   */
  maxBuffersMb?: number;
  /** The compiled worker script (default: `extraction-worker.js` beside this file). */
  script?: string;
}

export type { Renderings };

interface Job {
  id: number;
  task: ThreadTask;
  resolve: (result: never) => void;
  reject: (error: Error) => void;
}

interface Slot {
  worker: Worker;
  /** The thread has loaded its code (a page's deadline does not pay for a thread's start). */
  ready: boolean;
  job: Job | null;
  timer: NodeJS.Timeout | null;
}

const DEFAULT_SCRIPT = path.join(__dirname, 'extraction-worker.js');

/** The exit code of a thread that stopped itself holding more buffers than it may. */
export const BUFFERS_EXCEEDED = 86;

/**
 * Everything parsed from what a site sends, off the event loop: main-content extraction, a
 * page's links, sitemaps and robots.txt, on a pool of threads, each task with a deadline. A
 * task past its deadline (or past a thread's heap limit) is given up as an ExtractionAbandoned
 * and its thread replaced, so no page can stall the process that asked. Without a compiled
 * worker script (running from TypeScript sources) tasks run inline.
 */
export class ExtractionWorkers {
  private readonly slots: Slot[] = [];
  private readonly queue: Job[] = [];
  private script: string | null;
  private nextId = 1;
  private closed = false;

  constructor(private readonly options: ExtractionWorkersOptions) {
    const script = options.script ?? DEFAULT_SCRIPT;
    this.script = fs.existsSync(script) ? script : null;
  }

  /** The threads start with the first page, not with the process (boot, and processes that never extract, pay nothing). */
  private started = false;
  private start(): void {
    if (this.started) return;
    this.started = true;
    const size = this.options.size ?? Math.max(1, Math.min(4, os.availableParallelism?.() ?? os.cpus().length));
    for (let i = 0; i < size; i++) this.slots.push(this.spawn());
  }

  /** Whether pages are extracted on threads (false: inline, no deadline). */
  get threaded(): boolean {
    return this.script !== null;
  }

  /** The page's (or PDF's, Word file's) document; `keep` names the renderings wanted besides the text (the others come back empty). */
  extract(body: string, options: ExtractOptions, keep: Renderings = ['markdown', 'html']): Promise<ExtractedDocument> {
    const wire: ExtractOptions = {
      url: options.url,
      contentType: options.contentType,
      ...(options.encoding && { encoding: options.encoding }),
      heapMb: options.heapMb ?? this.options.maxHeapMb,
    };
    return this.run({ kind: 'extract', body, options: wire, keep });
  }

  /** An HTML page's followable links and title (see pageLinks). */
  links(html: string, pageUrl: string): Promise<PageLinks> {
    return this.run({ kind: 'links', html, pageUrl, heapMb: this.options.maxHeapMb });
  }

  /** A sitemap's entries, at most `maxEntries`. */
  sitemap(xml: string, maxEntries: number): Promise<Sitemap> {
    return this.run({ kind: 'sitemap', xml, maxEntries });
  }

  /** robots.txt's verdict on each URL for `userAgent`, its Crawl-delay and its sitemaps. */
  robots(text: string, userAgent: string, urls: readonly string[]): Promise<RobotsVerdict> {
    return this.run({ kind: 'robots', text, userAgent, urls: [...urls] });
  }

  private run<T extends ThreadTask>(task: T): Promise<ThreadResults[T['kind']]> {
    if (this.closed) return Promise.reject(new Error('extraction workers are closed'));
    if (!this.script) return runTask(task);
    this.start();
    return new Promise((resolve, reject) => {
      this.queue.push({ id: this.nextId++, task, resolve: resolve as (result: never) => void, reject });
      this.pump();
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const job of this.queue.splice(0)) job.reject(new Error('extraction workers are closed'));
    await Promise.all(
      this.slots.map((slot) => {
        if (slot.timer) clearTimeout(slot.timer);
        slot.job?.reject(new Error('extraction workers are closed'));
        slot.job = null;
        return slot.worker.terminate();
      }),
    );
  }

  private spawn(): Slot {
    const limits = this.options.maxHeapMb ? { resourceLimits: { maxOldGenerationSizeMb: this.options.maxHeapMb } } : {};
    const worker = new Worker(this.script!, {
      ...limits,
      workerData: { maxBuffersMb: this.options.maxBuffersMb ?? this.options.maxHeapMb ?? 0 },
    });
    worker.unref();
    const slot: Slot = { worker, ready: false, job: null, timer: null };
    worker.on(
      'message',
      (reply: { ready?: true; id: number; result?: never; error?: string; unreadable?: boolean }) => {
        if (reply.ready) {
          slot.ready = true;
          return this.pump();
        }
        const job = slot.job;
        if (!job || job.id !== reply.id) return;
        this.finish(slot);
        if (reply.error === undefined) job.resolve(reply.result!);
        else
          job.reject(
            reply.unreadable
              ? new DocumentUnreadable(reply.error ?? 'the document cannot be read')
              : new Error(reply.error ?? 'extraction failed'),
          );
        this.pump();
      },
    );
    worker.on('error', (error: Error & { code?: string }) => {
      const outOfMemory = error.code === 'ERR_WORKER_OUT_OF_MEMORY';
      this.replace(
        slot,
        outOfMemory
          ? new ExtractionAbandoned(`the page needs more than ${this.options.maxHeapMb} MB to extract`)
          : error,
      );
    });
    worker.on('exit', (code) => {
      if (!slot.job || this.closed) return;
      const task = slot.job.task;
      const what =
        task.kind === 'extract' && isBinaryDocument(task.options.contentType)
          ? 'document'
          : task.kind === 'extract'
            ? 'page'
            : task.kind === 'robots'
              ? 'robots.txt'
              : task.kind;
      const mb = this.options.maxBuffersMb ?? this.options.maxHeapMb;
      this.replace(
        slot,
        code === BUFFERS_EXCEEDED
          ? new ExtractionAbandoned(
              `the ${what} needs more than ${mb} MB to ${task.kind === 'extract' ? 'extract' : 'read'}`,
            )
          : new Error('extraction thread stopped'),
      );
    });
    return slot;
  }

  private pump(): void {
    for (const slot of this.slots) {
      if (this.queue.length === 0) return;
      if (slot.job || !slot.ready) continue;
      const job = this.queue.shift()!;
      slot.job = job;
      const document = job.task.kind === 'extract' && isBinaryDocument(job.task.options.contentType);
      const ms = document ? (this.options.documentTimeoutMs ?? this.options.timeoutMs) : this.options.timeoutMs;
      slot.timer = setTimeout(
        () => this.replace(slot, new ExtractionAbandoned(overdueMessage(job.task, document, ms))),
        ms,
      );
      slot.worker.postMessage({ id: job.id, task: job.task });
    }
  }

  private finish(slot: Slot): void {
    if (slot.timer) clearTimeout(slot.timer);
    slot.timer = null;
    slot.job = null;
  }

  /** Gives up the slot's page with `error`, and puts a fresh thread in its place. */
  private replace(slot: Slot, error: Error): void {
    const job = slot.job;
    this.finish(slot);
    const index = this.slots.indexOf(slot);
    if (index < 0) return;
    slot.worker.removeAllListeners('exit');
    void slot.worker.terminate();
    // A thread that failed before it was ready would fail again: no new one in its place (a
    // respawn loop), and once none is left pages are extracted inline, as without a script.
    if (!this.closed && slot.ready) this.slots[index] = this.spawn();
    else this.slots.splice(index, 1);
    job?.reject(error);
    if (this.slots.length === 0 && !this.closed) {
      this.script = null;
      for (const queued of this.queue.splice(0))
        runTask(queued.task).then(queued.resolve as (result: unknown) => void, queued.reject);
    }
    this.pump();
  }
}
