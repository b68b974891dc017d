/**
 * Deterministic lexical relevance (English-first): tokens, a light suffix stemmer, sentence spans
 * and BM25 over a small ad-hoc collection. No model, no randomness, no locale-dependent APIs.
 */

// Function words, plus the words people use to phrase an objective ("find information about"),
// which would otherwise match every page that says "find" or "information".
const STOPWORDS = new Set(
  (
    'a about above after again against all also am an and any are as at be because been before being below between both but by can could ' +
    'did do does doing down during each few for from further had has have having he her here hers herself him himself his how i if in into ' +
    'is it its itself just me more most my myself no nor not now of off on once only or other our ours ourselves out over own same she ' +
    'should so some such than that the their theirs them themselves then there these they this those through to too under until up very ' +
    'was we were what when where which while who whom why will with would you your yours yourself yourselves ' +
    'find finding information info looking look want need please tell show give know learn something anything whether etc via per'
  ).split(' '),
);

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

/** Lower-cased, stemmed content words (letters and digits of any script; stopwords dropped). */
export function tokenize(text: string): string[] {
  const out: string[] = [];
  for (const match of text.toLowerCase().matchAll(/[\p{L}\p{N}]+/gu)) {
    const word = match[0];
    if (word.length < 2 && !/\d/.test(word)) continue;
    if (STOPWORDS.has(word)) continue;
    out.push(stem(word));
  }
  return out;
}

export interface Span {
  start: number;
  end: number;
  text: string;
}

/**
 * Sentences as verbatim spans of `text`: a break after . ! ? … (and closing quotes) when the next
 * word starts upper-case or with a digit ("e.g. the" stays whole), and at blank lines or line
 * starts that look like list items or headings. Surrounding whitespace is trimmed.
 */
export function sentenceSpans(text: string): Span[] {
  const spans: Span[] = [];
  const boundary = /(?<=[.!?…]["'”’)\]]*)\s+(?=["'“‘(\[]?[\p{Lu}\p{N}])|\n[ \t]*\n\s*|\n(?=[ \t]*(?:[-*•#>]|\d+[.)])\s)/gu;
  let from = 0;
  const push = (start: number, end: number) => {
    const raw = text.slice(start, end);
    const lead = raw.length - raw.trimStart().length;
    const trimmed = raw.trim();
    if (trimmed) spans.push({ start: start + lead, end: start + lead + trimmed.length, text: trimmed });
  };
  for (const m of text.matchAll(boundary)) {
    push(from, m.index!);
    from = m.index! + m[0].length;
  }
  push(from, text.length);
  return spans;
}

export interface Scored {
  /** BM25 (idf over the given collection). */
  raw: number;
  /** Share of the distinct objective terms present, in [0, 1]. */
  coverage: number;
  matched: number;
}

const K1 = 1.2;
const B = 0.75;

/**
 * BM25 of each document (a bag of weighted term counts) against the query terms, with
 * Lucene's always-positive idf so a term in every document still counts a little.
 */
export function bm25(queryTerms: string[], docs: Array<Map<string, number>>, lengths: number[]): Scored[] {
  const terms = [...new Set(queryTerms)];
  const n = docs.length;
  const avgdl = lengths.reduce((a, b) => a + b, 0) / Math.max(1, n) || 1;
  const idf = new Map(terms.map((t) => {
    const df = docs.filter((d) => d.has(t)).length;
    return [t, Math.log(1 + (n - df + 0.5) / (df + 0.5))];
  }));
  return docs.map((doc, i) => {
    let raw = 0;
    let matched = 0;
    for (const t of terms) {
      const tf = doc.get(t) ?? 0;
      if (tf === 0) continue;
      matched++;
      raw += idf.get(t)! * ((tf * (K1 + 1)) / (tf + K1 * (1 - B + (B * lengths[i]!) / avgdl)));
    }
    return { raw, coverage: terms.length ? matched / terms.length : 0, matched };
  });
}

/** Term counts; `weight` lets a title count more than body text. */
export function addCounts(into: Map<string, number>, tokens: string[], weight = 1): Map<string, number> {
  for (const t of tokens) into.set(t, (into.get(t) ?? 0) + weight);
  return into;
}
