/** What the candidate readers need of the question, read from it once (see analyse): the noun asked, the script, the series named, what a number should be. */
import { tokenize } from '@app/text';

export interface CandidateCues {
  /** The noun the question asks for, as written (ShortQuestion.nounWord); null: none. */
  askedWord: string | null;
  /** The question is written in the Latin script. */
  latin: boolean;
  /** "What colour…". */
  colour: boolean;
  /** "What talk show…", "which hotel…": one of a kind (a wh-word no verb follows). */
  member: boolean;
  /** "Who were the two abbots…", "which performers joined…": several are asked for, not one. */
  several: boolean;
  /** "Which World Cup…?": the series the question names, as written. */
  series?: string;
  /** A question about money ("how much … cost"), a score, a time of the clock. */
  money: boolean;
  score: boolean;
  clock: boolean;
  /** "How many solo tackles…?": the words of what is counted. */
  counted: Set<string>;
}

/** "How many solo tackles…?": the words of what is counted (none for another question). */
export const countedNoun = (question: string) =>
  new Set(tokenize(/\bhow many\s+([\p{L}-]+(?:\s+[\p{L}-]+)?)/iu.exec(question)?.[1] ?? ''));

/** The cues of `question` (the question as analysed, one line), `askedWord` the noun it asks for. */
export function candidateCues(question: string, askedWord: string | null): CandidateCues {
  const series =
    /^(?:[Ww]hich|[Ww]hat)\s+((?:\p{Lu}[\p{L}'’-]*\s+)*\p{Lu}[\p{L}'’-]*)\s+(?:is|was|are|were|did|does|do|has|had|have)\b/u.exec(
      question,
    )?.[1];
  return {
    askedWord,
    latin: /\p{Script=Latin}/u.test(question),
    colour: /\b(?:what|which)\s+colou?rs?\b/i.test(question),
    several:
      /^(?:who|which|what)\s+(?:(?:were|are)\s+the\s+)?(?:two|three|four|both)\b/i.test(question) ||
      /^who\s+(?:were|are)\b/i.test(question) ||
      (askedWord !== null && /\p{L}[^s]s$/u.test(askedWord) && /^(?:which|what)\b/i.test(question)),
    member: /\b(?:which|what)\s+(?!(?:is|was|are|were|did|does|do|has|had|have)\b)/i.test(question),
    ...(series !== undefined ? { series } : {}),
    money:
      /\bhow much\b.*\b(?:money|cost|costs|spent|spend|raise|raised|pay|paid|worth|price|charge|charged|earn|earned)\b|\b(?:cost|price|revenue|budget|fee)\b/i.test(
        question,
      ),
    score: /\bscore\b/i.test(question),
    clock: /\bhow much time\b|\btime (?:was )?(?:left|remaining)\b/i.test(question),
    counted: countedNoun(question),
  };
}
