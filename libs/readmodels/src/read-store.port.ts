/**
 * The read-model port: documents in named collections, each upsert guarded by a version
 * (the stream revision for one-stream documents, the global position for aggregates),
 * so a projection applied twice changes nothing. Adapters: memory (mingo) and mongo.
 */
export type Filter = Record<string, unknown>;
export type Sort = Record<string, 1 | -1>;

export interface FindOptions {
  sort?: Sort;
  skip?: number;
  limit?: number;
}

/** A stored document: `_id` plus the projection's fields plus `_version` (decimal string). */
export type ReadDoc = { _id: string; _version?: string } & Record<string, unknown>;

export interface ReadStore {
  /**
   * Writes (replaces whole) `doc` unless the stored document's `_version` is already >= `version`
   * (compared as bigint). Returns true when written.
   */
  upsert(collection: string, id: string, doc: Record<string, unknown>, version: bigint): Promise<boolean>;
  /**
   * Removes the document unless its stored `_version` is already >= `version` (a projection
   * returned undefined). Returns true when removed.
   */
  delete(collection: string, id: string, version: bigint): Promise<boolean>;
  /** Treat the result as read-only: the memory adapter returns its stored (frozen) object. */
  get(collection: string, id: string): Promise<ReadDoc | undefined>;
  /**
   * Declares an index, so finds on it need no full scan: on one field queried by equality (e.g.
   * team_id), or compound, equality fields first then the field a find sorts on (['run_id', 'seq']).
   */
  ensureIndex(collection: string, fields: string | readonly string[]): Promise<void>;
  find(collection: string, filter?: Filter, options?: FindOptions): Promise<ReadDoc[]>;
  count(collection: string, filter?: Filter): Promise<number>;
  /** Drops every document of the collection (rebuild). */
  clear(collection: string): Promise<void>;
  /** Projection checkpoints: last global position applied, per projection name. */
  getCheckpoint(name: string): Promise<bigint | undefined>;
  setCheckpoint(name: string, position: bigint): Promise<void>;
  /** Several checkpoints in one round trip: those set, by name (an unset one is absent). */
  getCheckpoints(names: readonly string[]): Promise<Map<string, bigint>>;
  /** Several checkpoints in one round trip; each is set or not, on its own (no transaction). */
  setCheckpoints(positions: ReadonlyMap<string, bigint>): Promise<void>;
  ping(): Promise<void>;
  close(): Promise<void>;
}

export const READ_STORE = Symbol('READ_STORE');

/** A document as read back: the projection's fields plus `_id` (and `_version`). */
export type Stored<Doc extends object> = Doc & { _id: string; _version?: string };

/**
 * A collection whose documents one projection writes as `Doc`: typed reads over the port, which
 * holds plain JSON documents. Exported beside its projection; readers never cast documents.
 */
export class Collection<Doc extends object> {
  constructor(readonly name: string) {}

  async get(reads: ReadStore, id: string): Promise<Stored<Doc> | undefined> {
    return (await reads.get(this.name, id)) as Stored<Doc> | undefined;
  }

  async find(reads: ReadStore, filter?: Filter, options?: FindOptions): Promise<Stored<Doc>[]> {
    return (await reads.find(this.name, filter, options)) as Stored<Doc>[];
  }

  count(reads: ReadStore, filter?: Filter): Promise<number> {
    return reads.count(this.name, filter);
  }
}
