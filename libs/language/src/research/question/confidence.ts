/** How sure a value can be for the kind of answer a question asks: a name of that kind, checked by compromise's tags. */
import { analyse, type QuestionAnalysis } from './analysis';
import type { ShortAnswer, ShortKind } from './short-question';
import { nlp } from '../../lazy-parsers';

/**
 * How sure a value can be for the kind `question` asks: high for a name of the kind asked (a
 * person or a team for "who", a place for "where"), yes/no and which-of-two; medium for a number
 * or a date (of the right shape, it may still count the wrong thing) and for a name compromise
 * does not see as the kind asked.
 */
export function kindConfidence(question: string | QuestionAnalysis, value: string): ShortAnswer['confidence'] {
  const a = typeof question === 'string' ? analyse(question) : question;
  const kind = a.short?.kind;
  if (!kind || kind === 'choice' || kind === 'yesno') return 'high';
  if (kind === 'number' || kind === 'date' || kind === 'year' || kind === 'thing') return 'medium';
  // "Who": one word ("Roman", "Milo" of "Milo's Stadium") may be a person's name only to compromise's list of first names.
  if (kind === 'person' && !/\s/.test(value.trim()) && !nlp(value).has('#Organization')) return 'medium';
  return fitsKind(kind, value) ? 'high' : 'medium';
}

/** The value is a name of the kind a question asks for (`kind`), as compromise tags it (a person or a team for "who", a place for "where"). */
export function fitsKind(kind: ShortKind | undefined, value: string): boolean {
  const doc = nlp(value);
  if (kind === 'person') return doc.has('#Person') || doc.has('#Organization');
  if (kind === 'place') return doc.has('#Place');
  if (kind === 'organisation') return doc.has('#Organization') || doc.has('#ProperNoun');
  return true;
}
