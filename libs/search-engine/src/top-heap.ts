import type { Scored } from './impact-list';

/** A bounded min-heap of the best `k` documents (higher score first; on a tie, the lower id). */
export class TopHeap {
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
    return this.docs
      .map((doc, i) => ({ doc, score: this.scores[i] }))
      .sort((a, b) => b.score - a.score || a.doc - b.doc);
  }
}
