/**
 * How text becomes index terms, shared by indexing, querying and snippet selection so the three
 * always agree on what "matches" means.
 */

// Words too common to tell pages apart: dropping them keeps postings short and BM25 focused.
const STOP_WORDS = new Set(
  ('a about after again all also am an and any are as at be because been before being between both but by can could did do does doing ' +
    'down during each few for from further had has have having he her here hers him his how i if in into is it its itself just ' +
    'me more most my no nor not now of off on once only or other our ours out over own same she should so some such than that the ' +
    'their theirs them then there these they this those through to too under until up very was we were what when where which while ' +
    'who whom why will with would you your yours').split(' '),
);

// Words an `s` ending does not make plural.
const NOT_PLURAL = new Set(['news', 'series', 'species', 'gas', 'lens', 'always', 'perhaps', 'ethos', 'chaos']);

export function tokenize(text: string): string[] {
  return text.split(/[^\p{L}\p{N}]+/u);
}

/** Lower case, accents folded, stop words dropped, plurals folded onto the singular. */
export function processTerm(raw: string): string | null {
  if (raw.length === 0) return null;
  const term = fold(raw);
  if (STOP_WORDS.has(term) || (term.length === 1 && !/\d/.test(term))) return null;
  return singular(term);
}

function fold(text: string): string {
  const lower = text.toLowerCase();
  return /[^\x00-\x7f]/.test(lower) ? lower.normalize('NFKD').replace(/\p{M}/gu, '') : lower;
}

function singular(term: string): string {
  if (term.length <= 3 || !term.endsWith('s') || NOT_PLURAL.has(term)) return term;
  if (term.endsWith('ies') && term.length > 4) return `${term.slice(0, -3)}y`;
  if (/(sses|ches|shes|xes|zes)$/.test(term)) return term.slice(0, -2);
  if (/(ss|us|is)$/.test(term)) return term;
  return term.slice(0, -1);
}

export function terms(text: string): string[] {
  const out: string[] = [];
  for (const token of tokenize(text)) {
    const term = processTerm(token);
    if (term) out.push(term);
  }
  return out;
}

const SNIPPET_MIN = 200;
const SNIPPET_MAX = 300;

/** Where a text's sentences (and lines) start and end: what `snippetFor` and listing entries are cut from. */
const SENTENCE_BREAK = /(?<=[.!?])\s+|\n+/g;

const NON_SPACE = /\S/g;

/** Whether text[start, end) holds anything but white space (no slice made). */
function blank(text: string, start: number, end: number): boolean {
  NON_SPACE.lastIndex = start;
  const m = NON_SPACE.exec(text);
  return m === null || m.index >= end;
}

/** The text's sentences as [start, end) offsets, blank ones left out. */
export function sentenceSpans(text: string): Array<[number, number]> {
  const spans: Array<[number, number]> = [];
  let start = 0;
  SENTENCE_BREAK.lastIndex = 0;
  for (let m = SENTENCE_BREAK.exec(text); m; m = SENTENCE_BREAK.exec(text)) {
    if (m.index > start && !blank(text, start, m.index)) spans.push([start, m.index]);
    start = m.index + m[0].length;
    if (m[0].length === 0) SENTENCE_BREAK.lastIndex++;
  }
  if (start < text.length && !blank(text, start, text.length)) spans.push([start, text.length]);
  return spans;
}

/**
 * A cheap first test of which spans may hold any of `wanted`: their first four letters occur in
 * the span (case and accents folded). Most sentences share no stem with a query at all, and the
 * exact test (`terms`) costs far more.
 */
export function spansWithStems(text: string, spans: Array<[number, number]>, wanted: Iterable<string>): number[] {
  const stems = [...new Set([...wanted].map((term) => term.slice(0, Math.min(term.length, 4))))];
  if (stems.length === 0 || spans.length === 0) return [];
  if (/[^\x00-\x7f]/.test(text)) {
    // Folding may change lengths: sentence by sentence.
    const out: number[] = [];
    spans.forEach(([start, end], index) => {
      const lower = fold(text.slice(start, end));
      if (stems.some((stem) => lower.includes(stem))) out.push(index);
    });
    return out;
  }
  // ASCII: lower-casing keeps every offset, so each stem is found once in the whole text and its
  // hits are placed in their sentences (spans are in order: a binary search on their starts).
  const lower = text.toLowerCase();
  const hit = new Uint8Array(spans.length);
  for (const stem of stems) {
    for (let at = lower.indexOf(stem); at >= 0; at = lower.indexOf(stem, at + 1)) {
      let lo = 0;
      let hi = spans.length - 1;
      while (lo < hi) {
        const mid = (lo + hi + 1) >>> 1;
        if (spans[mid][0] <= at) lo = mid;
        else hi = mid - 1;
      }
      const [start, end] = spans[lo];
      if (at >= start && at + stem.length <= end) hit[lo] = 1;
    }
  }
  const out: number[] = [];
  for (let i = 0; i < hit.length; i++) if (hit[i]) out.push(i);
  return out;
}

const normalised = (sentence: string) => sentence.replace(/\s+/g, ' ').trim();

/**
 * The sentence that matches most of the query's terms, widened with its neighbours to about
 * 200-300 characters; the text's opening when no sentence matches (a title-only hit).
 */
export function snippetFor(text: string, queryTerms: readonly string[], fallback?: string | null): string {
  const wanted = new Set(queryTerms);
  const spans = sentenceSpans(text);
  const sentence = (i: number) => normalised(text.slice(spans[i][0], spans[i][1]));
  let best = -1;
  let bestScore = 0;
  for (const index of spansWithStems(text, spans, wanted)) {
    const score = new Set(terms(text.slice(spans[index][0], spans[index][1])).filter((term) => wanted.has(term))).size;
    if (score > bestScore) {
      best = index;
      bestScore = score;
      // The first sentence with every term wins: none after it can beat it.
      if (score === wanted.size) break;
    }
  }
  if (best < 0) return clip(fallback?.trim() || spans.slice(0, 3).map((_, i) => sentence(i)).join(' '));
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
  for (const m of text.matchAll(/(?<![.!?:\n]\s*|^)\b\p{Lu}[\p{Ll}\p{Lu}'’&-]+(?:\s+(?:of|for|and|&|de|la|van|von)?\s*\p{Lu}[\p{Ll}\p{Lu}'’&-]+)*/gu)) {
    names.add(m[0].toLowerCase());
  }
  return names.size;
}
