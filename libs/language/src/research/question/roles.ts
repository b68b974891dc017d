/** The roles a question may ask about through its entity, and how a question names one. */
import lexicon from '../../lexicon/question-words.json';

/** A role asked about through the question's entity, and the phrase that names it ("the chief executive of X"). */
export interface QuestionRelation {
  role: string;
  phrase: string;
}

/** Roles a question may ask about through the entity ("the founder of X", "X's chief executive"): lexicon/question-words.json. */
const ROLES: string[] = lexicon.roles.words;
/** Names are capitalised, so patterns that find them take no `i` flag: other words are made case-blind. */
export const caseBlind = (words: string) =>
  words.replace(/[a-z]/g, (c) => `[${c}${c.toUpperCase()}]`).replace(/[-\s]+/g, '[-\\s]+');
// "head of engineering", "director of research": a head of any department is a role too.
export const ROLE_PATTERN = [
  `(?:${caseBlind('head')}|${caseBlind('director')}|${caseBlind('vice president')})[-\\s]+${caseBlind('of')}\\s+\\p{Ll}+`,
  ...ROLES.map(caseBlind),
].join('|');
/** "the chief executive of Brightwater Foods" / "Brightwater Foods' founder" / "Brightwater's CEO". */
const ROLE_OF = new RegExp(
  `\\b(?:${caseBlind('the')}\\s+|${caseBlind('its')}\\s+|${caseBlind('their')}\\s+)?(?:current\\s+|former\\s+|first\\s+)?((?:(?!(?:did|does|do|was|were|is|are|has|have|had|the|its|their|of|at|in|for|and|a|an|to|where|when|what|which|who|how)\\s)\\p{Ll}[\\p{Ll}-]*\\s+){0,2}?(?:${ROLE_PATTERN}))\\s+(?:of|at)\\s+((?:the\\s+)?\\p{Lu}[\\p{L}\\p{N}&'’.-]*(?:\\s+(?:of|for|and|&|de|the)?\\s*(?:\\p{Lu}[\\p{L}\\p{N}&'’.-]*|\\d+\\b)){0,4})`,
  'u',
);
const POSSESSIVE_ROLE = new RegExp(
  `((?:\\p{Lu}[\\p{L}\\p{N}&.-]*\\s+){0,3}\\p{Lu}[\\p{L}\\p{N}&.-]*)(?:['’]s|['’])\\s+(?:current\\s+|former\\s+)?(${ROLE_PATTERN})\\b`,
  'u',
);

/** "the person who founded X": the verb's role. */
const WHO_DID: Record<string, string> = lexicon.who_did.roles;
const WHO_DID_PATTERN = new RegExp(
  `\\b${caseBlind('the')}\\s+(?:person|man|woman|people|scientist|engineer|chef|entrepreneur)\\s+(?:who|that)\\s+(?:(?:first|originally|currently)\\s+)?(${Object.keys(WHO_DID).join('|')})\\s+((?:the\\s+)?\\p{Lu}[\\p{L}\\p{N}&'’.-]*(?:\\s+(?:of|for|and|&|de|the)?\\s*(?:\\p{Lu}[\\p{L}\\p{N}&'’.-]*|\\d+\\b)){0,4})`,
  'u',
);

export function relationOf(question: string): QuestionRelation | null {
  const who = WHO_DID_PATTERN.exec(question);
  if (who) return { role: WHO_DID[who[1]!]!, phrase: who[0].trim() };
  const of = ROLE_OF.exec(question);
  if (of) return { role: of[1]!.toLowerCase(), phrase: of[0].trim() };
  const possessive = POSSESSIVE_ROLE.exec(question);
  if (possessive) return { role: possessive[2]!.toLowerCase(), phrase: possessive[0].trim() };
  return null;
}
