import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Worker } from 'node:worker_threads';
import { extractAny } from '@app/extraction';
import { readFolderFile } from './folder-source';
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

/** Reads, extracts and analyses one folder file: what the pool does when it runs inline. */
export async function prepareFile(
  dir: string,
  relative: string,
  source: string,
  extract: Extractor = extractAny,
): Promise<PreparedDocument | null> {
  return preparePage(await readFolderFile(dir, { relative }, source).catch(() => null), extract);
}

/** Extracts and analyses a page read from the folder (null: unreadable, or no text). */
export async function preparePage(page: RawPage | null, extract: Extractor): Promise<PreparedDocument | null> {
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

/** A batch of files sent to a worker, and what its answer names. */
export type JobMessage = { id: number; files: string[] };
export type AnswerMessage = { id: number; docs: Wire[] };

interface Job {
  files: string[];
  worker: Worker;
  resolve: (docs: Array<PreparedDocument | null>) => void;
  reject: (error: Error) => void;
}

/** The compiled worker script next to this file (absent when running from TypeScript sources, e.g. under jest). */
const WORKER_SCRIPT = path.join(__dirname, 'extraction-worker.js');

/**
 * Folder files read, extracted and analysed on worker threads, so a large folder is indexed on
 * every core while the main thread only writes: one worker per core, at most four. A batch is
 * posted to a worker as soon as it is asked for (to the one with the fewest files waiting), so the
 * workers keep extracting while the main thread is busy writing a segment and cannot answer their
 * messages; how far ahead is the caller's choice (folder-sync's batches in flight). Runs inline
 * when there is no compiled worker script or a custom extractor.
 */
export class ExtractionPool {
  private readonly workers: Worker[] = [];
  private readonly jobs = new Map<number, Job>();
  /** Files posted to each worker and not yet answered. */
  private readonly waiting = new Map<Worker, number>();
  private nextId = 1;

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
      worker.on('message', (answer: AnswerMessage) => this.answered(answer));
      worker.on('error', (error) => this.failed(worker, error));
      worker.on('exit', (code) => this.failed(worker, new Error(`an extraction worker stopped (exit code ${code})`)));
      this.workers.push(worker);
      this.waiting.set(worker, 0);
    }
  }

  /** The files' pages, in order (null for a file without text). */
  prepare(files: string[]): Promise<Array<PreparedDocument | null>> {
    if (this.workers.length === 0)
      return Promise.all(files.map((f) => prepareFile(this.dir, f, this.source, this.extract)));
    return new Promise((resolve, reject) => {
      const worker = this.workers.reduce((a, b) => (this.waiting.get(b)! < this.waiting.get(a)! ? b : a));
      const id = this.nextId++;
      this.jobs.set(id, { files, worker, resolve, reject });
      this.waiting.set(worker, this.waiting.get(worker)! + files.length);
      worker.postMessage({ id, files } satisfies JobMessage);
    });
  }

  async close(): Promise<void> {
    const workers = this.workers.splice(0);
    await Promise.all(workers.map((w) => w.terminate()));
  }

  private answered({ id, docs }: AnswerMessage): void {
    const job = this.jobs.get(id);
    if (!job) return;
    this.jobs.delete(id);
    this.waiting.set(job.worker, this.waiting.get(job.worker)! - job.files.length);
    job.resolve(docs.map(fromWire));
  }

  /** A worker died: what it was sent fails, and later batches go to the others (or run inline). */
  private failed(worker: Worker, error: Error): void {
    const at = this.workers.indexOf(worker);
    if (at < 0) return;
    this.workers.splice(at, 1);
    this.waiting.delete(worker);
    for (const [id, job] of this.jobs)
      if (job.worker === worker) {
        this.jobs.delete(id);
        job.reject(error);
      }
  }
}

export { toWire };
