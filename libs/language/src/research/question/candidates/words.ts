/** A sentence's words with where they stand and their stems, read once for every feature of its candidates (proximity, shape). */
import { tokenize } from '@app/text';

export interface Word {
  start: number;
  end: number;
  /** Its stem, as the question's terms are stemmed (undefined for a stop word). */
  term: string | undefined;
}

export function wordsOf(text: string): Word[] {
  return [...text.matchAll(/[\p{L}\p{N}]+/gu)].map((m) => ({
    start: m.index!,
    end: m.index! + m[0].length,
    term: tokenize(m[0])[0],
  }));
}

/** The first and last of `words` that the text from `at` (`length` characters) covers. */
export function spanOf(words: Word[], at: number, length: number): { first: number; last: number } {
  const first = words.findIndex((w) => w.end > at);
  let last = first;
  while (last >= 0 && last + 1 < words.length && words[last + 1]!.start < at + length) last++;
  return { first, last };
}
