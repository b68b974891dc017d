import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Worker } from 'node:worker_threads';
import { extractAny } from '@app/extraction';
import { readFolderFile, readFolderFileSync } from './folder-source';
import { analyse, type Analysed, type PreparedDocument } from './document';
import { type Extractor, type RawPage, toIndexedDocument } from './to-document';

/** What a worker sends back per file: the page and its counted terms (Maps do not cross threads as such), or null. */
type Wire = {
  doc: PreparedDocument['doc'];
  analysed: Omit<Analysed, 'titleTf' | 'textTf'> & {
    titleTf: Array<[string, number]>;
    textTf: Array<[string, number]>;
  };
} | null;

/** Reads, extracts and analyses one folder file: what a worker does, and the pool itself when it runs inline. */
export async function prepareFile(
  dir: string,
  relative: string,
  source: string,
  extract: Extractor = extractAny,
  sync = false,
): Promise<PreparedDocument | null> {
  let page: RawPage | null;
  try {
    page = sync ? readFolderFileSync(dir, { relative }, source) : await readFolderFile(dir, { relative }, source);
  } catch {
    page = null;
  }
  if (!page) return null;
  const doc = await toIndexedDocument(page, extract).catch(() => null);
  return doc ? { doc, analysed: analyse(doc) } : null;
}

const toWire = (prepared: PreparedDocument | null): Wire =>
  prepared && {
    doc: prepared.doc,
    analysed: { ...prepared.analysed, titleTf: [...prepared.analysed.titleTf], textTf: [...prepared.analysed.textTf] },
  };
const fromWire = (wire: Wire): PreparedDocument | null =>
  wire && {
    doc: wire.doc,
    analysed: { ...wire.analysed, titleTf: new Map(wire.analysed.titleTf), textTf: new Map(wire.analysed.textTf) },
  };

interface Job {
  files: string[];
  resolve: (docs: Array<PreparedDocument | null>) => void;
  reject: (error: Error) => void;
}

/** The compiled worker script next to this file (absent when running from TypeScript sources, e.g. under jest). */
const WORKER_SCRIPT = path.join(__dirname, 'extraction-worker.js');

/**
 * Folder files read, extracted and analysed on worker threads, so a large folder is indexed on
 * every core while the main thread only writes: one worker per core, at most four. Runs inline when there is no compiled worker script or a custom extractor.
 */
export class ExtractionPool {
  private readonly workers: Worker[] = [];
  private readonly idle: Worker[] = [];
  private readonly queue: Job[] = [];
  private readonly busy = new Map<Worker, Job>();

  constructor(
    private readonly dir: string,
    private readonly source: string,
    private readonly extract?: Extractor,
    size = Math.max(1, Math.min(4, os.availableParallelism?.() ?? os.cpus().length)),
  ) {
    if (extract || !fs.existsSync(WORKER_SCRIPT)) return;
    for (let i = 0; i < size; i++) {
      const worker = new Worker(WORKER_SCRIPT, { workerData: { dir, source } });
      worker.unref();
      worker.on('message', (wire: Wire[]) => this.done(worker, null, wire));
      worker.on('error', (error) => this.done(worker, error, []));
      this.workers.push(worker);
      this.idle.push(worker);
    }
  }

  /** The files' pages, in order (null for a file without text). */
  prepare(files: string[]): Promise<Array<PreparedDocument | null>> {
    if (this.workers.length === 0)
      return Promise.all(files.map((f) => prepareFile(this.dir, f, this.source, this.extract)));
    return new Promise((resolve, reject) => {
      this.queue.push({ files, resolve, reject });
      this.pump();
    });
  }

  async close(): Promise<void> {
    await Promise.all(this.workers.map((w) => w.terminate()));
    this.workers.length = 0;
  }

  private pump(): void {
    while (this.idle.length > 0 && this.queue.length > 0) {
      const worker = this.idle.pop()!;
      const job = this.queue.shift()!;
      this.busy.set(worker, job);
      worker.postMessage(job.files);
    }
  }

  private done(worker: Worker, error: Error | null, wire: Wire[]): void {
    const job = this.busy.get(worker);
    this.busy.delete(worker);
    if (job) {
      if (error) job.reject(error);
      else job.resolve(wire.map(fromWire));
    }
    if (!error) this.idle.push(worker);
    this.pump();
  }
}

export { toWire };
