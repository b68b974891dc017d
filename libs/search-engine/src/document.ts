import type { Category } from '@app/providers';
import { entityCount, terms } from './text-analysis';

/** One page as the index keeps it. */
export interface IndexedDocument {
  /** Identity: the canonical (or normalised) URL; adding the same URL again replaces the page. */
  url: string;
  title: string;
  /** The whole main text: searched, and returned as a hit's `content`. */
  text: string;
  /** Meta description, used for the snippet when no sentence matches the query. */
  description: string | null;
  /** `YYYY-MM-DD`. */
  date: string | null;
  category: Category | null;
  language: string | null;
  /** Lower-case host name, matched by domain filters with its subdomains. */
  domain: string;
  /** What added it (`folder`, or the seed as written in LOCAL_INDEX_SEEDS): a source is rebuilt on its own. */
  source: string;
}

// Longer pages are cut for the index (not for `content`): BM25 gains nothing from a book's tail.
export const MAX_INDEXED_CHARS = 100_000;

/** A page's terms, counted per field, as a segment records them. */
export interface Analysed {
  titleTf: Map<string, number>;
  textTf: Map<string, number>;
  titleLen: number;
  textLen: number;
  names: number;
}

/** A page with its terms already counted (by an extraction worker): the writer only stores it. */
export interface PreparedDocument {
  doc: IndexedDocument;
  analysed: Analysed;
}

export function analyse(doc: IndexedDocument): Analysed {
  const count = (text: string) => {
    const tf = new Map<string, number>();
    let length = 0;
    for (const term of terms(text)) {
      tf.set(term, (tf.get(term) ?? 0) + 1);
      length++;
    }
    return { tf, length };
  };
  const body = doc.text.slice(0, MAX_INDEXED_CHARS);
  const title = count(doc.title);
  const text = count(body);
  return { titleTf: title.tf, textTf: text.tf, titleLen: title.length, textLen: text.length, names: entityCount(body) };
}
