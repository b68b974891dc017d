import { type Bm25Parameters, bm25Idf } from '@app/text';
import { type IdWindows, impactList, type ImpactList, impactUnits, windowBytes } from './impact-list';
import type { CollectionBasis, PageTable } from './page-table';
import { decodePostings, type TermRow } from './storage';

/** The collection's statistics may drift this much before cached impacts are recomputed. */
const STATS_DRIFT = 0.02;

/** The index's BM25+, per field (title and text), summed with the title boosted. */
export const INDEX_BM25: Bm25Parameters = { k1: 1.2, b: 0.7, delta: 0.5 };
// The title's weight is the lowest the fixture web's two-page questions keep their answers at
// (bench:quality): on real text (bench:realtext's tuned part) a heavier title puts pages that
// merely name a question's word above the page it is about.
const TITLE_BOOST = 1.75;

/** A term's decoded postings with their impacts, as the last query that needed it left them. */
interface CachedTerm {
  list: ImpactList | null;
  bytes: number;
}

/** Entries by word, least recently used first out once their bytes pass a limit. */
class ByteBoundedLru<V extends { bytes: number }> {
  private readonly entries = new Map<string, V>();
  bytes = 0;

  constructor(
    private readonly limit: () => number,
    /** Told of each entry the limit pushes out (not of one deleted). */
    private readonly evicted?: (key: string) => void,
  ) {}

  get size(): number {
    return this.entries.size;
  }

  /** The entry, made the most recently used (Map keeps insertion order: eviction takes the first). */
  get(key: string): V | undefined {
    const value = this.entries.get(key);
    if (value !== undefined) {
      this.entries.delete(key);
      this.entries.set(key, value);
    }
    return value;
  }

  set(key: string, value: V): void {
    this.delete(key);
    this.entries.set(key, value);
    this.bytes += value.bytes;
    while (this.bytes > this.limit() && this.entries.size > 1) {
      const [oldest, entry] = this.entries.entries().next().value as [string, V];
      this.entries.delete(oldest);
      this.bytes -= entry.bytes;
      this.evicted?.(oldest);
    }
  }

  delete(key: string): void {
    const value = this.entries.get(key);
    if (value === undefined) return;
    this.entries.delete(key);
    this.bytes -= value.bytes;
  }

  clear(): void {
    this.entries.clear();
    this.bytes = 0;
  }
}

/** What a term's list keeps once the list itself is evicted: enough to bound its windows without computing them. */
interface KeptBounds {
  postings: number;
  windows: IdWindows;
  max: number;
  step: number;
  best: Uint32Array;
  bytes: number;
}

const NO_IMPACTS = new Uint8Array(0);

/**
 * The share of the cache's bytes kept bounds may take at most (a common word's window maxima,
 * about 1.6 bytes a window of 64 ids with its groups' first positions, a small part of its list); lists take the rest, and what the bounds do not use. A list is stored after its bounds
 * (see `list`), so the lists' limit always counts the bounds as they now are.
 */
const BOUNDS_SHARE = 0.25;

/**
 * Terms' postings, decoded, with each posting's score contribution (its impact), kept in a
 * bounded cache, least recently used first out. Impacts depend on the collection's statistics:
 * they are kept while those drift little, and all recomputed once they drift more.
 *
 * A list is computed whole the first time its word is asked for; its window maxima and best
 * postings are kept apart, in their own bounded share. Once the list is evicted, the next query
 * of that word decodes its postings and computes the impacts of only the postings it reads: the
 * windows a query reads hold a small part of a common word's postings.
 */
export class PostingsCache {
  private readonly entries = new ByteBoundedLru<CachedTerm>(() => this.limit - this.bounds.bytes);
  // A list's window maxima are counted with its kept bounds, which hold the same arrays: bounds
  // that go take their list with them, so no list holds maxima the cache does not count.
  private readonly bounds = new ByteBoundedLru<KeptBounds>(
    () => this.limit * BOUNDS_SHARE,
    (term) => this.entries.delete(term),
  );
  /** Collection statistics the cached impacts were computed with. */
  private basis: CollectionBasis = { documents: 0, avgTitle: 0, avgText: 0 };

