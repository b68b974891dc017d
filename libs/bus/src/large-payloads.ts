import { randomUUID } from 'node:crypto';
import { nanos, type NatsConnection, type ObjectStore, StorageType } from 'nats';

/**
 * Payloads larger than one NATS message (the server's `max_payload`, 1 MiB by default): an extract
 * of a long page with its full content, a crawled PDF's bytes, a task whose input nears the
 * gateway's body limit. NATS refuses to publish them: a reply was lost (the caller saw a timeout,
 * the work done and charged), a request failed with the client library's raw error. Such a
 * payload goes into a JetStream object store (which chunks it) and the message carries a
 * reference in its place; the receiver reads it back and deletes it. One nobody reads expires with
 * the bucket's TTL, and the bucket holds at most `maxBytes`: a reply it cannot hold is answered as
 * a 502 naming both sizes, at once, not a timeout.
 */
export interface LargePayloadOptions {
  /** The object store bucket (one for every service of a deployment). */
  bucket?: string;
  /** What the bucket holds at most; a payload that does not fit is refused. */
  maxBytes?: number;
  /** How long an unread payload is kept. */
  ttlMs?: number;
  /** Nodes of a NATS cluster that keep the bucket (3 on a cluster of three: one node down loses nothing). */
  replicas?: number;
}

export const LARGE_PAYLOAD_DEFAULTS: Required<LargePayloadOptions> = {
  bucket: 'bus-large-payloads',
  maxBytes: 1024 * 1024 * 1024,
  ttlMs: 5 * 60_000,
  replicas: 1,
};

/** What travels in the payload's place; `part`: the stored bytes are a reply packet, the value its `response`. */
export interface LargePayloadRef {
  $bus_large_payload: { bucket: string; name: string; bytes: number; part?: 'response' };
}

export function isLargePayloadRef(value: unknown): value is LargePayloadRef {
  const ref = (value as { $bus_large_payload?: Partial<LargePayloadRef['$bus_large_payload']> } | null)
    ?.$bus_large_payload;
  return (
    typeof ref === 'object' &&
    ref !== null &&
    typeof ref.bucket === 'string' &&
    typeof ref.name === 'string' &&
    typeof ref.bytes === 'number'
  );
}

/** NATS refused to publish a message for its size (nats.js checks it against the server's max_payload before sending). */
export const isTooLarge = (err: unknown) => (err as { code?: unknown } | null)?.code === 'MAX_PAYLOAD_EXCEEDED';

/** One bucket handle per connection and bucket name (binding or creating it is a JetStream call). */
const stores = new WeakMap<NatsConnection, Map<string, Promise<ObjectStore>>>();

/**
 * The bucket, created with `options` when it does not exist yet: a writer's, or the defaults for a
 * reader (which finds it made by the writer of the payload, so never made unbounded).
 */
function bucket(nc: NatsConnection, name: string, options: Required<LargePayloadOptions>): Promise<ObjectStore> {
  let mine = stores.get(nc);
  if (!mine) stores.set(nc, (mine = new Map()));
  let handle = mine.get(name);
  if (!handle) {
    handle = nc.jetstream().views.os(name, {
      storage: StorageType.File,
      ttl: nanos(options.ttlMs),
      max_bytes: options.maxBytes,
      replicas: options.replicas,
      description: 'bus payloads larger than a NATS message',
    });
    // A failed attempt (JetStream not up yet) is not remembered: the next large payload tries again.
    handle.catch(() => mine.delete(name));
    mine.set(name, handle);
  }
  return handle;
}

/** A payload not found is looked for again after 25, 50, … up to this many ms (under 0.8 s in all). */
const MISSING_RETRY_MAX_MS = 400;

/** Stores serialized bytes (JSON); the reference to send in their place. */
export async function storeLargePayload(
  nc: NatsConnection,
  bytes: Uint8Array,
  options: LargePayloadOptions = {},
  part?: 'response',
): Promise<LargePayloadRef> {
  const settings = { ...LARGE_PAYLOAD_DEFAULTS, ...options };
  // Refused before a chunk is written: a put that fails midway leaves chunks the client library's
  // clean-up can miss (it purges while later chunks are still on their way), and they would fill
  // the bucket for every payload after it until they expire.
  if (bytes.length > settings.maxBytes)
    throw new Error(`larger than the whole bucket "${settings.bucket}" (${settings.maxBytes} bytes)`);
  const name = randomUUID();
  await (await bucket(nc, settings.bucket, settings)).putBlob({ name }, bytes);
  return { $bus_large_payload: { bucket: settings.bucket, name, bytes: bytes.length, ...(part && { part }) } };
}

/**
 * The value a reference stands for, read back and deleted; null when it is gone (expired, or the
 * bucket lost).
 */
export async function loadLargePayload(nc: NatsConnection, ref: LargePayloadRef): Promise<{ value: unknown } | null> {
  const { bucket: from, name, part } = ref.$bus_large_payload;
  const os = await bucket(nc, from, LARGE_PAYLOAD_DEFAULTS);
  let blob = await os.getBlob(name);
  // A replicated bucket answers reads from any of its nodes (nats.js makes object stores with
  // allow_direct), and one a moment behind the write does not have it yet: ask again, briefly.
  for (let wait = 25; !blob && wait <= MISSING_RETRY_MAX_MS; wait *= 2) {
    await new Promise((resolve) => setTimeout(resolve, wait));
    blob = await os.getBlob(name);
  }
  if (!blob) return null;
  // Read once: the copy is no longer needed (the bucket's TTL removes it should this fail).
  void os.delete(name).catch(() => undefined);
  const value = JSON.parse(Buffer.from(blob.buffer, blob.byteOffset, blob.byteLength).toString('utf8')) as unknown;
  return { value: part === 'response' ? (value as { response?: unknown }).response : value };
}
