/**
 * Top-k retrieval over impact postings by windows of ids (block-max pruning over fixed id ranges,
 * as in Mallia, Suel and Tonellotto 2024): a document is scored only where the lists' maxima say
 * it could still enter the top k.
 *
 * Each query term brings a postings list: document ids ascending, and per posting the term's whole
 * contribution to that document's score (BM25 over title and text, times the page's prior). A
 * document's score is the sum of its postings' contributions. Each list keeps, over every window
 * of 64 ids, its largest contribution there (and over every group of 8 windows): ranges of ids,
 * unlike blocks of postings, line up across lists, so the sum of the lists' maxima over a window
 * bounds every document in it, closely (a page rarely has every word at its strongest). The
 * lists are read only in the windows whose bound reaches the k-th best score found so far; a
 * window is read whole, its documents' scores summed in a small array, so no list is searched
 * document by document. Groups are passed over the same way, eight windows at a time; a common
 * word's list keeps where each group's postings start, so a group is reached without a search. A
 * rarer word (fewer postings than windows) keeps no window maxima: a word of middling rarity keeps
 * its groups' maxima and has its windows' computed from its postings in the groups read; a rarer
 * one has both computed from its few postings, once a query.
 *
 * The threshold starts high rather than at zero: each list's best postings (kept with the list)
 * are scored exactly first, so the k-th best of those is a score the answer must beat from the
 * first window on (threshold estimation). Pages like each other get neighbouring ids (see
 * `clustered`), so a query's strong documents gather in few windows.
 */

import {
  GROUP,
  GROUP_ID_SHIFT,
  GROUP_SHIFT,
  type ImpactList,
  type Scored,
  seek,
  WINDOW,
  WINDOW_SHIFT,
  windowCount,
} from './impact-list';
import { TopHeap } from './top-heap';

/** Relative margin for rounding: sums of a few dozen doubles differ by far less. */
const ROUNDING = 1e-12;

export interface TopKStats {
  /** Documents whose score was summed (those of the windows read, and the seeds). */
  scored: number;
  /** Windows whose postings were read. */
  windows: number;
}

/**
 * The `k` best documents by summed impact among those `admit` accepts (every one when absent),
 * best first; on a tie, the lower id. Exact: the same documents and scores as scoring every match
 * (each document's contributions summed in the order of `lists`).
 */
