import type { AllFilter } from './event-store.port';

/**
 * Prefix filters shared by the adapters. A filter dimension that is absent or empty does not
 * restrict; the stream and event-type dimensions are AND-ed, the prefixes within one are OR-ed.
 */

/** The prefixes of one dimension, or undefined when that dimension does not restrict. */
export const activePrefixes = (prefixes: readonly string[] | undefined): readonly string[] | undefined =>
  prefixes && prefixes.length > 0 ? prefixes : undefined;

/**
 * The smallest string greater than every string starting with `prefix`, in code point order
 * (SQLite's BINARY collation compares UTF-8 bytes, which is code point order), so that
 * `value >= prefix AND value < upper` is an index-friendly "starts with". Undefined means no
 * upper bound (empty prefix, or a prefix made only of U+10FFFF).
 */
export function prefixUpperBound(prefix: string): string | undefined {
  const codePoints = Array.from(prefix);
  while (codePoints.length > 0) {
    const last = codePoints.pop()!.codePointAt(0)!;
    if (last === 0x10ffff) continue; // cannot increment: carry into the previous code point
    // Skip the surrogate range: those are not scalar values and cannot be stored as UTF-8.
    const next = last === 0xd7ff ? 0xe000 : last + 1;
    return codePoints.join('') + String.fromCodePoint(next);
  }
  return undefined;
}

const startsWithAny = (value: string, prefixes: readonly string[] | undefined): boolean =>
  prefixes === undefined || prefixes.some((prefix) => value.startsWith(prefix));

/** Client-side check of a filter (used where the server cannot apply all of it). */
export const matchesFilter = (filter: AllFilter | undefined, stream: string, type: string): boolean =>
  filter === undefined ||
  (startsWithAny(stream, activePrefixes(filter.streamPrefixes)) &&
    startsWithAny(type, activePrefixes(filter.eventTypePrefixes)));
