/**
 * Impact postings: for one query term, document ids ascending and per posting the term's whole
 * contribution to that document's score (BM25 over title and text, times the page's prior), with
 * the largest contribution over each window of ids and of the list (what `topK` bounds documents
 * by), and the positions of the list's best postings (what seeds its threshold).
 */

/** Ids per window (a power of two, 2^WINDOW_SHIFT): the unit a list's maxima bound. */
export const WINDOW_SHIFT = 6;
export const WINDOW = 1 << WINDOW_SHIFT;
/** Windows per group (2^GROUP_SHIFT): a group's maximum passes over its windows at once. */
export const GROUP_SHIFT = 3;
export const GROUP = 1 << GROUP_SHIFT;
/** Ids per group, as a shift. */
export const GROUP_ID_SHIFT = WINDOW_SHIFT + GROUP_SHIFT;
/** How many of a list's best postings are kept apart to seed the threshold (see `topK`). */
export const SEEDS = 32;
export interface ImpactList {
  /** Ascending document ids. */
  docs: Uint32Array;
  /**
   * The term's contribution to each document's score, parallel to `docs`, in units of `step`:
   * one byte a posting (see `impactList`).
   */
  impacts: Uint8Array;
  /** What one unit of `impacts` is worth: a power of two, so every impact is exact in a float. */
  step: number;
  /** The list's maxima over windows of ids; null for a sparse list (see `keepsWindows`). */
  windows: IdWindows | null;
  /**
   * A list with no window maxima but a posting a group of ids or more (a word of middling rarity):
   * its maxima over groups of ids, so a query bounds its groups without reading its postings (see
   * `keepsGroups`). Absent or null otherwise.
   */
  groupMax?: Uint8Array | null;
  /** The largest impact of the list. */
  max: number;
  /** Multiplies every impact (a loosely matched word weighs less); 1 when absent. */
  weight?: number;
  /** Positions of the list's best postings, best first (ties: the earlier position), at most `SEEDS`. */
  best: Uint32Array;
  /**
   * Computes the impact at a position, for a list built from a word's kept block bounds: only the
   * postings a query reads are computed (then `impacts` is empty). Absent: every impact is in `impacts`.
   */
  impactOf?: (p: number) => number;
}

/** The impact at position `p`. */
export function impactAt(list: ImpactList, p: number): number {
  return list.impactOf === undefined ? list.impacts[p] * list.step : list.impactOf(p);
}

/**
 * The unit a list's impacts are kept in: the smallest power of two that counts its largest impact
 * in 255 units or fewer. A power of two keeps `units * step` exact in a 32-bit float, so block
 * maxima, bounds and scores all see the same values.
 */
export function impactStep(max: number): number {
  if (!(max > 0)) return 1;
  // No finer than the smallest 32-bit float, which the block maxima must hold exactly.
  let step = 2 ** Math.max(-149, Math.ceil(Math.log2(max / 255)));
  // Math.log2 may land a hair low: the largest impact must fit in 255 units.
  while (max / step > 255) step *= 2;
  return step;
}

/** An impact in units of `step`, rounded up: a list keeps no impact below its exact value. */
export function impactUnits(impact: number, step: number): number {
  return Math.ceil(impact / step);
}

/**
 * A list's impacts bounded over fixed ranges of ids: per window of WINDOW ids and per group of
 * GROUP windows, the largest impact (in units of the list's step, 0 where it has no posting).
 * Ranges of ids, not of postings, line up across the lists of a query: a window's bound is the
 * sum of its lists' maxima there (see `topK`).
 */
export interface IdWindows {
  max: Uint8Array;
  groupMax: Uint8Array;
  /**
   * The position of each group's first posting (of the first at or after its first id), and
   * after the last group the list's length: a query starts reading a group there rather than
   * searching the list for it (at a million pages a search of a long list for each group a query
   * reads was a sixth of its top-k). Four bytes a group: a dense list has at least a posting a
   * window, so at most half a byte a posting.
   */
  groupStart: Uint32Array;
}

/** The windows a list with these ids spans (from id 0 to its last). */
export function windowCount(docs: Uint32Array): number {
  return docs.length === 0 ? 0 : (docs[docs.length - 1] >>> WINDOW_SHIFT) + 1;
}

/**
 * Whether a list keeps its window maxima: when it has at least one posting per window of its ids
 * (they then take about a fifth of its bytes at most); a sparser one (a rarer word) is bounded from
 * its few postings by each query that reads it.
 */
export function keepsWindows(docs: Uint32Array): boolean {
  return docs.length > 0 && docs.length >= windowCount(docs);
}

/** The groups a list with these ids spans. */
export function groupCount(docs: Uint32Array): number {
  return Math.ceil(windowCount(docs) / GROUP);
}

/**
 * Whether a list without window maxima keeps its group maxima: when it has at least one posting
 * per group of its ids (a byte a group: at most a fifth of its bytes).
 */
export function keepsGroups(docs: Uint32Array): boolean {
  return !keepsWindows(docs) && docs.length >= groupCount(docs);
}

/** Window maxima all 0, for a list with these ids (its groups' first positions still to fill). */
function emptyWindows(docs: Uint32Array): IdWindows {
  const windows = windowCount(docs);
  const groups = Math.ceil(windows / GROUP);
  return { max: new Uint8Array(windows), groupMax: new Uint8Array(groups), groupStart: new Uint32Array(groups + 1) };
}

