/**
 * Short answers read from real sentences: what kind of answer a question asks for (a person, a
 * place, an organisation, a date or year, a number, yes/no, one of two named options, or a thing
 * its noun names), candidates of that kind in the passages read (compromise's people, places and
 * organisations and its proper-noun phrases, chrono-node's dates, numbers as written), scored by the
 * question's words around them, the passage's rank and agreement across sentences and sources.
 * Nothing fits: null, never a value of another kind.
 *
 * The short path's names, from the modules that hold them: the question's short reading
 * (short-question.ts), its one analysis (analysis.ts), candidates by kind (candidates/), the
 * scorer (scoring.ts), the answer chosen from its candidates (best-answer.ts), which of two
 * (choice.ts), yes/no (yes-no.ts), names (names.ts).
 */
export {
  analyseShortQuestion,
  askingPart,
  asksSettlement,
  type ShortAnswer,
  type ShortKind,
  type ShortQuestion,
} from './short-question';
export { candidatesIn } from './candidates';
export { datePiece } from './candidates/dates';
export { NOT_OF_KIND } from './candidates/fit';
export { countsAsked, numberNamed } from './candidates/numbers';
export { capitalisedRuns, instanceConflict, keyOf, quotedTitles, subjectOf, titleName } from './names';
export { termWeights } from './sentences';
export { fitsKind, kindConfidence } from './confidence';
export { listed, shortAnswer } from './best-answer';