export function topK(lists: ImpactList[], k: number, admit?: (doc: number) => boolean, stats?: TopKStats): Scored[] {
  const ls = lists.filter((l) => l.docs.length > 0);
  const n = ls.length;
  if (n === 0 || k <= 0) return [];
  // Each list's arrays, read in the loops below from arrays of one kind each: the lists themselves
  // come in several shapes (computed where read, loosely matched), which slows every property read.
  const docsOf = ls.map((l) => l.docs);
  const sizeOf = Int32Array.from(docsOf, (docs) => docs.length);
  const weight = Float64Array.from(ls, (l) => l.weight ?? 1);
  const stepOf = Float64Array.from(ls, (l) => l.step);
  /** What one unit of a list's maxima is worth with its weight (a power of two times the weight: exact). */
  const unitWorth = Float64Array.from(ls, (l) => l.step * (l.weight ?? 1));
  const impactsOf = ls.map((l) => l.impacts);
  const computeOf = ls.map((l) => l.impactOf ?? null);
  const impact = (j: number, p: number): number => {
    const compute = computeOf[j];
    return compute === null ? impactsOf[j][p] * stepOf[j] : compute(p);
  };
  // Each list's maxima over windows of ids: a dense list keeps them; a sparse one's (a rarer
  // word's) are computed below from its few postings, once, rather than by each window the
  // groups ask about reading its postings there (a fifth of a query's top-k at a million pages).
  const maxOf = ls.map((l) => l.windows?.max ?? new Uint8Array(windowCount(l.docs)));
  // Where each group's postings start in a dense list (null for a sparse one, which is searched).
  const groupStartOf = ls.map((l) => l.windows?.groupStart ?? null);
  /** The position of group `g`'s first posting in dense list `j` (the list's length past its last group). */
  const groupStart = (j: number, g: number): number => {
    const starts = groupStartOf[j]!;
    return g < starts.length ? starts[g] : sizeOf[j];
  };
  /** The first position at or after `doc` in list `j`, by its group's start in a dense list. */
  const find = (j: number, doc: number): number => {
    const docs = docsOf[j];
    if (groupStartOf[j] === null) return (pos[j] = seek(docs, pos[j], doc));
    const g = doc >>> GROUP_ID_SHIFT;
    let lo = groupStart(j, g);
    let hi = groupStart(j, g + 1);
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (docs[mid] < doc) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };

  const heap = new TopHeap(k);
  let scored = 0;
  let windowsRead = 0;

  // Seeds: each list's best postings, scored exactly over every list, in id order (each list is
  // then searched forward from the last seed, not from its start).
  const seeded = new Set<number>();
  for (let i = 0; i < n; i++) for (const p of ls[i].best) seeded.add(docsOf[i][p]);
  const seeds = Uint32Array.from(seeded).sort();
  // Where a sparse list was last read: it is searched forward from there.
  const pos = new Int32Array(n);
  for (const doc of seeds) {
    if (admit && !admit(doc)) continue;
    let score = 0;
    for (let j = 0; j < n; j++) {
      const p = find(j, doc);
      if (p < sizeOf[j] && docsOf[j][p] === doc) score += impact(j, p) * weight[j];
    }
    scored++;
    heap.offer(doc, score);
  }
  pos.fill(0);
  // What a bound must reach for a window to be read: the threshold less a margin of rounding. A
  // bound and a score sum the same impacts in different orders, which can leave a document's
  // score a last binary digit above a bound equal to it; the margin keeps pruning exact (and a
  // document that only ties the threshold may still win the tie by its lower id).
  let threshold = heap.threshold;
  let floor = lowered(threshold);

  let groups = 0;
  for (let j = 0; j < n; j++) groups = Math.max(groups, Math.ceil(windowCount(docsOf[j]) / GROUP));
  const groupBound = new Float64Array(groups);
  /** Lists whose window maxima are filled from their postings in each group read (see `groupMax`). */
  const fills = new Uint8Array(n);
  for (let j = 0; j < n; j++) {
    const worth = unitWorth[j];
    const windows = ls[j].windows;
    const kept = windows?.groupMax ?? ls[j].groupMax;
    if (kept) {
      for (let g = 0; g < kept.length; g++) groupBound[g] += kept[g] * worth;
      // A list keeping only its groups' maxima has its windows' filled in the groups read.
      if (!windows) fills[j] = 1;
      continue;
    }
    // Each window's and group's largest impact, from the postings.
    const docs = docsOf[j];
    const size = sizeOf[j];
    const impacts = impactsOf[j];
    const compute = computeOf[j];
    const step = stepOf[j];
    const windowMax = maxOf[j];
    let group = -1;
    let max = 0;
    for (let p = 0; p < size; p++) {
      // In units of the list's step (exact: the step is a power of two).
      const units = compute === null ? impacts[p] : compute(p) / step;
      const w = docs[p] >>> WINDOW_SHIFT;
      if (units > windowMax[w]) windowMax[w] = units;
      const g = w >>> GROUP_SHIFT;
      if (g !== group) {
        if (group >= 0) groupBound[group] += max * worth;
        group = g;
        max = 0;
      }
      if (units > max) max = units;
    }
    groupBound[group] += max * worth;
  }

  // A window's documents' scores, by their offset in the window; `stamp` says which are this window's.
  const sums = new Float64Array(WINDOW);
  const stamp = new Int32Array(WINDOW);
  const touched = new Int32Array(WINDOW);
  let window = 0;
  for (let g = 0; g < groups; g++) {
    if (groupBound[g] < floor) continue;
    const first = g * GROUP;
    for (let j = 0; j < n; j++) {
      pos[j] = groupStartOf[j] === null ? seek(docsOf[j], pos[j], first * WINDOW) : groupStart(j, g);
      if (fills[j] === 0) continue;
      const docs = docsOf[j];
      const size = sizeOf[j];
      const impacts = impactsOf[j];
      const compute = computeOf[j];
      const windowMax = maxOf[j];
      const end = (first + GROUP) * WINDOW;
      for (let p = pos[j]; p < size && docs[p] < end; p++) {
        const units = compute === null ? impacts[p] : compute(p) / stepOf[j];
        const w = docs[p] >>> WINDOW_SHIFT;
        if (units > windowMax[w]) windowMax[w] = units;
      }
    }
    for (let w = first; w < first + GROUP; w++) {
      const base = w * WINDOW;
      const end = base + WINDOW;
      let bound = 0;
      for (let j = 0; j < n; j++) {
        const max = maxOf[j];
        if (w < max.length) bound += max[w] * unitWorth[j];
      }
      if (bound < floor) continue;
      windowsRead++;
      window++;
      let count = 0;
      // Each list's postings in the window, added in list order (as exhaustive scoring adds them).
      for (let j = 0; j < n; j++) {
        const docs = docsOf[j];
        const size = sizeOf[j];
        let p = pos[j];
        while (p < size && docs[p] < base) p++;
        const compute = computeOf[j];
        if (compute === null) {
          const impacts = impactsOf[j];
          const worth = unitWorth[j];
          for (; p < size && docs[p] < end; p++) {
            const at = docs[p] - base;
            const value = impacts[p] * worth;
            if (stamp[at] !== window) {
              stamp[at] = window;
              sums[at] = value;
              touched[count++] = at;
            } else sums[at] += value;
          }
        } else {
          const w8 = weight[j];
          for (; p < size && docs[p] < end; p++) {
            const at = docs[p] - base;
            const value = compute(p) * w8;
            if (stamp[at] !== window) {
              stamp[at] = window;
              sums[at] = value;
              touched[count++] = at;
            } else sums[at] += value;
          }
        }
        pos[j] = p;
      }
      scored += count;
      for (let t = 0; t < count; t++) {
        const at = touched[t];
        const score = sums[at];
        const doc = base + at;
        // What cannot win is passed over before the (dearer) filter is asked about it.
        if (heap.full && (score < threshold || (score === threshold && doc > heap.docs[0]))) continue;
        // A seed is in the heap already (or was pushed out of it by better ones).
        if (seeded.has(doc) || (admit && !admit(doc))) continue;
        heap.offer(doc, score);
        threshold = heap.threshold;
        floor = lowered(threshold);
      }
    }
  }
  if (stats) {
    stats.scored = scored;
    stats.windows = windowsRead;
  }
  return heap.sorted();
}

/** A threshold less a margin of rounding: a few units of the last place of a double. */
function lowered(threshold: number): number {
  return threshold - Math.abs(threshold) * ROUNDING;
}
