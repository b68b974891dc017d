/**
 * Top-k retrieval over impact postings with MaxScore (Turtle & Flood 1995) and block-max skipping
 * (Ding & Suel 2011): a document is scored only while it can still enter the top k.
 *
 * Each query term brings a postings list: document ids ascending, and per posting the term's whole
 * contribution to that document's score (BM25 over title and text, times the page's prior). A
 * document's score is the sum of its postings' contributions, so a list's largest contribution
 * bounds what it can add. Once the k-th best score exceeds the summed bounds of some lists, a
 * document found in those lists alone cannot enter the top k: candidates come only from the other
 * ("driving") lists, and the rest are probed (by galloping search) only while the candidate can
 * still make it. MaxScore takes the lists with the smallest bounds as probed-only; here, of every
 * set of lists whose bounds sum below the threshold, the one holding the most postings is, so a
 * common word with a middling bound is probed rather than walked. When one list alone drives,
 * whole blocks of it whose best posting cannot lift a document over the threshold are stepped
 * over without being read; with several, a range up to the nearest block end is.
 *
 * The threshold starts high rather than at zero: each list's best postings (kept with the list)
 * are scored exactly first, so the k-th best of those is a score the answer must beat from the
 * first posting on (threshold estimation).
 */

import { BLOCK, type ImpactList, type Scored, seek } from './impact-list';
import { TopHeap } from './top-heap';

/** Up to this many lists, the probed-only set is chosen among all subsets (2^n sums). */
const MAX_SUBSET_LISTS = 8;
/** A probed list's blocks looked at for the bound over a range of ids (past them, its maximum). */
const RANGE_BLOCKS = 64;
/** Relative margin for rounding: sums of a few dozen doubles differ by far less. */
const ROUNDING = 1e-12;

export interface TopKStats {
  /** Documents whose score, partly summed, could still win (those passed over on their bound are not counted). */
  scored: number;
  /** Blocks stepped over without reading their postings. */
  skippedBlocks: number;
}

/**
 * The `k` best documents by summed impact among those `admit` accepts (every one when absent),
 * best first. Exact: the same documents and scores as scoring every match.
 */
