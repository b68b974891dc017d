/** Follow-up questions in a chat: a pronoun stands for the name an earlier message gave. */
import { analyseQuestion, namesIn } from './question-shape';

/**
 * A follow-up question's pronoun resolved with the name an earlier message gave ("Tell me about
 * HelioGrid." then "Where is its battery plant?" -> "Where is HelioGrid's battery plant?"). A
 * question that names its own entity, or has no pronoun, is returned as it is.
 */
export function resolveReference(question: string, context: string): string {
  if (analyseQuestion(question).entityName) return question;
  const name = namesIn(` ${context}`).entity;
  if (!name) return question;
  let done = false;
  const once = (replacement: string) => (match: string) => {
    if (done) return match;
    done = true;
    return /^\p{Lu}/u.test(match) && !/^\p{Lu}/u.test(replacement)
      ? replacement.charAt(0).toUpperCase() + replacement.slice(1)
      : replacement;
  };
  return question
    .replace(/\b(?:its|their|his|her)\b/i, once(`${name}'s`))
    .replace(/\b(?:it|they|them|he|she|him)\b/i, once(name));
}
