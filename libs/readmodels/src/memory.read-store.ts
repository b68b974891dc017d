import { createReadStream, createWriteStream, promises as fs } from 'node:fs';
import { createInterface } from 'node:readline';
import { dirname } from 'node:path';
import { asStored, bsonProblem, DocumentRefused } from './bson-limits';
import { mongoQuery } from './mongo-filter';
import { sortDocs } from './mongo-order';
import type { Filter, FindOptions, ReadDoc, ReadStore } from './read-store.port';

/** Version of a stored doc as a bigint; a doc without `_version` loses to any write. */
const versionOf = (doc: ReadDoc | undefined): bigint => (doc?._version === undefined ? -1n : BigInt(doc._version));

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value as object)) deepFreeze(child);
  }
  return value;
}

/** The ids holding one value of an indexed field: one id, or several. */
type IndexEntry = string | Set<string>;

/** What an equality index looks up: a string, number or boolean (null and documents are found by a scan). */
const isIndexable = (value: unknown): value is string | number | boolean =>
  typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean';

/**
 * The keys a doc's value is indexed under: the value itself, or each element of an array, which
 * `{field: element}` matches in MongoDB. A null, missing or document value is under none: an
 * equality the index answers never matches it.
 */
const indexKeys = (value: unknown): unknown[] =>
  isIndexable(value) ? [value] : Array.isArray(value) ? value.filter(isIndexable) : [];

/**
 * A snapshot is JSON lines, written and read one document at a time (one JSON string of every
 * document would pass V8's string limit, about 512 MB, and then no snapshot could be written):
 * `{"format":2,"meta":{...}}` first, then `{"k":"<checkpoint>","p":"<position>"}` and
 * `{"c":"<collection>","d":<doc>}` lines, then `{"end":<lines>}`, so a file cut short is refused.
 */
type SnapshotLine =
  | { format: 2; meta?: Record<string, string | null> }
  | { k: string; p: string }
  | { c: string; d: ReadDoc }
  | { end: number };

/**
 * In-process read store (the embedded default): documents in Maps, Mongo-style queries by mingo
 * (through `mongoQuery`, which rewrites the conditions mingo would answer unlike MongoDB).
 *
 * Copy policy: a write is copied once as MongoDB would store it (`asStored`: the caller keeps its
 * object, a property holding undefined is left out) and
 * deep-frozen; `get`/`find` return the stored frozen object itself. Reads are on the hot path
 * (every authenticated request) and outnumber writes, so we pay the copy on the write side:
 * `get` is one Map lookup with no allocation, whatever the doc size, and a caller that tries to
 * mutate a result gets a TypeError (strict mode) instead of silently corrupting the store.
 */
export class MemoryReadStore implements ReadStore {
  private readonly collections = new Map<string, Map<string, ReadDoc>>();
  private readonly checkpoints = new Map<string, bigint>();
  /**
   * Equality indexes: collection -> field -> value -> ids, so a team's docs are found without a
   * scan. A value held by one doc maps to its id itself, a Set only once several share it: most
   * values of a field like a request id are unique, and a Set apiece would cost more than the doc.
   */
  private readonly indexes = new Map<string, Map<string, Map<unknown, IndexEntry>>>();

  /**
   * A compound index is kept on its first field: the equality that narrows a find; the few docs it
   * leaves are sorted. A nested field ('meta.day') is not indexed here: a find on it scans.
   */
  async ensureIndex(collection: string, indexed: string | readonly string[]): Promise<void> {
    const field = typeof indexed === 'string' ? indexed : indexed[0];
    if (field === undefined || field.includes('.')) return;
    let fields = this.indexes.get(collection);
    if (!fields) this.indexes.set(collection, (fields = new Map()));
    if (fields.has(field)) return;
    const index = new Map<unknown, IndexEntry>();
    fields.set(field, index);
    for (const doc of this.collections.get(collection)?.values() ?? [])
      for (const key of indexKeys(doc[field])) this.indexAdd(index, key, doc._id);
  }

  private indexAdd(index: Map<unknown, IndexEntry>, value: unknown, id: string): void {
    const ids = index.get(value);
    if (ids === undefined) index.set(value, id);
    else if (typeof ids === 'string') {
      if (ids !== id) index.set(value, new Set([ids, id]));
    } else ids.add(id);
  }