  constructor(private readonly limit: number) {}

  get size(): number {
    return this.entries.size;
  }

  get cachedBytes(): number {
    return this.entries.bytes + this.bounds.bytes;
  }

  /** Bytes of the lists (those of the kept bounds apart). */
  get listBytes(): number {
    return this.entries.bytes;
  }

  get boundedTerms(): number {
    return this.bounds.size;
  }

  /** Lists built from kept bounds, their postings, and the impacts queries computed of them. */
  readonly lazy = { lists: 0, postings: 0, computed: 0 };

  /**
   * BM25's length normalisation of each page's title and text under `basis` (k1 (1 - b + b len /
   * average)), by page id, for the ids below `upTo`: a posting's impact is then two divisions
   * and a product. Ids are never reused, so a page's entry holds until the basis changes.
   */
  private norms = { title: new Float64Array(0), text: new Float64Array(0), upTo: 0 };

  /**
   * Exact impacts of the list being built, before they are rounded into its bytes: one buffer,
   * grown to the longest list built so far, rather than 8 bytes a posting allocated (and
   * collected) for every list.
   */
  private scratch = new Float64Array(0);

  private scratchOf(postings: number): Float64Array {
    if (this.scratch.length < postings) this.scratch = new Float64Array(Math.max(postings, this.scratch.length * 2));
    return this.scratch;
  }

  /** Starts over from the collection as it now is (after loading the page table). */
  reset(basis: CollectionBasis): void {
    this.basis = basis;
    // New arrays: a list built under the old basis keeps reading its own.
    this.norms = { title: new Float64Array(0), text: new Float64Array(0), upTo: 0 };
  }

  /** After a write: every impact is recomputed when the collection has drifted too far. */
  rebase(basis: CollectionBasis): void {
    const drift = (a: number, b: number) => Math.abs(a - b) > STATS_DRIFT * Math.max(a, b, 1);
    if (
      drift(basis.documents, this.basis.documents) ||
      drift(basis.avgTitle, this.basis.avgTitle) ||
      drift(basis.avgText, this.basis.avgText)
    ) {
      this.clear();
      this.reset(basis);
    }
  }

  /** Forgets every term (a merge rewrote more of them than are worth naming). */
  clear(): void {
    this.entries.clear();
    this.bounds.clear();
  }

  evict(term: string): void {
    this.entries.delete(term);
    this.bounds.delete(term);
  }

  /**
   * The term's postings with each one's contribution (BM25 over title and text, times the page's
   * prior); null when no page has it. A page removed since its segment was written is still there
   * until the segment is merged: the caller never admits a page that is not live.
   */
  list(term: string, rowsOf: (term: string) => TermRow[], p: PageTable): ImpactList | null {
    const cached = this.entries.get(term);
    if (cached) {
      // Its bounds are as recently used as the list: they outlive it, not the other way round.
      this.bounds.get(term);
      return cached.list;
    }
    const rows = rowsOf(term);
    const list = rows.length > 0 ? this.build(term, rows, p) : null;
    // Its window maxima are counted with its kept bounds (see `bounds`).
    const bytes =
      64 + term.length * 2 + (list ? list.docs.length * (list.impactOf ? 6 : 5) + (list.groupMax?.byteLength ?? 0) : 0);
    this.entries.set(term, { list, bytes });
    return list;
  }

