/**
 * What a question says of its subject, for judging an answer's sentence: the names and numbers it
 * writes, the stems of its own verbs (the relation asked about, light verbs left out), and whether
 * it is negated.
 */
import { tokenize } from '@app/text';
import { nlp } from '../../lazy-parsers';

/** Verbs that carry no relation of their own ("was", "did", "has"). */
const LIGHT_VERB =
  /^(?:be|is|was|are|were|been|being|am|do|does|did|done|have|has|had|can|could|will|would|shall|should|may|might|must|get|got|make|made|call|called|name|named|know|known)$/i;
export const NEGATION = /\b(?:not|never|no|none|nor|neither|without|n't|cannot)\b/i;

/** Capitalised words (past the first) and numbers the question writes, lower case: the names it is about. */
export function questionNames(text: string): string[] {
  const words = [...text.matchAll(/[\p{L}\p{N}][\p{L}\p{N}'’.-]*/gu)].map((m) => m[0]);
  return words
    .filter((w, i) => (i > 0 && /^\p{Lu}/u.test(w)) || /\d/.test(w))
    .map((w) => w.replace(/['’]s$|[.'’-]+$/u, '').toLowerCase());
}

/** The stems of the question's own verbs, light ones left out: the relation it asks about ("founded" -> found). */
export function relationStems(text: string): string[] {
  const verbs = nlp(text).verbs().json() as Array<{ verb?: { infinitive?: string }; text: string }>;
  const out = new Set<string>();
  for (const v of verbs) for (const w of tokenize(v.verb?.infinitive ?? v.text)) if (!LIGHT_VERB.test(w)) out.add(w);
  return [...out];
}
