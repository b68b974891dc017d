import { MongoClient, MongoServerError, type Collection, type Db, type Filter as MongoFilter } from 'mongodb';
import { bsonProblem, decodeKey, DocumentRefused, encodeKey, mapKeys } from './bson-limits';
import type { Filter, FindOptions, ReadDoc, ReadStore } from './read-store.port';

/**
 * Stored shape: the projection's fields, `_version` (decimal string, what readers see) and `_v`,
 * the same version as a fixed-width decimal string (zero-padded to VERSION_DIGITS). `_v` exists
 * because the guard must order versions numerically inside one atomic server-side filter: the
 * plain string orders lexicographically ("9" > "10"), a double loses precision past 2^53, Long is
 * signed 64-bit while ESDB commit positions are unsigned 64-bit, and Decimal128 is not served by
 * every server speaking MongoDB's protocol (FerretDB refuses it); digit strings of one width
 * order as the numbers do, on any server. `_v` is projected away on every read.
 */
type MongoDoc = ReadDoc & { _v?: string };
interface CheckpointDoc {
  _id: string;
  position: string;
}

const CHECKPOINTS = '_checkpoints';
const HIDE_V = { projection: { _v: 0 } } as const;
const DUPLICATE_KEY = 11000;
/** Server codes for a document too large to store (BSONObjectTooLarge and its update-path kin). */
const TOO_LARGE = new Set([10334, 17419, 17420]);
const tooLarge = (err: unknown) =>
  (err instanceof MongoServerError && typeof err.code === 'number' && TOO_LARGE.has(err.code)) ||
  (err instanceof Error && /larger than the maximum size/i.test(err.message));

/** Digits of `_v`: room for any unsigned 128-bit position (an ESDB commit position is 64-bit). */
export const VERSION_DIGITS = 40;
/** The version as `_v`: its digits, zero-padded to one width, so strings order as the numbers do. */
export function orderedVersion(version: bigint): string {
  const digits = version.toString();
  if (version < 0n || digits.length > VERSION_DIGITS)
    throw new RangeError(`a read-model version must be 0 to ${VERSION_DIGITS} digits; got ${digits}`);
  return digits.padStart(VERSION_DIGITS, '0');
}
/** Matches a stored doc that `version` may overwrite: no numeric version yet, or an older one. */
const olderThan = (id: string, version: bigint): MongoFilter<MongoDoc> => ({
  _id: id,
  $or: [{ _v: { $exists: false } }, { _v: { $lt: orderedVersion(version) } }],
});

/** A stored document as readers see it: escaped keys given back as written. */
const asRead = (doc: MongoDoc): ReadDoc => mapKeys(doc, decodeKey) as ReadDoc;

/** Read store on MongoDB (production, with a separate projector service). */
export class MongoReadStore implements ReadStore {
  private readonly db: Db;

  constructor(
    private readonly client: MongoClient,
    dbName?: string,
  ) {
    this.db = client.db(dbName);
  }

  /** Connects to `url` (database from the URL path unless `dbName` is given); the store owns the client. */
  static async connect(url: string, dbName?: string): Promise<MongoReadStore> {
    // ignoreUndefined: a property holding undefined is left out (the driver would store null), as
    // the memory store and JSON answers leave it out.
    const client = new MongoClient(url, { ignoreUndefined: true });
    await client.connect();
    return new MongoReadStore(client, dbName);
  }

