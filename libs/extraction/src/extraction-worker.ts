import { parentPort } from 'node:worker_threads';
import { DocumentUnreadable } from './documents/document-error';
import { extractAny } from './documents/extract-any';
import type { ExtractOptions } from './extraction.port';
import type { Renderings } from './extraction-workers';

/** An extraction thread (see ExtractionWorkers): extracts each page or document it is sent, one at a time. */
parentPort!.on('message', async ({ id, body, options, keep }: { id: number; body: string; options: ExtractOptions; keep: Renderings }) => {
  try {
    const document = await extractAny(body, options);
    // Only the renderings asked for cross back: each is copied on the asking thread.
    if (!keep.includes('markdown')) document.markdown = '';
    if (!keep.includes('html')) document.html = '';
    parentPort!.postMessage({ id, document });
  } catch (error) {
    parentPort!.postMessage({ id, error: (error as Error)?.message ?? String(error), unreadable: error instanceof DocumentUnreadable });
  }
});
parentPort!.postMessage({ ready: true });
