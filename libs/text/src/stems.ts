/**
 * Stemmers. Three strengths on purpose, each matched to what it compares; one for all would
 * change what matches (and so how pages rank):
 *
 * - `stem`: the language engines. Plurals, -ing/-ed, a final e ("recycling", "recycled",
 *   "recycles", "recycle" meet).
 * - `singular`: the local search index. Plurals only, with the words an `s` ending does not make
 *   plural: index terms stay words a prefix search and a typo match can work with.
 * - `deepStem`: page excerpts. Also -ation, -ly and a final y ("install", "installation"), for a
 *   page's sentences against an objective, where recall matters more than precision.
 */

/**
 * Light stemming: plural and -ing/-ed endings, then a final e, so "recycling", "recycled",
 * "recycles" and "recycle" meet. Over-stems sometimes ("news" -> "new"); both sides get the same.
 */
export function stem(word: string): string {
  let w = word;
  if (w.length <= 3 || /\d/.test(w)) return w;
  if (w.endsWith('ies') && w.length > 4) w = `${w.slice(0, -3)}y`;
  // "qualified", "studied", "applied" meet "qualify", "study", "apply".
  else if (w.endsWith('ied') && w.length > 5) return `${w.slice(0, -3)}y`;
  else if (w.endsWith('sses')) w = w.slice(0, -2);
  else if (w.endsWith('s') && !/(ss|us|is)$/.test(w)) w = w.slice(0, -1);
  let cut = false;
  if (w.endsWith('ing') && w.length > 5) [w, cut] = [w.slice(0, -3), true];
  else if (w.endsWith('ed') && w.length > 4) [w, cut] = [w.slice(0, -2), true];
  // "running" -> "runn" -> "run"; not for l/s/z ("install", "pass").
  if (cut && /([b-df-hj-km-np-rtv-y])\1$/.test(w)) w = w.slice(0, -1);
  if (w.endsWith('e') && w.length > 4) w = w.slice(0, -1);
  return w;
}

// Words an `s` ending does not make plural.
const NOT_PLURAL = new Set(['news', 'series', 'species', 'gas', 'lens', 'always', 'perhaps', 'ethos', 'chaos']);

/** A lower-case word's singular ("cities" -> "city", "boxes" -> "box"); other words as they are. */
export function singular(term: string): string {
  if (term.length <= 3 || !term.endsWith('s') || NOT_PLURAL.has(term)) return term;
  if (term.endsWith('ies') && term.length > 4) return `${term.slice(0, -3)}y`;
  if (/(sses|ches|shes|xes|zes)$/.test(term)) return term.slice(0, -2);
  if (/(ss|us|is)$/.test(term)) return term;
  return term.slice(0, -1);
}

/** The common English suffixes trimmed to one form ("prices", "priced", "pricing" -> "pric"). */
export function deepStem(w: string): string {
  if (w.length <= 3 || /\d/.test(w)) return w;
  let s = w;
  if (s.endsWith('ies') && s.length > 4) s = `${s.slice(0, -3)}y`;
  else if (s.endsWith('sses')) s = s.slice(0, -2);
  else if (/(?:ch|sh|x|z)es$/.test(s)) s = s.slice(0, -2);
  else if (s.endsWith('s') && !/(?:ss|us|is)$/.test(s)) s = s.slice(0, -1);
  if (s.endsWith('ation') && s.length > 7) s = s.slice(0, -5);
  else if (s.endsWith('ing') && s.length > 5) s = s.slice(0, -3);
  else if (s.endsWith('ed') && s.length > 4) s = s.slice(0, -2);
  else if (s.endsWith('ly') && s.length > 5) s = s.slice(0, -2);
  if (/([b-df-hj-np-tv-z])\1$/.test(s) && !/(?:ll|ss|zz)$/.test(s)) s = s.slice(0, -1); // running -> run
  if (s.endsWith('e') && s.length > 4) s = s.slice(0, -1);
  if (s.endsWith('y') && s.length > 4) s = `${s.slice(0, -1)}i`;
  return s;
}
