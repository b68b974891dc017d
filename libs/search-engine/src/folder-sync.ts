/**
 * The folder source of the local index: its pages kept in step with the folder's files. Each
 * file's size, modification time and the page it gave are recorded in a `files` table beside the
 * index, written with the segment that holds the page, so only what changed is read again.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ExtractionPool, prepareFile } from './extraction-pool';
import { type FolderFile, listedFile, listFiles, walkFiles } from './folder-source';
import type { PreparedDocument } from './document';
import type { LocalIndex } from './local-index';
import type { Extractor } from './to-document';

/** The source name of the folder's pages (a seed's pages carry the seed). */
export const FOLDER_SOURCE = 'folder';
/** Files of the folder looked up in the files table at a time (one statement: about half a millisecond). */
const LOOKUP_BATCH = 128;
/** Recorded files read per slice when looking for those gone from the folder. */
const GONE_SLICE = 2_000;
/** Files read and extracted per batch of a folder sync (one message to a worker), and their bytes at most (one file more than that is a batch of its own). */
const SYNC_BATCH = 100;
const SYNC_BATCH_BYTES = 8 * 1024 * 1024;
/**
 * Batches handed to the workers ahead of the one being written. Writing a segment holds the main
 * thread about a second (10,000 pages), longer when segments merge; the workers go on through what
 * they were handed meanwhile: 24 batches is about a second of their work on two cores. The files
 * of the batches handed out and not yet written stay under IN_FLIGHT_BYTES (their extracted pages
 * wait in memory), whatever their sizes.
 */
const IN_FLIGHT = 24;
const IN_FLIGHT_BYTES = 64 * 1024 * 1024;
/** A sync of this many files or more extracts on worker threads. */
const POOL_FROM = 200;

export interface FolderSource {
  folder: string;
  /** The operator named the folder (LOCAL_INDEX_DIR): it must exist. The demo corpus may be absent. */
  required: boolean;
  /** How a file is extracted in this thread. */
  extract: Extractor;
  /** How the worker threads extract (their default when absent). */
  poolExtract?: Extractor;
}

/** The files table, created when missing. */
export function recordFiles(index: LocalIndex): void {
  index.db.exec(
    'CREATE TABLE IF NOT EXISTS files (path TEXT PRIMARY KEY, size INTEGER NOT NULL, mtime REAL NOT NULL, url TEXT)',
  );
}

/** Forgets every recorded file (another folder: none of them is its). */
export function forgetFiles(index: LocalIndex): void {
  index.db.exec('DELETE FROM files');
}

/**
 * Brings the folder's pages in step with its files: a file whose size or modification time
 * changed is read again, a new one is added, a deleted one's page is dropped. `only` limits the
 * look to those relative paths (what a watch event named); otherwise the whole folder is listed.
 */
