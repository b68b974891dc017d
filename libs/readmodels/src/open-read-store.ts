import { MemoryReadStore } from './memory.read-store';
import type { ReadStore } from './read-store.port';

/**
 * The read store a deployment names: MongoDB at `mongoUrl`, the in-memory store without one. The
 * MongoDB driver is loaded only then (some 0.1 s of a boot that does not use it).
 */
export async function openReadStore(mongoUrl?: string): Promise<ReadStore> {
  if (!mongoUrl) return new MemoryReadStore();
  const { MongoReadStore } = await import('./mongo.read-store');
  return MongoReadStore.connect(mongoUrl);
}
