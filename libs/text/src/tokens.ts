/**
 * Words and tokens. Deterministic (English-first): no model, no randomness, no locale-dependent
 * APIs. A word is a run of letters and digits of any script.
 */
import { stem } from './stems';
import { QUERY_STOP_WORDS } from './stop-words';

/** The language engines' tokens: lower-cased, stemmed content words (stop words and lone letters dropped). */
export function tokenize(text: string): string[] {
  const out: string[] = [];
  for (const match of text.toLowerCase().matchAll(/[\p{L}\p{N}]+/gu)) {
    const word = match[0];
    if (word.length < 2 && !/\d/.test(word)) continue;
    if (QUERY_STOP_WORDS.has(word)) continue;
    out.push(stem(word));
  }
  return out;
}

/** The text split at every run of other characters, as written (empty strings at the ends kept). */
export function words(text: string): string[] {
  return text.split(/[^\p{L}\p{N}]+/u);
}
