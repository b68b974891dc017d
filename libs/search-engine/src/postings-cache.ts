import { type Bm25Parameters, bm25Idf, bm25Weight } from '@app/text';
import { impactList, type ImpactList } from './impact-list';
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

/**
 * Terms' live postings, decoded, with each posting's score contribution (its impact), kept in a
 * bounded cache, least recently used first out. Impacts depend on the collection's statistics:
 * they are kept while those drift little, and all recomputed once they drift more.
 */
export class PostingsCache {
  private readonly entries = new Map<string, CachedTerm>();
  private bytes = 0;
  /** Collection statistics the cached impacts were computed with. */
  private basis: CollectionBasis = { documents: 0, avgTitle: 0, avgText: 0 };

  constructor(private readonly limit: number) {}

  get size(): number {
    return this.entries.size;
  }

  get cachedBytes(): number {
    return this.bytes;
  }

  /** Starts over from the collection as it now is (after loading the page table). */
  reset(basis: CollectionBasis): void {
    this.basis = basis;
  }

  /** After a write: every impact is recomputed when the collection has drifted too far. */
  rebase(basis: CollectionBasis): void {
    const drift = (a: number, b: number) => Math.abs(a - b) > STATS_DRIFT * Math.max(a, b, 1);
    if (
      drift(basis.documents, this.basis.documents) ||
      drift(basis.avgTitle, this.basis.avgTitle) ||
      drift(basis.avgText, this.basis.avgText)
    ) {
      this.entries.clear();
      this.bytes = 0;
      this.basis = basis;
    }
  }

  /** Forgets every term (a merge rewrote more of them than are worth naming). */
  clear(): void {
    this.entries.clear();
    this.bytes = 0;
  }

  evict(term: string): void {
    const cached = this.entries.get(term);
    if (!cached) return;
    this.entries.delete(term);
    this.bytes -= cached.bytes;
  }

  /** The term's live postings with each one's contribution (BM25 over title and text, times the page's prior); null when no page has it. */
  list(term: string, rowsOf: (term: string) => TermRow[], p: PageTable): ImpactList | null {
    const cached = this.entries.get(term);
    if (cached) {
      // Most recently used last: Map keeps insertion order, so eviction takes the first.
      this.entries.delete(term);
      this.entries.set(term, cached);
      return cached.list;
    }
    const rows = rowsOf(term);
    let list: ImpactList | null = null;
    if (rows.length > 0) {
      const { documents, avgTitle, avgText } = this.basis;
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
      const docs = new Uint32Array(total);
      const impacts = new Float32Array(total);
      let n = 0;
      for (const row of rows) {
        const decoded = decodePostings(row.data);
        for (let i = 0; i < decoded.docs.length; i++) {
          const id = decoded.docs[i];
          if (!p.live[id]) continue;
          const impact =
            idfTitle * bm25Weight(decoded.title[i], p.titleLen[id], avgTitle, INDEX_BM25) +
            idfText * bm25Weight(decoded.text[i], p.textLen[id], avgText, INDEX_BM25);
          docs[n] = id;
          impacts[n] = impact * p.prior[id];
          n++;
        }
      }
      if (n > 0) list = impactList(n === total ? docs : docs.slice(0, n), n === total ? impacts : impacts.slice(0, n));
    }
    const bytes = 64 + term.length * 2 + (list ? list.docs.length * 8 + list.blockMax.length * 4 : 0);
    this.entries.set(term, { list, bytes });
    this.bytes += bytes;
    while (this.bytes > this.limit && this.entries.size > 1) {
      const [oldest, entry] = this.entries.entries().next().value as [string, CachedTerm];
      this.entries.delete(oldest);
      this.bytes -= entry.bytes;
    }
    return list;
  }
}
