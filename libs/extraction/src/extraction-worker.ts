import { parentPort } from 'node:worker_threads';
import { extractDocument } from './extract-document';
import type { ExtractOptions } from './extraction.port';
import type { Renderings } from './extraction-workers';

/** An extraction thread (see ExtractionWorkers): extracts each page it is sent, one at a time. */
parentPort!.on('message', ({ id, body, options, keep }: { id: number; body: string; options: ExtractOptions; keep: Renderings }) => {
  try {
    const document = extractDocument(body, options);
    // Only the renderings asked for cross back: each is copied on the asking thread.
    if (!keep.includes('markdown')) document.markdown = '';
    if (!keep.includes('html')) document.html = '';
    parentPort!.postMessage({ id, document });
  } catch (error) {
    parentPort!.postMessage({ id, error: (error as Error).message });
  }
});
parentPort!.postMessage({ ready: true });