  private indexDelete(index: Map<unknown, IndexEntry>, value: unknown, id: string): void {
    const ids = index.get(value);
    if (ids === undefined) return;
    if (typeof ids === 'string') {
      if (ids === id) index.delete(value);
      return;
    }
    ids.delete(id);
    if (ids.size === 1) index.set(value, ids.values().next().value as string);
    else if (ids.size === 0) index.delete(value);
  }

  private reindex(collection: string, before: ReadDoc | undefined, after: ReadDoc | undefined): void {
    const fields = this.indexes.get(collection);
    if (!fields) return;
    for (const [field, index] of fields) {
      if (before && before[field] === after?.[field]) continue;
      if (before) for (const key of indexKeys(before[field])) this.indexDelete(index, key, before._id);
      if (after) for (const key of indexKeys(after[field])) this.indexAdd(index, key, after._id);
    }
  }

  /** The docs an indexed equality in the filter (to a string, number or boolean) allows, or every doc. */
  private candidates(collection: string, docs: Map<string, ReadDoc>, filter: Filter): Iterable<ReadDoc> {
    const fields = this.indexes.get(collection);
    if (fields) {
      for (const [field, index] of fields) {
        const wanted = filter[field];
        if (!isIndexable(wanted)) continue;
        const ids = index.get(wanted);
        if (ids === undefined) return [];
        return typeof ids === 'string' ? [docs.get(ids)!] : [...ids].map((id) => docs.get(id)!);
      }
    }
    return docs.values();
  }

  async upsert(collection: string, id: string, doc: Record<string, unknown>, version: bigint): Promise<boolean> {
    const docs = this.docs(collection, true);
    const before = docs.get(id);
    if (versionOf(before) >= version) return false;
    // What MongoDB would refuse is refused here too (the projector then sets the event aside).
    const problem = bsonProblem(doc);
    if (problem) throw new DocumentRefused(collection, id, problem);
    const after = deepFreeze({ ...(asStored(doc) as Record<string, unknown>), _id: id, _version: version.toString() });
    docs.set(id, after);
    this.reindex(collection, before, after);
    return true;
  }

  async delete(collection: string, id: string, version: bigint): Promise<boolean> {
    const docs = this.docs(collection);
    const current = docs?.get(id);
    if (!current || versionOf(current) >= version) return false;
    this.reindex(collection, current, undefined);
    return docs!.delete(id);
  }

  async get(collection: string, id: string): Promise<ReadDoc | undefined> {
    return this.collections.get(collection)?.get(id);
  }

  async find(collection: string, filter: Filter = {}, options: FindOptions = {}): Promise<ReadDoc[]> {
    const docs = this.docs(collection);
    if (!docs) return [];
    const query = mongoQuery(filter);
    const candidates = [...this.candidates(collection, docs, filter)];
    // Mongo applies sort, then skip, then limit whatever the call order. Sorted as MongoDB sorts
    // (mingo orders arrays otherwise); unsorted, mingo's lazy cursor stops at the limit.
    if (options.sort) {
      const skip = options.skip ?? 0;
      const found = candidates.filter((doc) => query.test(doc));
      return sortDocs(found, options.sort).slice(skip, options.limit ? skip + options.limit : undefined);
    }
    let cursor = query.find<ReadDoc>(candidates);
    if (options.skip) cursor = cursor.skip(options.skip);
    if (options.limit) cursor = cursor.limit(options.limit);
    return cursor.all();
  }

  async count(collection: string, filter: Filter = {}): Promise<number> {
    const docs = this.docs(collection);
    if (!docs) return 0;
    if (Object.keys(filter).length === 0) return docs.size;
    const query = mongoQuery(filter);
    let n = 0;
    for (const doc of this.candidates(collection, docs, filter)) if (query.test(doc)) n++;
    return n;
  }

  async clear(collection: string): Promise<void> {
    this.collections.delete(collection);
    for (const index of this.indexes.get(collection)?.values() ?? []) index.clear();
  }

  async getCheckpoint(name: string): Promise<bigint | undefined> {
    return this.checkpoints.get(name);
  }

  async setCheckpoint(name: string, position: bigint): Promise<void> {
    this.checkpoints.set(name, position);
  }

  async getCheckpoints(names: readonly string[]): Promise<Map<string, bigint>> {
    const out = new Map<string, bigint>();
    for (const name of names) {
      const position = this.checkpoints.get(name);
      if (position !== undefined) out.set(name, position);
    }
    return out;
  }

