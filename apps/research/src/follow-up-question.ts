import type { FollowUpContext } from '@app/domain';
import { resolveReference } from '@app/language';

/**
 * A follow-up's question with its words that refer back named (API.md "Follow-ups"): "Where is it
 * headquartered?" after "Who founded Northwind Solar?" is researched as "Where is Northwind Solar
 * headquartered?". The subject is the name the latest earlier question gave (one per line, the
 * latest first), else the one the answer gave; a question that names its own subject is left as
 * it is.
 */
export function followUpQuestion(question: string, follows: FollowUpContext | null | undefined): string {
  if (!follows) return question;
  // Names are looked for after a context's first word (it is a question's "Who", "Where"): an
  // answer, which may open with the name, is read after a word of its own.
  const contexts = [...follows.question.split('\n').reverse(), ...(follows.answer ? [`So: ${follows.answer}`] : [])];
  for (const context of contexts) {
    const resolved = resolveReference(question, context);
    if (resolved !== question) return resolved;
  }
  return question;
}