export function topK(lists: ImpactList[], k: number, admit?: (doc: number) => boolean, stats?: TopKStats): Scored[] {
  // Largest bound first: the order in which the probed lists are read.
  const ls = lists.filter((l) => l.docs.length > 0).sort((a, b) => b.max * (b.weight ?? 1) - a.max * (a.weight ?? 1));
  const n = ls.length;
  if (n === 0 || k <= 0) return [];
  const weight = new Float64Array(n);
  const bound = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    weight[i] = ls[i].weight ?? 1;
    bound[i] = ls[i].max * weight[i];
  }
  // Each list's arrays, read in the loops below from arrays of one kind each: the lists themselves
  // come in several shapes (computed where read, loosely matched), which slows every property read.
  const docsOf = ls.map((l) => l.docs);
  const sizeOf = Int32Array.from(docsOf, (docs) => docs.length);
  const blockMaxOf = ls.map((l) => l.blockMax);
  const impactsOf = ls.map((l) => l.impacts);
  const stepOf = Float64Array.from(ls, (l) => l.step);
  const computeOf = ls.map((l) => l.impactOf ?? null);
  const impact = (i: number, p: number): number => {
    const compute = computeOf[i];
    return compute === null ? impactsOf[i][p] * stepOf[i] : compute(p);
  };
  const pos = new Int32Array(n);
  const heap = new TopHeap(k);
  let scored = 0;
  let skippedBlocks = 0;

  // Seeds: each list's best postings, scored exactly over every list. The heap is then no longer
  // filled in id order, so the pruning below keeps a document whose bound only ties the threshold
  // (it may win the tie by its lower id).
  const seeded = new Set<number>();
  for (let i = 0; i < n; i++) {
    const { best, docs } = ls[i];
    for (let s = 0; s < best.length; s++) {
      const doc = docs[best[s]];
      if (seeded.has(doc)) continue;
      seeded.add(doc);
      if (admit && !admit(doc)) continue;
      let score = 0;
      for (let j = 0; j < n; j++) {
        const other = docsOf[j];
        const p = j === i ? best[s] : seek(other, 0, doc);
        if (p < other.length && other[p] === doc) score += impact(j, p) * weight[j];
      }
      scored++;
      heap.offer(doc, score);
    }
  }
  let threshold = heap.threshold;
  // What a bound must reach for a document to be kept: the threshold less a margin of rounding.
  // A bound and a score sum the same impacts in different orders, which can leave a document's
  // score a last binary digit above a bound equal to it; the margin keeps pruning exact.
  let floor = lowered(threshold);

  // Driving lists give the candidates; the others are only probed. Any set of lists whose bounds
  // sum below the threshold may be probed-only (a document in none of the driving lists cannot
  // win): of those sets, the one with the most postings, so the fewest are walked.
  // A list of one block or less (a rare word, a misspelt word's neighbour) is always walked: it
  // brings a handful of candidates, and probed it would count its whole bound against every one.
  const long: number[] = [];
  for (let i = 0; i < n; i++) if (sizeOf[i] > BLOCK) long.push(i);
  const subsets = long.length <= MAX_SUBSET_LISTS ? 1 << long.length : 0;
  const sum = new Float64Array(subsets);
  const postings = new Float64Array(subsets);
  for (let mask = 1; mask < subsets; mask++) {
    const low = long[31 - Math.clz32(mask & -mask)];
    sum[mask] = sum[mask & (mask - 1)] + bound[low];
    postings[mask] = postings[mask & (mask - 1)] + sizeOf[low];
  }
  const driving = new Int32Array(n);
  let drivers = 0;
  const probed = new Int32Array(n);
  let probes = 0;
  /** restFrom[j]: what probed[j..] can still add. */
  const restFrom = new Float64Array(n + 1);
  let below = 0;
  /** Which lists are probed-only now (isProbed), and the choice being made (next). */
  const isProbed = new Uint8Array(n);
  const next = new Uint8Array(n);
  let chosenFor = NaN;
  /** How many times the choice changed: a block range computed under another choice is stale. */
  let choices = 0;
  // Every document before `frontier` is settled: scored, or proven unable to win.
  let frontier = 0;
  // The current block range of the driving lists (see below): its end and bound.
  let rangeEnd = 0;
  let rangeUb = 0;
  let rangeOf = -1;
  /**
   * What the probed lists can add to a document with an id in [lo, hi]: of each, the largest
   * maximum of its blocks that hold ids in that range (0 for a list with none), closer than its
   * largest impact where the list's best postings lie elsewhere (block-max MaxScore). The range's
   * start never moves back, so each list's search resumes where the last one ended.
   */
  const cursor = new Int32Array(n);
  const probedBound = (lo: number, hi: number): number => {
    let ub = 0;
    for (let j = 0; j < probes; j++) {
      const i = probed[j];
      const docs = docsOf[i];
      const size = sizeOf[i];
      const at = seek(docs, cursor[i], lo);
      cursor[i] = at;
      if (at >= size || docs[at] > hi) continue;
      const blockMax = blockMaxOf[i];
      let b = (at / BLOCK) | 0;
      let m = blockMax[b];
      const last = Math.min(blockMax.length, b + RANGE_BLOCKS);
      for (b++; b < last && docs[b * BLOCK] <= hi; b++) if (blockMax[b] > m) m = blockMax[b];
      // Past RANGE_BLOCKS blocks the range is wide for this list: its largest impact bounds it.
      ub += b === last && last < blockMax.length && docs[b * BLOCK] <= hi ? bound[i] : m * weight[i];
    }
    return ub;
  };
  /** The probed lists' bound over the rest of the driving list's current block (single driver). */
  let blockBelow = 0;
  let blockBelowOf = -1;
  let blockBelowFor = -1;
  const choose = () => {
    chosenFor = threshold;
    // Membership, not a bit mask beyond MAX_SUBSET_LISTS: a query may bring more than 31 lists.
    next.fill(0);
    if (subsets > 0) {
      let most = 0;
      let best = 0;
      for (let mask = 1; mask < subsets; mask++) {
        if (sum[mask] < floor && postings[mask] > most) {
          most = postings[mask];
          best = mask;
        }
      }
      for (let b = 0; b < long.length; b++) next[long[b]] = (best >> b) & 1;
    } else {
      // Many long lists: the smallest bounds, as MaxScore takes them.
      let acc = 0;
      for (let b = long.length - 1; b >= 0 && acc + bound[long[b]] < floor; b--) {
        acc += bound[long[b]];
        next[long[b]] = 1;
      }
    }
    let same = choices > 0;
    for (let i = 0; same && i < n; i++) same = next[i] === isProbed[i];
    if (same) return;
    drivers = 0;
    probes = 0;
    for (let i = 0; i < n; i++) {
      if (next[i]) probed[probes++] = i;
      else {
        driving[drivers++] = i;
        // A list that starts driving resumes at the frontier: what lies before it is settled.
        if (choices > 0 && isProbed[i]) pos[i] = seek(docsOf[i], pos[i], frontier);
      }
    }
    isProbed.set(next);
    choices++;
    restFrom[probes] = 0;
    for (let j = probes - 1; j >= 0; j--) restFrom[j] = restFrom[j + 1] + bound[probed[j]];
    below = restFrom[0];
  };

  for (;;) {
    if (threshold !== chosenFor) choose();
    if (drivers === 0) break;

    let doc: number;
    let score = 0;
    if (drivers === 1) {
      // One driving list: step over blocks whose best posting plus everything else cannot win.
      // Within a block that may hold a winner, postings that cannot win are passed over in a
      // tight loop (the same test the scoring below makes: the impact plus all the probed lists
      // can add, under the threshold).
      const d = driving[0];
      let value = 0;
      const blockMax = blockMaxOf[d];
      const w = weight[d];
      const impacts = impactsOf[d];
      const step = stepOf[d];
      // A unit's worth with the list's weight: a power of two times w, so units * ws is (units * step) * w exactly.
      const ws = step * w;
      const compute = computeOf[d];
      let p = pos[d];
      const size = sizeOf[d];
      while (p < size) {
        const block = (p / BLOCK) | 0;
        const end = Math.min(size, (block + 1) * BLOCK);
        let rest = below;
        if (probes > 0 && blockMax[block] * w + rest >= floor) {
          // The probed lists over this block's ids alone.
          if (blockBelowOf !== block || blockBelowFor !== choices) {
            blockBelowOf = block;
            blockBelowFor = choices;
            blockBelow = probedBound(docsOf[d][p], docsOf[d][end - 1]);
          }
          rest = blockBelow;
        }
        if (blockMax[block] * w + rest < floor) {
          p = end;
          skippedBlocks++;
          continue;
        }
        if (compute === null) {
          while (p < end && impacts[p] * ws + rest < floor) p++;
          if (p < end) value = impacts[p] * step;
        } else {
          // Each impact computed once: the one that stops the scan is the one scored below.
          for (; p < end; p++) {
            value = compute(p);
            if (value * w + rest >= floor) break;
          }
        }
        if (p < end) break;
      }
      if (p >= size) break;
      doc = docsOf[d][p];
      score = value * w;
      pos[d] = p + 1;
    } else {
      doc = 0xffffffff;
      for (let d = 0; d < drivers; d++) {
        const i = driving[d];
        const p = pos[i];
        if (p < sizeOf[i]) {
          const next = docsOf[i][p];
          if (next < doc) doc = next;
        }
      }
      if (doc === 0xffffffff) break;
      if (threshold > -Infinity) {
        // Every document from `doc` up to the end of the shortest current block gets at most the
        // current blocks' maxima: when that cannot win, the whole range is stepped over. The
        // range holds until a driving list leaves its block (or the driving lists change).
        if (doc >= rangeEnd || rangeOf !== choices) {
          rangeOf = choices;
          rangeEnd = 0xffffffff;
          for (let d = 0; d < drivers; d++) {
            const i = driving[d];
            const p = pos[i];
            if (p >= sizeOf[i]) continue;
            const last = docsOf[i][Math.min(sizeOf[i], (((p / BLOCK) | 0) + 1) * BLOCK) - 1];
            if (last + 1 < rangeEnd) rangeEnd = last + 1;
          }
          rangeUb = probes > 0 && rangeEnd !== 0xffffffff ? probedBound(doc, rangeEnd - 1) : below;
          // A list whose next document lies beyond the range adds nothing in it (a rare word's
          // posting far ahead does not hold the bound up).
          for (let d = 0; d < drivers; d++) {
            const i = driving[d];
            const p = pos[i];
            if (p < sizeOf[i] && docsOf[i][p] < rangeEnd) rangeUb += blockMaxOf[i][(p / BLOCK) | 0] * weight[i];
          }
        }
        if (rangeUb < floor) {
          for (let d = 0; d < drivers; d++) pos[driving[d]] = seek(docsOf[driving[d]], pos[driving[d]], rangeEnd);
          frontier = rangeEnd;
          skippedBlocks++;
          continue;
        }
      }
      for (let d = 0; d < drivers; d++) {
        const i = driving[d];
        const p = pos[i];
        if (p < sizeOf[i] && docsOf[i][p] === doc) {
          score += impact(i, p) * weight[i];
          pos[i] = p + 1;
        }
      }
    }
    frontier = doc + 1;
    // What cannot win is passed over before the (dearer) filter is asked about it.
    if (score + below < floor) continue;
    if (admit && !admit(doc)) continue;
    scored++;
    // Probed lists, largest bound first, only while the document can still win.
    let alive = true;
    for (let j = 0; j < probes; j++) {
      if (score + restFrom[j] < floor) {
        alive = false;
        break;
      }
      const i = probed[j];
      const p = seek(docsOf[i], pos[i], doc);
      pos[i] = p;
      if (p < sizeOf[i] && docsOf[i][p] === doc) score += impact(i, p) * weight[i];
    }
    if (!alive) continue;
    // A seed is in the heap already (or was pushed out of it by better ones).
    if ((score > threshold || !heap.full || (score === threshold && doc < heap.docs[0])) && !seeded.has(doc)) {
      heap.offer(doc, score);
      threshold = heap.threshold;
      floor = lowered(threshold);
    }
  }
  if (stats) {
    stats.scored = scored;
    stats.skippedBlocks = skippedBlocks;
  }
  return heap.sorted();
}

/** A threshold less a margin of rounding: a few units of the last place of a double. */
function lowered(threshold: number): number {
  return threshold - Math.abs(threshold) * ROUNDING;
}
