import type { PreparedDocument } from './document';
import { WINDOW } from './impact-list';

/** A 32-bit FNV-1a hash of a term, from `seed`. */
function termHash(term: string, seed: number): number {
  let h = seed;
  for (let i = 0; i < term.length; i++) h = Math.imul(h ^ term.charCodeAt(i), 16777619);
  return h >>> 0;
}

/**
 * The pages in an order that puts similar ones side by side: by two MinHash values of their
 * terms (pages sharing most of their words share them with like odds). Ids are given in this
 * order, so a query's best pages, which tend to be alike, fall in few windows of ids and
 * retrieval passes over the rest (document reordering, as in Silvestri 2007).
 */
export function clustered(pages: PreparedDocument[]): PreparedDocument[] {
  if (pages.length < 2 * WINDOW) return pages;
  const keyed = pages.map((page, index) => {
    let a = 0xffffffff;
    let b = 0xffffffff;
    const visit = (term: string) => {
      const x = termHash(term, 0x811c9dc5);
      if (x < a) a = x;
      const y = termHash(term, 0x2166136);
      if (y < b) b = y;
    };
    for (const term of page.analysed.titleTf.keys()) visit(term);
    for (const term of page.analysed.textTf.keys()) visit(term);
    return { page, a, b, index };
  });
  keyed.sort((x, y) => x.a - y.a || x.b - y.b || x.index - y.index);
  return keyed.map((k) => k.page);
}
