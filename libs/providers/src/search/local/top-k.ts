/**
 * Top-k retrieval over impact postings with MaxScore (Turtle & Flood 1995) and block-max skipping
 * (Ding & Suel 2011): a document is scored only while it can still enter the top k.
 *
 * Each query term brings a postings list: document ids ascending, and per posting the term's whole
 * contribution to that document's score (BM25 over title and text, times the page's prior). A
 * document's score is the sum of its postings' contributions, so a list's largest contribution
 * bounds what it can add. Lists are ordered by that bound; once the k-th best score exceeds the
 * sum of the smallest bounds, those lists can no longer bring a document into the top k on their
 * own ("non-essential"): candidates come only from the other lists, and the non-essential ones are
 * probed (by binary search) only while the candidate can still make it. When one list alone is
 * essential, whole blocks of it whose best posting cannot lift a document over the threshold are
 * stepped over without being read.
 */

/** Postings per block: the unit of block-max skipping. */
export const BLOCK = 64;

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
  return { docs, impacts, blockMax, max };
}

/** A bounded min-heap of the best `k` documents (higher score first; on a tie, the lower id). */
class TopHeap {
  readonly docs: number[] = [];
  readonly scores: number[] = [];
  constructor(readonly k: number) {}

  get full(): boolean {
    return this.docs.length >= this.k;
  }

  /** The score a document must beat to enter (−∞ until the heap is full). */
  get threshold(): number {
    return this.full ? this.scores[0] : -Infinity;
  }

  /** Worse means lower score, or the same score and a higher id (ids break ties the same way every time). */
  private worse(i: number, j: number): boolean {
    return this.scores[i] < this.scores[j] || (this.scores[i] === this.scores[j] && this.docs[i] > this.docs[j]);
  }

  offer(doc: number, score: number): void {
    if (this.full) {
      const s0 = this.scores[0];
      if (score < s0 || (score === s0 && doc > this.docs[0])) return;
      this.docs[0] = doc;
      this.scores[0] = score;
      this.down(0);
      return;
    }
    this.docs.push(doc);
    this.scores.push(score);
    this.up(this.docs.length - 1);
  }

  private swap(i: number, j: number): void {
    const d = this.docs[i];
    this.docs[i] = this.docs[j];
    this.docs[j] = d;
    const s = this.scores[i];
    this.scores[i] = this.scores[j];
    this.scores[j] = s;
  }

  private up(i: number): void {
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!this.worse(i, parent)) return;
      this.swap(i, parent);
      i = parent;
    }
  }

  private down(i: number): void {
    const n = this.docs.length;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let least = i;
      if (l < n && this.worse(l, least)) least = l;
      if (r < n && this.worse(r, least)) least = r;
      if (least === i) return;
      this.swap(i, least);
      i = least;
    }
  }

  sorted(): Scored[] {
    return this.docs.map((doc, i) => ({ doc, score: this.scores[i] })).sort((a, b) => b.score - a.score || a.doc - b.doc);
  }
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

export interface TopKStats {
  /** Documents whose score was (at least partly) summed. */
  scored: number;
  /** Blocks stepped over without reading their postings. */
  skippedBlocks: number;
}

/**
 * The `k` best documents by summed impact among those `admit` accepts (every one when absent),
 * best first. Exact: the same documents and scores as scoring every match.
 */
export function topK(lists: ImpactList[], k: number, admit?: (doc: number) => boolean, stats?: TopKStats): Scored[] {
  const ls = lists.filter((l) => l.docs.length > 0).sort((a, b) => a.max * (a.weight ?? 1) - b.max * (b.weight ?? 1));
  const n = ls.length;
  if (n === 0 || k <= 0) return [];
  const weight = new Float64Array(n);
  for (let i = 0; i < n; i++) weight[i] = ls[i].weight ?? 1;
  // bound[i]: the most lists 0..i can add together.
  const bound = new Float64Array(n);
  let acc = 0;
  for (let i = 0; i < n; i++) bound[i] = acc += ls[i].max * weight[i];
  const pos = new Int32Array(n);
  const heap = new TopHeap(k);
  let threshold = -Infinity;
  // Lists 0..essential-1 are non-essential: together they cannot beat the threshold.
  let essential = 0;
  let scored = 0;
  let skippedBlocks = 0;

  for (;;) {
    while (essential < n && bound[essential] <= threshold) essential++;
    if (essential >= n) break;
    const below = essential > 0 ? bound[essential - 1] : 0;

    let doc: number;
    if (essential === n - 1) {
      // One essential list: step over blocks whose best posting plus everything else cannot win.
      const list = ls[n - 1];
      let p = pos[n - 1];
      const size = list.docs.length;
      while (p < size) {
        const block = (p / BLOCK) | 0;
        if (list.blockMax[block] * weight[n - 1] + below > threshold) break;
        p = (block + 1) * BLOCK;
        skippedBlocks++;
      }
      pos[n - 1] = p;
      if (p >= size) break;
      doc = list.docs[p];
    } else {
      doc = 0xffffffff;
      for (let i = essential; i < n; i++) {
        const p = pos[i];
        if (p < ls[i].docs.length && ls[i].docs[p] < doc) doc = ls[i].docs[p];
      }
      if (doc === 0xffffffff) break;
      if (threshold > -Infinity) {
        // Every document from `doc` up to the end of the shortest current block gets at most the
        // current blocks' maxima: when that cannot win, the whole range is stepped over.
        let ub = below;
        let end = 0xffffffff;
        for (let i = essential; i < n; i++) {
          const list = ls[i];
          const p = pos[i];
          if (p >= list.docs.length) continue;
          const block = (p / BLOCK) | 0;
          ub += list.blockMax[block] * weight[i];
          const last = list.docs[Math.min(list.docs.length, (block + 1) * BLOCK) - 1];
          if (last + 1 < end) end = last + 1;
        }
        if (ub <= threshold) {
          for (let i = essential; i < n; i++) pos[i] = seek(ls[i].docs, pos[i], end);
          skippedBlocks++;
          continue;
        }
      }
    }

    let score = 0;
    for (let i = essential; i < n; i++) {
      const list = ls[i];
      const p = pos[i];
      if (p < list.docs.length && list.docs[p] === doc) {
        score += list.impacts[p] * weight[i];
        pos[i] = p + 1;
      }
    }
    if (admit && !admit(doc)) continue;
    scored++;
    // Non-essential lists, largest bound first, only while the document can still win.
    let alive = true;
    for (let i = essential - 1; i >= 0; i--) {
      if (score + bound[i] <= threshold) {
        alive = false;
        break;
      }
      const list = ls[i];
      const p = seek(list.docs, pos[i], doc);
      pos[i] = p;
      if (p < list.docs.length && list.docs[p] === doc) score += list.impacts[p] * weight[i];
    }
    if (!alive) continue;
    if (score > threshold || !heap.full || (score === threshold && doc < heap.docs[0])) {
      heap.offer(doc, score);
      threshold = heap.threshold;
    }
  }
  if (stats) {
    stats.scored = scored;
    stats.skippedBlocks = skippedBlocks;
  }
  return heap.sorted();
}

/** A document's exact score over the lists (0 when it has none of the terms). */
export function scoreOf(lists: ImpactList[], doc: number): number {
  let score = 0;
  for (const list of lists) {
    const p = seek(list.docs, 0, doc);
    if (p < list.docs.length && list.docs[p] === doc) score += list.impacts[p] * (list.weight ?? 1);
  }
  return score;
}