  /** The norms of every page id below `end` (computed for those not yet). */
  private normsTo(p: PageTable, end: number): { title: Float64Array; text: Float64Array } {
    const norms = this.norms;
    if (end > norms.title.length) {
      const size = Math.max(end, norms.title.length * 2, 1024);
      const grow = (from: Float64Array) => {
        const next = new Float64Array(size);
        next.set(from.subarray(0, norms.upTo));
        return next;
      };
      norms.title = grow(norms.title);
      norms.text = grow(norms.text);
    }
    if (end > norms.upTo) {
      const { k1, b } = INDEX_BM25;
      const { avgTitle, avgText } = this.basis;
      for (let id = norms.upTo; id < end; id++) {
        norms.title[id] = k1 * (1 - b + (b * p.titleLen[id]) / avgTitle);
        norms.text[id] = k1 * (1 - b + (b * p.textLen[id]) / avgText);
      }
      norms.upTo = end;
    }
    return norms;
  }

  private build(term: string, rows: TermRow[], p: PageTable): ImpactList {
    const { documents } = this.basis;
    let dfTitle = 0;
    let dfText = 0;
    let total = 0;
    for (const row of rows) {
      dfTitle += row.df_title;
      dfText += row.df_text;
      total += row.data.length / 6;
    }
    const idfTitle = TITLE_BOOST * bm25Idf(documents, dfTitle);
    const idfText = bm25Idf(documents, dfText);
    // One row (one segment, as after a merge) is read in place; several are joined in segment
    // order, in which ids ascend.
    const { docs, title, text } = rows.length === 1 ? decodePostings(rows[0].data) : joined(rows, total);
    const { title: titleNorm, text: textNorm } = this.normsTo(p, total > 0 ? docs[total - 1] + 1 : 0);
    const { k1, delta } = INDEX_BM25;
    // bm25Weight of each field, with the page's normalisation read rather than computed.
    const impactOf = (i: number) => {
      const id = docs[i];
      const inTitle = title[i];
      const inText = text[i];
      return (
        ((inTitle > 0 ? idfTitle * (delta + (inTitle * (k1 + 1)) / (inTitle + titleNorm[id])) : 0) +
          (inText > 0 ? idfText * (delta + (inText * (k1 + 1)) / (inText + textNorm[id])) : 0)) *
        p.prior[id]
      );
    };
    const kept = this.bounds.get(term);
    if (kept && kept.postings === total) {
      this.lazy.lists++;
      this.lazy.postings += total;
      const step = kept.step;
      return {
        docs,
        impacts: NO_IMPACTS,
        step,
        windows: kept.windows,
        max: kept.max,
        best: kept.best,
        // Rounded as a whole list keeps them: the kept window maxima are maxima of these values,
        // and a page scores the same whether its word's list was built whole or from bounds.
        impactOf: (i) => {
          this.lazy.computed++;
          return impactUnits(impactOf(i), step) * step;
        },
      };
    }
    const impacts = this.scratchOf(total);
    let largest = 0;
    for (let i = 0; i < total; i++) {
      const impact = impactOf(i);
      impacts[i] = impact;
      if (impact > largest) largest = impact;
    }
    // Ids read in place are a view of the row's blob, which also holds the term counts: a whole
    // list keeps a copy of its ids alone, so it holds the 5 bytes a posting the cache counts.
    const list = impactList(docs.byteLength === docs.buffer.byteLength ? docs : docs.slice(), impacts, largest);
    // A sparse list keeps no bounds: its maxima are computed from all its impacts, which a list
    // built from bounds would compute anyway.
    const { windows, max, step, best } = list;
    if (windows !== null) {
      const bytes = 64 + term.length * 2 + windowBytes(windows) + best.length * 4;
      this.bounds.set(term, { postings: total, windows, max, step, best, bytes });
    }
    return list;
  }
}

/** Postings rows of one word (segments in order) as one list. */
function joined(rows: TermRow[], total: number): { docs: Uint32Array; title: Uint8Array; text: Uint8Array } {
  const docs = new Uint32Array(total);
  const title = new Uint8Array(total);
  const text = new Uint8Array(total);
  let at = 0;
  for (const row of rows) {
    const decoded = decodePostings(row.data);
    docs.set(decoded.docs, at);
    title.set(decoded.title, at);
    text.set(decoded.text, at);
    at += decoded.docs.length;
  }
  return { docs, title, text };
}
