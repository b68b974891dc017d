/**
 * Case and accent folding. Two forms, kept apart because they fold different characters:
 * `foldTerm` decomposes compatibly (NFKD: ligatures such as "ﬁ" and full-width letters become
 * plain letters too), which is what the local index stores; `foldWord` decomposes canonically
 * (NFD: accents only), which is what page excerpts compare.
 */

const NON_ASCII = /[^\x00-\x7f]/;

/** Lower case, then compatibility-decomposed with its marks removed (ASCII comes back just lower-cased). */
export function foldTerm(text: string): string {
  const lower = text.toLowerCase();
  return NON_ASCII.test(lower) ? lower.normalize('NFKD').replace(/\p{M}/gu, '') : lower;
}

/** Canonically decomposed with its marks removed, then lower case. */
export const foldWord = (word: string): string => word.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
