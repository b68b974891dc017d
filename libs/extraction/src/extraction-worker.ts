import { parentPort } from 'node:worker_threads';
import { extractDocument } from './extract-document';
import type { ExtractOptions } from './extraction.port';

/** An extraction thread (see ExtractionWorkers): extracts each page it is sent, one at a time. */
parentPort!.on('message', ({ id, body, options }: { id: number; body: string; options: ExtractOptions }) => {
  try {
    parentPort!.postMessage({ id, document: extractDocument(body, options) });
  } catch (error) {
    parentPort!.postMessage({ id, error: (error as Error).message });
  }
});
parentPort!.postMessage({ ready: true });
