import { calculateObjectSize } from 'bson';

/** MongoDB's largest document (BSON bytes). */
export const MAX_DOCUMENT_BYTES = 16 * 1024 * 1024;
/**
 * MongoDB's documented nesting limit: the document itself is level 1, each object or array in it one
 * level more. (The server's own check is looser, 180 levels by default, and FerretDB 1.x has none:
 * both adapters refuse past 100 before writing, so a document is stored on every server or on none.)
 */
export const MAX_NESTING_LEVELS = 100;

/**
 * What MongoDB refuses to store. Permanent: the same event yields the same document, so writing it
 * again can only be refused again (the projector sets it aside at once, without retries).
 */
export class DocumentRefused extends Error {
  constructor(collection: string, id: string, reason: string) {
    super(`document ${collection}/${id} refused: ${reason}`);
    this.name = 'DocumentRefused';
  }
}

/** Whether `error` is a store's refusal of the document itself (not a transient failure). */
export const isDocumentRefused = (error: unknown): boolean =>
  error instanceof DocumentRefused || (error instanceof Error && error.name === 'DocumentRefused');

/**
 * Why MongoDB would refuse this document, or null: a key holding a NUL byte (BSON cannot encode
 * it), nesting deeper than 100 levels, or a document over 16 MiB. The in-memory read store applies
 * the same check, so what production would refuse fails in every test too. The walk is iterative
 * and stops at the first problem, so a document nested past any stack is refused, not overflowed.
 */
export function bsonProblem(doc: Record<string, unknown>): string | null {
  const stack: [node: object, level: number][] = [[doc, 1]];
  while (stack.length > 0) {
    const [node, level] = stack.pop()!;
    if (level > MAX_NESTING_LEVELS)
      return `it is nested over ${MAX_NESTING_LEVELS} levels deep, MongoDB's nesting limit`;
    const list = Array.isArray(node);
    for (const [key, value] of Object.entries(node)) {
      if (!list && key.includes('\u0000')) return `the key ${JSON.stringify(key)} holds a NUL byte`;
      if (value && typeof value === 'object' && !(value instanceof Date)) stack.push([value as object, level + 1]);
    }
  }
  const bytes = calculateObjectSize(doc);
  return bytes > MAX_DOCUMENT_BYTES
    ? `${bytes} bytes is over MongoDB's ${MAX_DOCUMENT_BYTES}-byte document limit`
    : null;
}

/**
 * The document as MongoDB stores it when written with `ignoreUndefined` (as the Mongo read store
 * writes): a property holding `undefined` is left out, an `undefined` array item becomes null. A
 * deep copy (the caller keeps its object); what is not a plain object (a Date) is cloned whole.
 */
export function asStored(value: unknown): unknown {
  if (Array.isArray(value)) return value.map((item) => (item === undefined ? null : asStored(item)));
  // A primitive is its own copy (structuredClone of each leaf took a fifth of a log's replay).
  if (value === null || typeof value !== 'object') return value;
  // Anything but a plain object (a Date, a typed array, a Map) is copied as it is, as before.
  if (!isPlain(value)) return structuredClone(value);
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) if (item !== undefined) out[key] = asStored(item);
  return out;
}

/**
 * A key as a MongoDB-protocol server will store it: one starting with `$` or holding `.` (a JSON
 * Schema's `$id`, a metadata key "a.b") is refused by FerretDB and by MongoDB before 5.0, and is
 * ambiguous in queries on every version. Such a key, and one starting with `%`, is written as `%`
 * then the key with `%`, `.` and `$` percent-encoded, so `decodeKey` gives it back; any other key
 * is written as it is. (A printable mark: FerretDB cannot read back a key holding a control character.)
 */
export function encodeKey(key: string): string {
  if (!key.startsWith('$') && !key.includes('.') && !key.startsWith('%')) return key;
  return `%${key.replace(/[%.$]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)}`;
}

export function decodeKey(key: string): string {
  return key.startsWith('%') ? decodeURIComponent(key.slice(1)) : key;
}

/** A document's keys, at every depth, through `codec` (arrays and Dates kept as they are). */
export function mapKeys(value: unknown, codec: (key: string) => string): unknown {
  if (Array.isArray(value)) return value.map((item) => mapKeys(item, codec));
  if (value === null || typeof value !== 'object' || value instanceof Date || !isPlain(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) out[codec(key)] = mapKeys(item, codec);
  return out;
}

const isPlain = (value: object) => {
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
};

/** A plain object: what MongoDB stores as a sub-document (not an array, a Date or another class's instance). */
export const isDocument = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value) && isPlain(value);
