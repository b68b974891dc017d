/**
 * What a question asks about directly, by the names it writes ("How many people does <X> employ?",
 * "When was <X> founded?", "<X>'s <Y> station"): a value of it is stated on a page naming one of
 * them. A question that reaches its answer through another thing ("the city where <X> was born",
 * "the film in which <X> had a role", "the maker of <X>", "where the chair of <X> studied") asks
 * for a value whose page need not name X: it has none.
 */
import { tokenize } from '@app/text';
import type { ResearchPassage } from '@app/research';

/** A relative clause after the question's opening: what it names is reached through another thing. */
const RELATIVE = /\b(?:where|whose|whom|which|that|who|when)\b/i;
/**
 * A thing the question describes through a name rather than names: "the maker of <X>", "the
 * company behind <X>", "the largest customer of <X>" (a definite description ending in a
 * preposition before the name), "the retailer owned by <X>" (a participle's agent).
 */
const DESCRIBED =
  /\bthe\s+(?:[\p{Ll}-]+\s+){1,3}?(?:of|behind|for|from|with|at|in)\s+(?:the\s+)?\p{Lu}|\b\p{Ll}+(?:ed|en|wn)\s+by\s+(?:the\s+)?\p{Lu}/u;
/** The opening words, where a wh-word asks rather than relates ("In which year…", "Which county…"). */
const OPENING = /^\s*(?:\S+\s+){0,2}/;

/** "Who is the chair of <X>?" asks the role itself; "Where did the chair of <X> study?" asks of its holder. */
const ASKS_ROLE =
  /^\s*who\s+(?:is|was|are|were)\s+(?:the\s+)?(?:current\s+|former\s+|first\s+)?[\p{L}-]+(?:\s+[\p{L}-]+)?\s+of\b/iu;

/**
 * The words of the names (`names`, as the question writes them) a page about what it asks holds,
 * stemmed as passages are read; empty for none. `role`: the question names a role through an
 * entity ("the chief executive of <X>", question-shape.ts); unless it asks who holds it, it asks
 * of the holder, whose own page need not name X.
 */
export function directSubject(question: string, names: string[], role: boolean): string[] {
  if (RELATIVE.test(question.replace(OPENING, ''))) return [];
  if ((role || DESCRIBED.test(question)) && !ASKS_ROLE.test(question)) return [];
  return [...new Set(names.flatMap((name) => tokenize(name)))].filter((w) => w.length >= 2);
}

/**
 * The sources of passages that name none of the subject's words (in title, address or text), when
 * others do: a sentence there states a value of some other entity. Empty when no passage names it
 * (nothing read is about it, so nothing tells the pages apart) or the question has no direct subject.
 */
export function offSubjectSources(subject: string[], passages: ResearchPassage[]): Set<number> {
  if (subject.length === 0) return new Set();
  const off = new Set<number>();
  let naming = 0;
  for (const p of passages) {
    const words = new Set(tokenize(`${p.title} ${p.url.replace(/[-./:_]+/g, ' ')} ${p.text}`));
    if (subject.some((w) => words.has(w))) naming++;
    else off.add(p.source);
  }
  return naming > 0 ? off : new Set();
}
