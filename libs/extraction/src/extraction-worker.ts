import { parentPort, workerData } from 'node:worker_threads';
import { DocumentUnreadable } from './documents/document-error';
import { BUFFERS_EXCEEDED } from './extraction-workers';
import { runTask, type ThreadTask } from './thread-tasks';

/**
 * Buffers (ArrayBuffers: PDF.js's decoded streams, a zip's entries) live outside the heap its
 * limit bounds: while a page is read, the thread checks what it holds and stops itself past
 * `maxBuffersMb`, which its owner reports as the page given up. A check that cannot run while the
 * page's code holds the thread waits for it: the stream bounds before a document is read are the
 * first line, this the second.
 */
const maxBuffers = ((workerData as { maxBuffersMb?: number } | null)?.maxBuffersMb ?? 0) * 1024 * 1024;
let watching: NodeJS.Timeout | null = null;
const watch = (on: boolean) => {
  if (watching) clearInterval(watching);
  watching =
    on && maxBuffers > 0
      ? setInterval(() => process.memoryUsage().arrayBuffers > maxBuffers && process.exit(BUFFERS_EXCEEDED), 50)
      : null;
};

/** An extraction thread (see ExtractionWorkers): does each task it is sent, one at a time. */
parentPort!.on('message', async ({ id, task }: { id: number; task: ThreadTask }) => {
  watch(true);
  try {
    parentPort!.postMessage({ id, result: await runTask(task) });
  } catch (error) {
    parentPort!.postMessage({
      id,
      error: (error as Error)?.message ?? String(error),
      unreadable: error instanceof DocumentUnreadable,
    });
  } finally {
    watch(false);
  }
});
parentPort!.postMessage({ ready: true });