export async function syncFolder(
  index: LocalIndex,
  source: FolderSource,
  only?: string[],
): Promise<{ indexed: number; removed: number }> {
  const { folder } = source;
  if (!fs.existsSync(folder)) {
    // The demo corpus may be absent from a slim image; a folder the operator named must exist.
    if (source.required) throw new Error(`LOCAL_INDEX_DIR ${folder} does not exist`);
    return { indexed: 0, removed: 0 };
  }
  const { changed, recorded, gone } = only ? await compareSome(index, folder, only) : await compareAll(index, folder);
  if (changed.length === 0 && gone.length === 0) return { indexed: 0, removed: 0 };

  const upsertFile = index.db.prepare(
    'INSERT INTO files (path, size, mtime, url) VALUES (?, ?, ?, ?) ON CONFLICT (path) DO UPDATE SET size = excluded.size, mtime = excluded.mtime, url = excluded.url',
  );
  const deleteFile = index.db.prepare('DELETE FROM files WHERE path = ?');
  const othersWith = index.db.prepare('SELECT COUNT(*) FROM files WHERE url = ? AND path != ?').pluck();
  let indexed = 0;
  let removed = 0;
  const writer = index.writer();
  // A page two files declare stays while either file does.
  const release = (row: FileRow | undefined, keep: string | null) => {
    if (row?.url && row.url !== keep && (othersWith.get(row.url, row.path) as number) === 0) {
      writer.remove(row.url);
      removed++;
    }
  };
  // Many files are read and extracted on worker threads, a few (a watch event) right here.
  const pool = changed.length >= POOL_FROM ? new ExtractionPool(folder, FOLDER_SOURCE, source.poolExtract) : null;
  const prepare = (files: string[]) =>
    pool ? pool.prepare(files) : Promise.all(files.map((f) => prepareFile(folder, f, FOLDER_SOURCE, source.extract)));
  try {
    const batches = batchesOf(changed);
    const inFlight: Array<Promise<Array<PreparedDocument | null>>> = [];
    let handed = 0;
    let handedBytes = 0;
    // Batches go out ahead of the one being written, so the workers never wait for it, within both bounds.
    const handOut = (writing: number) => {
      while (
        handed < batches.length &&
        handed - writing < IN_FLIGHT &&
        (handed === writing || handedBytes + batches[handed]!.bytes <= IN_FLIGHT_BYTES)
      ) {
        inFlight[handed] = prepare(batches[handed]!.files.map((f) => f.relative));
        // Awaited in turn below; one failing meanwhile (a worker gone) must not go unhandled first.
        inFlight[handed]!.catch(() => undefined);
        handedBytes += batches[handed]!.bytes;
        handed++;
      }
    };
    for (let b = 0; b < batches.length; b++) {
      handOut(b);
      const docs = await inFlight[b]!;
      batches[b]!.files.forEach((file, i) => {
        const prepared = docs[i];
        release(recorded.get(file.relative), prepared?.doc.url ?? null);
        // Recorded with the segment that holds the page: a crash leaves neither or both.
        writer.alongside(() => upsertFile.run(file.relative, file.size, file.mtimeMs, prepared?.doc.url ?? null));
        if (prepared) {
          writer.add(prepared);
          indexed++;
        }
      });
      delete inFlight[b];
      handedBytes -= batches[b]!.bytes;
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
  } finally {
    await pool?.close();
  }
  for (const row of gone) {
    writer.alongside(() => deleteFile.run(row.path));
    release(row, null);
  }
  writer.flush();
  return { indexed, removed };
}

type FileRow = { path: string; size: number; mtime: number; url: string | null };

/** The files cut into batches of SYNC_BATCH files and SYNC_BATCH_BYTES at most, in order. */
export function batchesOf(files: ChangedFile[]): Array<{ files: ChangedFile[]; bytes: number }> {
  const batches: Array<{ files: ChangedFile[]; bytes: number }> = [];
  let current: { files: ChangedFile[]; bytes: number } | null = null;
  for (const file of files) {
    if (!current || current.files.length >= SYNC_BATCH || current.bytes + file.size > SYNC_BATCH_BYTES) {
      current = { files: [], bytes: 0 };
      batches.push(current);
    }
    current.files.push(file);
    current.bytes += file.size;
  }
  return batches;
}
/** A file of the folder to read again: its path, size and modification time. */
type ChangedFile = { relative: string; size: number; mtimeMs: number };
/** How the folder differs from what the index recorded: files to read, their old rows, rows whose file is gone. */
interface Comparison {
  changed: ChangedFile[];
  recorded: Map<string, FileRow>;
  gone: FileRow[];
}

/** The paths a watch event named (a folder among them, a deleted one too, is looked at whole) against their rows. */
async function compareSome(index: LocalIndex, folder: string, only: string[]): Promise<Comparison> {
  const recorded = new Map<string, FileRow>();
  const under = index.db.prepare('SELECT path, size, mtime, url FROM files WHERE path = ? OR (path > ? AND path < ?)');
  for (const p of only)
    for (const row of under.all(
      p,
      `${p}${path.sep}`,
      `${p}${String.fromCharCode(path.sep.charCodeAt(0) + 1)}`,
    ) as FileRow[])
      recorded.set(row.path, row);
  const present = await listFiles(folder, only);
  const changed = present.filter((f) => {
    const row = recorded.get(f.relative);
    return !row || row.size !== f.size || row.mtime !== f.mtimeMs;
  });
  const seen = new Set(present.map((f) => f.relative));
  return { changed, recorded, gone: [...recorded.values()].filter((row) => !seen.has(row.path)) };
}

/**
 * The whole folder against the files table, file by file: neither the listing nor the table is
 * held whole (a boot over a million recorded files reads a row per file as it walks). Only when
 * the table holds more rows than the walk matched are its rows read, in slices, for those whose
 * file the listing no longer gives.
 */
async function compareAll(index: LocalIndex, folder: string): Promise<Comparison> {
  // Rows are looked up a batch of files at a time (one statement for all of them).
  const lookup = index.db.prepare(
    'SELECT path, size, mtime, url FROM files WHERE path IN (SELECT value FROM json_each(?))',
  );
  const changed: ChangedFile[] = [];
  const recorded = new Map<string, FileRow>();
  let matched = 0;
  let batch: FolderFile[] = [];
  const compare = () => {
    const rows = new Map(
      (lookup.all(JSON.stringify(batch.map((file) => file.relative))) as FileRow[]).map((row) => [row.path, row]),
    );
    for (const file of batch) {
      const row = rows.get(file.relative);
      if (row) {
        matched++;
        if (row.size === file.size && row.mtime === file.mtimeMs) continue;
        recorded.set(row.path, row);
      }
      changed.push({ relative: file.relative, size: file.size, mtimeMs: file.mtimeMs });
    }
    batch = [];
  };
  await walkFiles(folder, (file) => {
    batch.push(file);
    if (batch.length >= LOOKUP_BATCH) compare();
  });
  if (batch.length > 0) compare();
  const gone: FileRow[] = [];
  const rows = index.db.prepare('SELECT COUNT(*) FROM files').pluck().get() as number;
  if (rows > matched) {
    const slice = index.db.prepare('SELECT path, size, mtime, url FROM files WHERE path > ? ORDER BY path LIMIT ?');
    for (let after = ''; ;) {
      const rowsRead = slice.all(after, GONE_SLICE) as FileRow[];
      for (const row of rowsRead) if (!listedFile(folder, row.path)) gone.push(row);
      if (rowsRead.length < GONE_SLICE) break;
      after = rowsRead[rowsRead.length - 1].path;
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
  }
  return { changed, recorded, gone };
}
