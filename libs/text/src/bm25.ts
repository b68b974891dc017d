/** BM25 over a small ad-hoc collection (a result list, a page's sentences). */

export interface Scored {
  /** BM25 (idf over the given collection). */
  raw: number;
  /** Share of the distinct objective terms present, in [0, 1]. */
  coverage: number;
  matched: number;
}

/**
 * BM25's parameters: `k1` saturates a term's frequency, `b` normalises by the document's length
 * (0 none, 1 fully), `delta` is BM25+'s floor for a term present at all (0 for plain BM25).
 */
export interface Bm25Parameters {
  k1: number;
  b: number;
  delta: number;
}

/** Robertson's classic values, Lucene's defaults: for short ad-hoc collections (a result list, a page's sentences). */
export const BM25_CLASSIC: Bm25Parameters = { k1: 1.2, b: 0.75, delta: 0 };

/** Lucene's always-positive idf, so a term in every document still counts a little. */
export const bm25Idf = (documents: number, withTerm: number): number =>
  Math.log(1 + (documents - withTerm + 0.5) / (withTerm + 0.5));

/** One term's saturated, length-normalised frequency (times its idf, the term's score); 0 for a term absent. */
export const bm25Weight = (
  tf: number,
  length: number,
  averageLength: number,
  p: Bm25Parameters = BM25_CLASSIC,
): number => (tf > 0 ? p.delta + (tf * (p.k1 + 1)) / (tf + p.k1 * (1 - p.b + (p.b * length) / averageLength)) : 0);

/**
 * BM25 of each document (a bag of weighted term counts) against the query terms, with
 * Lucene's always-positive idf so a term in every document still counts a little.
 */
export function bm25(queryTerms: string[], docs: Array<Map<string, number>>, lengths: number[]): Scored[] {
  const terms = [...new Set(queryTerms)];
  const n = docs.length;
  const avgdl = lengths.reduce((a, b) => a + b, 0) / Math.max(1, n) || 1;
  const idf = new Map(terms.map((t) => [t, bm25Idf(n, docs.filter((d) => d.has(t)).length)]));
  return docs.map((doc, i) => {
    let raw = 0;
    let matched = 0;
    for (const t of terms) {
      const tf = doc.get(t) ?? 0;
      if (tf === 0) continue;
      matched++;
      raw += idf.get(t)! * bm25Weight(tf, lengths[i]!, avgdl);
    }
    return { raw, coverage: terms.length ? matched / terms.length : 0, matched };
  });
}

/** Term counts; `weight` lets a title count more than body text. */
export function addCounts(into: Map<string, number>, tokens: string[], weight = 1): Map<string, number> {
  for (const t of tokens) into.set(t, (into.get(t) ?? 0) + weight);
  return into;
}
