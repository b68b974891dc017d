import { parentPort, workerData } from 'node:worker_threads';
import type { IndexChange } from './index-change';
import { LocalIndex } from './local-index';

/** The index search worker (see IndexSearcher): a read-only LocalIndex that follows the writer's changes. */
const { file, cacheBytes } = workerData as { file: string; cacheBytes?: number };
const index = new LocalIndex({ file, cacheBytes, readonly: true });
parentPort!.on(
  'message',
  (
    message:
      | { kind: 'change'; change: IndexChange }
      | { kind: 'search'; id: number; query: Parameters<LocalIndex['search']>[0] },
  ) => {
    if (message.kind === 'change') {
      index.applyChange(message.change);
      return;
    }
    try {
      parentPort!.postMessage({ id: message.id, page: index.search(message.query) });
    } catch (error) {
      parentPort!.postMessage({ id: message.id, error: error instanceof Error ? error.message : String(error) });
    }
  },
);
