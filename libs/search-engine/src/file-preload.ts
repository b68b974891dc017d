import * as fs from 'node:fs';
import * as os from 'node:os';
import type { Config } from '@app/config';

/**
 * Whether the index file is read through once after boot, so that the operating system's page
 * cache holds it: `auto` when the file takes at most half the memory available (the container's
 * limit counts), `on` always, `off` never.
 *
 * A query reads a few dozen pages of the file at random (its words' postings, the rows of its
 * results, the titles the ranking compares). Where the file is not in the page cache (after a
 * reboot, or when other work pushed it out), each of those is a disk read, and at a million pages
 * they, not the search, take most of a query's time. Databases warm their caches the same way at
 * start (PostgreSQL's autoprewarm, InnoDB's buffer pool load, Elasticsearch's store preload).
 * The page cache is the system's: the file does not count in the process's memory, and the system
 * gives the memory back to programs that need it.
 */
export type PreloadMode = Config['localIndexPreload'];

/** `auto` reads a file of at most this share of the memory available. */
export const PRELOAD_SHARE = 0.5;

/** Bytes read at once: large enough for sequential reads, small enough to hold nothing of note. */
const CHUNK = 1 << 20;

export interface PreloadReport {
  /** Bytes of the file read (all of it unless stopped). */
  bytes: number;
  /** The file's size when the read began. */
  size: number;
  ms: number;
  /** False when it was stopped (the index closed) before the end. */
  completed: boolean;
}

/**
 * The memory the system reports available, or less in a container with a memory limit (cgroup v2
 * or v1): there the page cache counts against the limit, and the host's free memory says nothing.
 */
export function availableMemory(
  read: (file: string) => string | null = readOrNull,
  free: number = os.freemem(),
): number {
  let available = free;
  const limited = (limitFile: string, usageFile: string) => {
    const limit = Number(read(limitFile)?.trim());
    const usage = Number(read(usageFile)?.trim());
    // "max" (v2) or a huge number (v1) means no limit.
    if (Number.isFinite(limit) && limit > 0 && limit < 2 ** 60 && Number.isFinite(usage))
      available = Math.min(available, Math.max(0, limit - usage));
  };
  limited('/sys/fs/cgroup/memory.max', '/sys/fs/cgroup/memory.current');
  limited('/sys/fs/cgroup/memory/memory.limit_in_bytes', '/sys/fs/cgroup/memory/memory.usage_in_bytes');
  return available;
}

function readOrNull(file: string): string | null {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return null;
  }
}

/** Whether a file of `size` bytes is preloaded under `mode`, with `available` bytes of memory. */
export function preloadWanted(mode: PreloadMode, size: number, available: number): boolean {
  if (mode === 'off' || size === 0) return false;
  return mode === 'on' || size <= available * PRELOAD_SHARE;
}

/**
 * Reads `file` from start to end into one reused buffer, one read at a time (a thread of the
 * pool, never the event loop), until the end or `signal`. The bytes are dropped: what stays is
 * the page cache's copy. Null when the mode, the file's size or the memory available says not to.
 */
export async function preloadFile(
  file: string,
  mode: PreloadMode,
  signal: AbortSignal,
  available: number = availableMemory(),
): Promise<PreloadReport | null> {
  if (mode === 'off') return null;
  const started = performance.now();
  const handle = await fs.promises.open(file, 'r');
  try {
    const { size } = await handle.stat();
    if (!preloadWanted(mode, size, available)) return null;
    const buffer = Buffer.allocUnsafe(Math.min(CHUNK, size));
    let bytes = 0;
    while (bytes < size && !signal.aborted) {
      const { bytesRead } = await handle.read(buffer, 0, buffer.length, bytes);
      if (bytesRead === 0) break;
      bytes += bytesRead;
    }
    return { bytes, size, ms: Math.round(performance.now() - started), completed: bytes >= size };
  } finally {
    await handle.close();
  }
}
