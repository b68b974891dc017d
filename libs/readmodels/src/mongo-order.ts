import { isDocument } from './bson-limits';
import type { Sort } from './read-store.port';

/**
 * MongoDB's sort, for the memory store: mingo sorts arrays by comparing them whole and reverses its
 * ascending order for a descending sort, where MongoDB sorts a document by one key per field, the
 * smallest value the field holds ascending and the largest descending. No collation: MongoDB then
 * compares strings by their UTF-8 bytes.
 */
export function sortDocs<Doc extends Record<string, unknown>>(docs: readonly Doc[], sort: Sort): Doc[] {
  const fields = Object.entries(sort).map(([path, direction]) => ({ path: path.split('.'), direction }));
  const keyed = docs.map((doc) => ({ doc, keys: fields.map(({ path, direction }) => sortKey(doc, path, direction)) }));
  // Array.prototype.sort is stable: documents with equal keys keep their order, as MongoDB leaves them unordered.
  keyed.sort((a, b) => {
    for (let i = 0; i < fields.length; i++) {
      const order = compareValues(a.keys[i], b.keys[i]);
      if (order !== 0) return order * fields[i]!.direction;
    }
    return 0;
  });
  return keyed.map(({ doc }) => doc);
}

/** The sort key of an empty array: MongoDB orders it before null and a missing field. */
const EMPTY_ARRAY = Symbol('empty array');

/** The document's key for one sort field: the smallest value the path reaches ascending, the largest descending. */
function sortKey(doc: unknown, path: readonly string[], direction: 1 | -1): unknown {
  const values: unknown[] = [];
  reach(doc, path, 0, values);
  let key = values[0];
  for (const value of values) if (compareValues(value, key) * direction < 0) key = value;
  return key;
}

/**
 * The values `path` reaches, as MongoDB collects sort keys: through an array the path goes on in
 * each element (an element that is not a sub-document gives null), a numeric step names an
 * element; an array at the end gives its elements, or EMPTY_ARRAY; anything missing gives null.
 */
function reach(value: unknown, path: readonly string[], step: number, out: unknown[]): void {
  if (step === path.length) {
    if (!Array.isArray(value)) out.push(value ?? null);
    else if (value.length === 0) out.push(EMPTY_ARRAY);
    else for (const item of value as unknown[]) out.push(item);
    return;
  }
  const field = path[step]!;
  if (Array.isArray(value)) {
    if (/^\d+$/.test(field)) return reach(value[Number(field)], path, step + 1, out);
    if (value.length === 0) out.push(null);
    for (const item of value)
      if (isDocument(item)) reach(item[field], path, step + 1, out);
      else out.push(null);
    return;
  }
  if (isDocument(value)) reach(value[field], path, step + 1, out);
  else out.push(null);
}

/** MongoDB's canonical type order (null and missing alike), for the values a read model holds. */
function rank(value: unknown): number {
  if (value === EMPTY_ARRAY) return 0;
  if (value === null || value === undefined) return 5;
  switch (typeof value) {
    case 'number':
    case 'bigint':
      return 10;
    case 'string':
      return 15;
    case 'boolean':
      return 40;
  }
  if (Array.isArray(value)) return 25;
  if (value instanceof Date) return 45;
  if (value instanceof RegExp) return 50;
  if (ArrayBuffer.isView(value)) return 30;
  return 20;
}

/** MongoDB's comparison of two values (BSON order, no collation): negative, zero or positive. */
export function compareValues(a: unknown, b: unknown): number {
  const byType = rank(a) - rank(b);
  if (byType !== 0) return byType;
  switch (rank(a)) {
    case 10:
      return compareNumbers(a as number | bigint, b as number | bigint);
    case 15:
      return compareStrings(a as string, b as string);
    case 40:
      return Number(a) - Number(b);
    case 45:
      return compareNumbers((a as Date).getTime(), (b as Date).getTime());
    case 50:
      return compareStrings(String(a), String(b));
    case 30:
      return compareBytes(a as ArrayBufferView, b as ArrayBufferView);
    case 20:
    case 25:
      return compareDocuments(a as object, b as object);
    default:
      return 0;
  }
}

/** NaN equals NaN and comes before every other number, as in MongoDB. */
function compareNumbers(a: number | bigint, b: number | bigint): number {
  const nanA = typeof a === 'number' && Number.isNaN(a);
  const nanB = typeof b === 'number' && Number.isNaN(b);
  if (nanA || nanB) return Number(nanB) - Number(nanA);
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * By code point, as UTF-8 bytes order: UTF-16 units order the same way except a surrogate (half
 * of a code point above U+FFFF) against a unit from U+E000, which JavaScript's `<` puts first.
 */
function compareStrings(a: string, b: string): number {
  if (a === b) return 0;
  const length = Math.min(a.length, b.length);
  for (let i = 0; i < length; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x === y) continue;
    const surrogateX = x >= 0xd800 && x <= 0xdfff;
    const surrogateY = y >= 0xd800 && y <= 0xdfff;
    if (surrogateX !== surrogateY) return surrogateX ? 1 : -1;
    return x - y;
  }
  return a.length - b.length;
}

/** Field by field in stored order: each value's type, then the field's name, then the value; a prefix first. */
function compareDocuments(a: object, b: object): number {
  const left = Object.entries(a);
  const right = Object.entries(b);
  for (let i = 0; i < Math.min(left.length, right.length); i++) {
    const [nameA, valueA] = left[i]!;
    const [nameB, valueB] = right[i]!;
    const order =
      rank(valueA) - rank(valueB) ||
      (Array.isArray(a) ? 0 : compareStrings(nameA, nameB)) ||
      compareValues(valueA, valueB);
    if (order !== 0) return order;
  }
  return left.length - right.length;
}

/** Binary data: the shorter first, then byte by byte. */
function compareBytes(a: ArrayBufferView, b: ArrayBufferView): number {
  if (a.byteLength !== b.byteLength) return a.byteLength - b.byteLength;
  const x = new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
  const y = new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
  for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return x[i]! - y[i]!;
  return 0;
}