  /**
   * One atomic replaceOne: the filter matches only an older doc, so the guard and the write
   * cannot interleave with another writer. When the doc exists with a newer or equal version the
   * filter misses, the upsert tries to insert the same `_id` and fails with a duplicate key: that
   * loser is "not written". One retry covers the race where two writers both saw no doc and
   * the older version inserted first: the retry now matches it and overwrites. (The server does
   * not retry this itself: it only does for pure equality filters.) Replace rather than $set: a
   * field the projection dropped must go.
   */
  async upsert(collection: string, id: string, doc: Record<string, unknown>, version: bigint): Promise<boolean> {
    const { _id, _version, _v, ...fields } = doc;
    // Refused before it is sent, as the memory store refuses it (the projector sets it aside at once).
    const problem = bsonProblem({ ...fields, _version: version.toString() });
    if (problem) throw new DocumentRefused(collection, id, problem);
    // Keys a server refuses ($id of a JSON Schema, "a.b") are written escaped and read back as given.
    const stored = mapKeys(fields, encodeKey) as Record<string, unknown>;
    const replacement = { ...stored, _version: version.toString(), _v: orderedVersion(version) };
    for (let attempt = 0; ; attempt++) {
      try {
        const res = await this.coll(collection).replaceOne(olderThan(id, version), replacement, {
          upsert: true,
          ignoreUndefined: true,
        });
        return res.matchedCount + res.upsertedCount > 0;
      } catch (err) {
        if (tooLarge(err)) throw new DocumentRefused(collection, id, (err as Error).message);
        if (!(err instanceof MongoServerError && err.code === DUPLICATE_KEY)) throw err;
        if (attempt > 0) return false;
      }
    }
  }

  async delete(collection: string, id: string, version: bigint): Promise<boolean> {
    const res = await this.coll(collection).deleteOne(olderThan(id, version));
    return res.deletedCount > 0;
  }

  async ensureIndex(collection: string, fields: string | readonly string[]): Promise<void> {
    const keys = typeof fields === 'string' ? [fields] : fields;
    await this.coll(collection).createIndex(Object.fromEntries(keys.map((field) => [field, 1])));
  }

  async get(collection: string, id: string): Promise<ReadDoc | undefined> {
    const doc = await this.coll(collection).findOne({ _id: id }, HIDE_V);
    return doc ? asRead(doc) : undefined;
  }

  async find(collection: string, filter: Filter = {}, options: FindOptions = {}): Promise<ReadDoc[]> {
    const cursor = this.coll(collection).find(filter as MongoFilter<MongoDoc>, HIDE_V);
    if (options.sort) cursor.sort(options.sort);
    if (options.skip) cursor.skip(options.skip);
    if (options.limit) cursor.limit(options.limit);
    return (await cursor.toArray()).map(asRead);
  }

  async count(collection: string, filter: Filter = {}): Promise<number> {
    return this.coll(collection).countDocuments(filter as MongoFilter<MongoDoc>);
  }

  async clear(collection: string): Promise<void> {
    await this.coll(collection).deleteMany({});
  }

  async getCheckpoint(name: string): Promise<bigint | undefined> {
    const doc = await this.db.collection<CheckpointDoc>(CHECKPOINTS).findOne({ _id: name });
    return doc ? BigInt(doc.position) : undefined;
  }

  async setCheckpoint(name: string, position: bigint): Promise<void> {
    await this.db
      .collection<CheckpointDoc>(CHECKPOINTS)
      .updateOne({ _id: name }, { $set: { position: position.toString() } }, { upsert: true });
  }

  async getCheckpoints(names: readonly string[]): Promise<Map<string, bigint>> {
    const docs = await this.db
      .collection<CheckpointDoc>(CHECKPOINTS)
      .find({ _id: { $in: [...names] } })
      .toArray();
    return new Map(docs.map((doc) => [doc._id, BigInt(doc.position)]));
  }

  async setCheckpoints(positions: ReadonlyMap<string, bigint>): Promise<void> {
    if (positions.size === 0) return;
    await this.db.collection<CheckpointDoc>(CHECKPOINTS).bulkWrite(
      [...positions].map(([name, position]) => ({
        updateOne: { filter: { _id: name }, update: { $set: { position: position.toString() } }, upsert: true },
      })),
      { ordered: false },
    );
  }

  async ping(): Promise<void> {
    await this.client.db('admin').command({ ping: 1 });
  }

  async close(): Promise<void> {
    await this.client.close();
  }

  private coll(name: string): Collection<MongoDoc> {
    return this.db.collection<MongoDoc>(name);
  }
}