  async setCheckpoints(positions: ReadonlyMap<string, bigint>): Promise<void> {
    for (const [name, position] of positions) this.checkpoints.set(name, position);
  }

  async ping(): Promise<void> {}

  async close(): Promise<void> {}

  /**
   * Writes every collection and checkpoint to `file` as JSON lines (temp file + rename, so a crash
   * never leaves a half-written snapshot), one document at a time and waiting on the disk, so the
   * snapshot's size is bounded by the disk, not by a string. Docs must be JSON-safe (read models
   * hold decimal strings, not bigint or Date). Checkpoints are only ever written after the docs
   * they cover, so a snapshot may hold docs newer than its checkpoint: replaying that tail is a
   * no-op thanks to the version guard.
   */
  async snapshot(file: string, meta?: Record<string, string | null>): Promise<void> {
    await fs.mkdir(dirname(file), { recursive: true });
    const tmp = `${file}.${process.pid}.tmp`;
    const out = createWriteStream(tmp);
    const failed = new Promise<never>((_, reject) => out.once('error', reject));
    failed.catch(() => undefined);
    let lines = 0;
    const write = async (line: SnapshotLine) => {
      lines++;
      if (!out.write(`${JSON.stringify(line)}\n`))
        await Promise.race([new Promise<void>((resolve) => out.once('drain', () => resolve())), failed]);
    };
    try {
      await write({ format: 2, ...(meta && { meta }) });
      for (const [name, position] of [...this.checkpoints]) await write({ k: name, p: position.toString() });
      for (const [name, docs] of [...this.collections])
        for (const doc of [...docs.values()]) await write({ c: name, d: doc });
      await write({ end: lines + 1 });
      await Promise.race([new Promise<void>((resolve) => out.end(resolve)), failed]);
    } catch (error) {
      out.destroy();
      await fs.rm(tmp, { force: true });
      throw error;
    }
    const handle = await fs.open(tmp, 'r+');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
    await fs.rename(tmp, file);
  }

  /**
   * Replaces the whole state with a snapshot; returns false (state untouched) when the file is
   * absent. A file that does not read whole (cut short, foreign) throws and leaves the state as it was.
   */
  async restore(file: string): Promise<boolean> {
    let input: ReturnType<typeof createReadStream>;
    try {
      await fs.access(file);
      input = createReadStream(file, { encoding: 'utf8' });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return false;
      throw err;
    }
    const collections = new Map<string, Map<string, ReadDoc>>();
    const checkpoints = new Map<string, bigint>();
    let count = 0;
    let ended = false;
    for await (const text of createInterface({ input, crlfDelay: Infinity })) {
      if (!text) continue;
      count++;
      const line = JSON.parse(text) as SnapshotLine;
      if (count === 1) {
        if (!('format' in line) || line.format !== 2)
          throw new Error(
            `${file}: unknown read-store snapshot format ${String((line as { format?: unknown }).format)}`,
          );
      } else if ('end' in line) {
        if (line.end !== count) throw new Error(`${file}: the snapshot holds ${count} lines, its end says ${line.end}`);
        ended = true;
      } else if ('k' in line) {
        checkpoints.set(line.k, BigInt(line.p));
      } else if ('c' in line) {
        let docs = collections.get(line.c);
        if (!docs) collections.set(line.c, (docs = new Map()));
        docs.set(line.d._id, deepFreeze(line.d));
      }
    }
    if (!ended) throw new Error(`${file}: the snapshot is cut short`);
    this.collections.clear();
    this.checkpoints.clear();
    for (const fields of this.indexes.values()) for (const index of fields.values()) index.clear();
    for (const [name, docs] of collections) {
      this.collections.set(name, docs);
      for (const doc of docs.values()) this.reindex(name, undefined, doc);
    }
    for (const [name, position] of checkpoints) this.checkpoints.set(name, position);
    return true;
  }

  private docs(collection: string): Map<string, ReadDoc> | undefined;
  private docs(collection: string, create: true): Map<string, ReadDoc>;
  private docs(collection: string, create = false): Map<string, ReadDoc> | undefined {
    let docs = this.collections.get(collection);
    if (!docs && create) this.collections.set(collection, (docs = new Map()));
    return docs;
  }
}
