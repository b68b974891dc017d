import { parentPort, workerData } from 'node:worker_threads';
import { extractAny } from '@app/extraction';
import { type AnswerMessage, type JobMessage, preparePage, toWire } from './extraction-pool';
import { readFolderFileSync } from './folder-source';
import type { RawPage } from './to-document';

/**
 * An extraction worker (see ExtractionPool): reads, extracts and analyses the folder files it is
 * sent, batch after batch in the order they came, answering each batch whole. Batches wait in
 * this thread's queue, so it goes on working while the main thread is too busy to answer.
 */
const { dir, source } = workerData as { dir: string; source: string };
const batches: JobMessage[] = [];
let running = false;

/** A file read here (waiting on the disk blocks nothing else), or null when it cannot be. */
function read(file: string): RawPage | null {
  try {
    return readFolderFileSync(dir, { relative: file }, source);
  } catch {
    return null;
  }
}

async function run(): Promise<void> {
  running = true;
  for (let batch = batches.shift(); batch; batch = batches.shift()) {
    const docs: AnswerMessage['docs'] = [];
    // A page that breaks the extraction is a page without text, not a lost batch.
    for (const file of batch.files) docs.push(toWire(await preparePage(read(file), extractAny).catch(() => null)));
    parentPort!.postMessage({ id: batch.id, docs } satisfies AnswerMessage);
  }
  running = false;
}

parentPort!.on('message', (batch: JobMessage) => {
  batches.push(batch);
  if (!running) void run();
});
