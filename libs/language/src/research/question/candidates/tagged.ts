/**
 * A sentence as compromise tags it, made once for every reader of one question's candidates
 * (names, things and the candidates' shape all read the same sentence): tagging costs about a
 * millisecond a sentence, and nothing here changes a document once tagged.
 */
import { nlp } from '../../../lazy-parsers';

/** Sentences kept tagged (bounded by count: one question reads at most 40, sentences.ts). */
const KEPT = 256;
const docs = new Map<string, ReturnType<typeof nlp>>();

export function tagged(text: string): ReturnType<typeof nlp> {
  const hit = docs.get(text);
  if (hit) return hit;
  const doc = nlp(text);
  if (docs.size >= KEPT) docs.delete(docs.keys().next().value!);
  docs.set(text, doc);
  return doc;
}
