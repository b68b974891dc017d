/**
 * How text becomes index terms, shared by indexing, querying and snippet selection so the three
 * always agree on what "matches" means. The primitives (folding, stop words, plurals, sentence
 * ranges) are `@app/text`'s; this is how the index puts them together.
 */
import { foldTerm, INDEX_STOP_WORDS, sentenceRanges, singular, words } from '@app/text';

/** Lower case, accents folded, stop words dropped, plurals folded onto the singular. */
export function processTerm(raw: string): string | null {
  return raw.length === 0 ? null : folded(foldTerm(raw));
}

/** A folded word as a term: null for a stop word or a lone letter, else its singular. */
function folded(term: string): string | null {
  if (term.length === 0 || INDEX_STOP_WORDS.has(term) || (term.length === 1 && !/\d/.test(term))) return null;
  return singular(term);
}

const NON_ASCII = /[^\x00-\x7f]/;
const ASCII_BREAK = /[^a-z0-9]+/;

export function terms(text: string): string[] {
  const out: string[] = [];
  if (!NON_ASCII.test(text)) {
    // ASCII (most text): lower-cased once, letters and digits split as `words` would, nothing to fold.
    for (const word of text.toLowerCase().split(ASCII_BREAK)) {
      const term = folded(word);
      if (term) out.push(term);
    }
    return out;
  }
  for (const token of words(text)) {
    const term = processTerm(token);
    if (term) out.push(term);
  }
  return out;
}

const SNIPPET_MIN = 200;
const SNIPPET_MAX = 300;

/**
 * The part of a term every word it comes from starts with (case and accents folded): the term,
 * less the `y` of a plural folded from `-ies` ("fly" from "flies"), at most four letters.
 */
function stemOf(term: string): string {
  const kept = term.length > 1 && term.endsWith('y') ? term.slice(0, -1) : term;
  return kept.slice(0, Math.min(kept.length, 4));
}

/**
 * The text lower-cased, when that is all folding does to it, so every offset is kept: ASCII, or
 * text with no accents, ligatures or marks (typographic dashes and quotes are common); else null.
 */
function lowerInPlace(text: string): string | null {
  const lower = text.toLowerCase();
  if (!NON_ASCII.test(text)) return lower;
  return lower.length === text.length && text.normalize('NFKD') === text && !/\p{M}/u.test(text) ? lower : null;
}

/**
 * For each span, how many of `wanted` it may hold: those whose stem occurs in it. A cheap bound
 * on what `terms` would find there (most sentences share no stem with a query at all, and the
 * exact test costs far more).
 */
export function stemBounds(text: string, spans: Array<[number, number]>, wanted: readonly string[]): Uint8Array {
  const bounds = new Uint8Array(spans.length);
  if (wanted.length === 0 || spans.length === 0) return bounds;
  const stems = wanted.map(stemOf);
  const lower = lowerInPlace(text);
  if (lower === null) {
    // Folding may change lengths: sentence by sentence.
    spans.forEach(([start, end], index) => {
      const folded = foldTerm(text.slice(start, end));
      let n = 0;
      for (const stem of stems) if (folded.includes(stem)) n++;
      bounds[index] = Math.min(255, n);
    });
    return bounds;
  }
  // Each stem is found once in the whole text and its hits placed in their sentences (spans are
  // in order: a binary search on their starts).
  const seen = new Int32Array(spans.length).fill(-1);
  stems.forEach((stem, k) => {
    for (let at = lower.indexOf(stem); at >= 0; at = lower.indexOf(stem, at + 1)) {
      let lo = 0;
      let hi = spans.length - 1;
      while (lo < hi) {
        const mid = (lo + hi + 1) >>> 1;
        if (spans[mid][0] <= at) lo = mid;
        else hi = mid - 1;
      }
      const [start, end] = spans[lo];
      // Counted once per term and span.
      if (at >= start && at + stem.length <= end && seen[lo] !== k) {
        seen[lo] = k;
        if (bounds[lo] < 255) bounds[lo]++;
      }
    }
  });
  return bounds;
}

/** White space runs made one space (most sentences have none to change). */
const normalised = (sentence: string) =>
  (/\s\s|[^\S ]/.test(sentence) ? sentence.replace(/\s+/g, ' ') : sentence).trim();

/**
 * The sentence that matches most of the query's terms, widened with its neighbours to about
 * 200-300 characters; the text's opening when no sentence matches (a title-only hit).
 */
export function snippetFor(text: string, queryTerms: readonly string[], fallback?: string | null): string {
  const wanted = new Set(queryTerms);
  const spans = sentenceRanges(text);
  const sentence = (i: number) => normalised(text.slice(spans[i][0], spans[i][1]));
  // The sentence holding the most of the query's terms, the first such: sentences are tried by
  // their bound, highest first, and the search stops once no bound left can beat the best.
  const bounds = stemBounds(text, spans, [...wanted]);
  const tried: number[] = [];
  for (let i = 0; i < bounds.length; i++) if (bounds[i] > 0) tried.push(i);
  tried.sort((a, b) => bounds[b] - bounds[a] || a - b);
  let best = -1;
  let bestScore = 0;
  for (const index of tried) {
    if (bounds[index] < bestScore) break;
    // As many as the best at most, and later in the text: it cannot win.
    if (bounds[index] === bestScore && index > best) continue;
    const score = new Set(terms(text.slice(spans[index][0], spans[index][1])).filter((term) => wanted.has(term))).size;
    if (score > bestScore || (score === bestScore && score > 0 && index < best)) {
      best = index;
      bestScore = score;
    }
  }
  if (best < 0)
    return clip(
      fallback?.trim() ||
        spans
          .slice(0, 3)
          .map((_, i) => sentence(i))
          .join(' '),
    );
  let start = best;
  let end = best + 1;
  const parts = [sentence(best)];
  let length = parts[0].length;
  while (length < SNIPPET_MIN && (end < spans.length || start > 0)) {
    if (end < spans.length) {
      const next = sentence(end++);
      parts.push(next);
      length += next.length + 1;
    } else {
      const previous = sentence(--start);
      parts.unshift(previous);
      length += previous.length + 1;
    }
  }
  return clip(parts.join(' '));
}

function clip(text: string): string {
  if (text.length <= SNIPPET_MAX) return text;
  const cut = text.slice(0, SNIPPET_MAX);
  const space = cut.lastIndexOf(' ');
  return `${cut.slice(0, space > SNIPPET_MIN ? space : SNIPPET_MAX).replace(/[\s,;:]+$/, '')}…`;
}

/**
 * How many distinct names a text mentions: runs of two or more capitalised words ("Brightwater
 * Foods", "North Hobart"), or one capitalised word not opening a sentence. A page about one
 * entity names a handful (itself, its people, its town); a directory or a roundup names dozens.
 */
export function entityCount(text: string): number {
  const names = new Set<string>();
  for (const m of text.matchAll(
    /(?<![.!?:\n]\s*|^)\b\p{Lu}[\p{Ll}\p{Lu}'’&-]+(?:\s+(?:of|for|and|&|de|la|van|von)?\s*\p{Lu}[\p{Ll}\p{Lu}'’&-]+)*/gu,
  )) {
    names.add(m[0].toLowerCase());
  }
  return names.size;
}
