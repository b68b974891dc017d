/**
 * Impact postings: for one query term, document ids ascending and per posting the term's whole
 * contribution to that document's score (BM25 over title and text, times the page's prior), with
 * the largest contribution of each block and of the list (what `topK` bounds documents by), and
 * the positions of the list's best postings (what seeds its threshold).
 */

/** Postings per block: the unit of block-max skipping. */
export const BLOCK = 64;
/** How many of a list's best postings are kept apart to seed the threshold (see `topK`). */
export const SEEDS = 32;
export interface ImpactList {
  /** Ascending document ids. */
  docs: Uint32Array;
  /** The term's contribution to each document's score, parallel to `docs`. */
  impacts: Float32Array;
  /** The largest impact of each block of `BLOCK` postings. */
  blockMax: Float32Array;
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
  return list.impactOf === undefined ? list.impacts[p] : list.impactOf(p);
}

export interface Scored {
  doc: number;
  score: number;
}

/** Builds a list's block maxima from its impacts. */
export function impactList(docs: Uint32Array, impacts: Float32Array): ImpactList {
  const blocks = Math.ceil(docs.length / BLOCK);
  const blockMax = new Float32Array(blocks);
  let max = 0;
  for (let b = 0; b < blocks; b++) {
    let m = 0;
    const end = Math.min(docs.length, (b + 1) * BLOCK);
    for (let i = b * BLOCK; i < end; i++) if (impacts[i] > m) m = impacts[i];
    blockMax[b] = m;
    if (m > max) max = m;
  }
  return { docs, impacts, blockMax, max, best: bestPositions(impacts, blockMax) };
}

/** The positions of the `SEEDS` largest impacts, largest first (the earlier position on a tie). */
function bestPositions(impacts: Float32Array, blockMax: Float32Array): Uint32Array {
  const size = Math.min(SEEDS, impacts.length);
  // Kept sorted, best first; a posting enters only when it beats the last kept one.
  const at: number[] = [];
  const value: number[] = [];
  for (let b = 0; b < blockMax.length; b++) {
    if (at.length === size && blockMax[b] <= value[size - 1]) continue;
    const end = Math.min(impacts.length, (b + 1) * BLOCK);
    for (let i = b * BLOCK; i < end; i++) {
      const v = impacts[i];
      if (at.length === size && v <= value[size - 1]) continue;
      let j = at.length === size ? size - 1 : at.length;
      while (j > 0 && value[j - 1] < v) {
        at[j] = at[j - 1];
        value[j] = value[j - 1];
        j--;
      }
      at[j] = i;
      value[j] = v;
    }
  }
  return Uint32Array.from(at);
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
