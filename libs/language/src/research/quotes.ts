/** What the extractive model's stages share about sentences and quotes: the lengths read, the sentences an answer quotes at most, a quote cleaned, two values or two questions that are the same. */
import { oneLine } from '@app/research';

/** Shorter "sentences" are headings and menu items; longer ones are run-on boilerplate. */
export const MIN_SENTENCE = 20;
export const MAX_SENTENCE = 600;
export const MAX_ANSWER_SENTENCES = 3;
/** Footnote marks copied from pages ("[12]", "[citation needed]") would read as our citations. */
const FOOTNOTE = /\s*\[(?:\d+(?:\s*,\s*\d+)*|citation needed)\]/gi;

export const clean = (quote: string) => oneLine(quote.replace(FOOTNOTE, ''));

export const sameValue = (a: string | undefined, b: string) =>
  a !== undefined && clean(a).toLowerCase() === clean(b).toLowerCase();

export const sameQuestion = (a: string, b: string) =>
  oneLine(a)
    .replace(/[?.!\s]+$/, '')
    .toLowerCase() ===
  oneLine(b)
    .replace(/[?.!\s]+$/, '')
    .toLowerCase();
