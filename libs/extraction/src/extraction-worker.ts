import { parentPort } from 'node:worker_threads';
import { DocumentUnreadable } from './documents/document-error';
import { runTask, type ThreadTask } from './thread-tasks';

/** An extraction thread (see ExtractionWorkers): does each task it is sent, one at a time. */
parentPort!.on('message', async ({ id, task }: { id: number; task: ThreadTask }) => {
  try {
    parentPort!.postMessage({ id, result: await runTask(task) });
  } catch (error) {
    parentPort!.postMessage({ id, error: (error as Error)?.message ?? String(error), unreadable: error instanceof DocumentUnreadable });
  }
});
parentPort!.postMessage({ ready: true });