/** Each group's first position in `docs` (then the list's length). */
function groupStarts(docs: Uint32Array, groups: number): Uint32Array {
  const starts = new Uint32Array(groups + 1);
  let p = 0;
  for (let g = 0; g < groups; g++) {
    const first = g << GROUP_ID_SHIFT;
    while (p < docs.length && docs[p] < first) p++;
    starts[g] = p;
  }
  starts[groups] = docs.length;
  return starts;
}

/** The window maxima of a list with these impacts (in units of its step). */
export function idWindows(docs: Uint32Array, units: Uint8Array): IdWindows {
  const windows = emptyWindows(docs);
  windows.groupStart = groupStarts(docs, windows.groupMax.length);
  const { max, groupMax } = windows;
  for (let p = 0; p < docs.length; p++) {
    const u = units[p];
    const w = docs[p] >>> WINDOW_SHIFT;
    if (u > max[w]) max[w] = u;
    if (u > groupMax[w >>> GROUP_SHIFT]) groupMax[w >>> GROUP_SHIFT] = u;
  }
  return windows;
}

/** Bytes the window maxima (and groups' first positions) take. */
export function windowBytes(windows: IdWindows | null): number {
  return windows === null ? 0 : windows.max.byteLength + windows.groupMax.byteLength + windows.groupStart.byteLength;
}

export interface Scored {
  doc: number;
  score: number;
}

/**
 * A list from its exact impacts: each kept in one byte, rounded up to a unit of `impactStep` (at
 * most 1/127 of the list's largest; a cached posting takes 5 bytes, not 8), with its window and group maxima,
 * groups' first positions and best positions, all in one pass over the postings (`largest`, when the caller knows it,
 * saves another). Only the first `docs.length` impacts are read: a caller may pass a longer buffer.
 */
export function impactList(
  docs: Uint32Array,
  exact: ArrayLike<number>,
  largest = largestOf(exact, docs.length),
): ImpactList {
  const n = docs.length;
  const step = impactStep(largest);
  // Multiplying by a power of two's inverse is exact: the same units as dividing by the step.
  const perUnit = 1 / step;
  const impacts = new Uint8Array(n);
  const windows = keepsWindows(docs) ? emptyWindows(docs) : null;
  const max = windows?.max;
  const starts = windows?.groupStart;
  /** The next group whose first position is to be set (see `groupStarts`). */
  let nextGroup = 0;
  const ownGroups = windows === null && keepsGroups(docs) ? new Uint8Array(groupCount(docs)) : null;
  const groupMax = windows?.groupMax ?? ownGroups ?? undefined;
  // The best positions, kept sorted best first; a posting enters only when it beats the last kept.
  const size = Math.min(SEEDS, n);
  const at = new Uint32Array(size);
  const value = new Uint8Array(size);
  let kept = 0;
  let most = 0;
  for (let i = 0; i < n; i++) {
    const u = Math.ceil(exact[i] * perUnit);
    impacts[i] = u;
    if (u > most) most = u;
    if (groupMax !== undefined) {
      const w = docs[i] >>> WINDOW_SHIFT;
      const g = w >>> GROUP_SHIFT;
      if (max !== undefined && u > max[w]) max[w] = u;
      if (u > groupMax[g]) groupMax[g] = u;
      // This posting starts its group and every empty one before it.
      if (starts !== undefined) while (nextGroup <= g) starts[nextGroup++] = i;
    }
    if (kept === size && u <= value[size - 1]) continue;
    let j = kept === size ? size - 1 : kept++;
    while (j > 0 && value[j - 1] < u) {
      at[j] = at[j - 1];
      value[j] = value[j - 1];
      j--;
    }
    at[j] = i;
    value[j] = u;
  }
  if (starts !== undefined) starts[starts.length - 1] = n;
  return { docs, impacts, step, windows, groupMax: ownGroups, max: most * step, best: at };
}

function largestOf(values: ArrayLike<number>, n: number): number {
  let largest = 0;
  for (let i = 0; i < n; i++) if (values[i] > largest) largest = values[i];
  return largest;
}

/** The first index at or after `from` whose id is >= `doc` (galloping, then binary search). */
export function seek(docs: Uint32Array, from: number, doc: number): number {
  const n = docs.length;
  if (from >= n || docs[from] >= doc) return from;
  let step = 1;
  let lo = from;
  let hi = from + 1;
  while (hi < n && docs[hi] < doc) {
    lo = hi;
    step <<= 1;
    hi = from + step;
  }
  if (hi > n) hi = n;
  // docs[lo] < doc; the answer is in (lo, hi].
  while (lo + 1 < hi) {
    const mid = (lo + hi) >>> 1;
    if (docs[mid] < doc) lo = mid;
    else hi = mid;
  }
  return hi;
}

/** A document's exact score over the lists (0 when it has none of the terms). */
export function scoreOf(lists: ImpactList[], doc: number): number {
  let score = 0;
  for (const list of lists) {
    const p = seek(list.docs, 0, doc);
    if (p < list.docs.length && list.docs[p] === doc) score += impactAt(list, p) * (list.weight ?? 1);
  }
  return score;
}
