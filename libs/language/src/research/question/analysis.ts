/**
 * The question analysed once: every reading the answer's stages need of it (the typed reading,
 * the short reading, what the candidate readers look for, what is counted, the numbered and
 * initialled names it writes, the end of a life it asks, the person whose organisation it names),
 * built by `analyse` and handed down instead of the question string.
 */
import { tokenize } from '@app/text';
import { affiliation } from './affiliation';
import { type CandidateCues, candidateCues, countedNoun } from './candidates/cues';
import { asksLife, type LifeEnd } from './lifespan';
import { initialsOf, numberedNames } from './names';
import { type Opposed, oppositesOf } from './opposites';
import { analyseQuestion, type QuestionShape } from './question-shape';
import { NEGATION, questionNames, relationStems } from './relation';
import { askingPart, readShortQuestion, type ShortQuestion } from './short-question';
import { directSubject } from './subject';
import { plainWords } from './words';

export interface QuestionAnalysis {
  /** The question as given. */
  text: string;
  /** Its stemmed words as given, in order (the typed and lexical readings' terms). */
  words: string[];
  /** Its words as given, lower case, in order, stop words kept: what a sentence that replaces one of them is matched against. */
  plain: string[];
  /** The typed reading: the kind of value, the entity, the predicate, a role asked through the entity (question-shape.ts). */
  shape: QuestionShape;
  /** The short reading: its kind, terms, the noun asked, read from one bounded line (`short.text`); null for an open prompt. */
  short: ShortQuestion | null;
  /** Where the question as given asks (askingPart); null without a short reading. */
  asking: string | null;
  /** What the candidate readers look for, read from the short reading's line and noun. */
  cues: CandidateCues;
  /** "How many solo tackles…?": the words of what is counted, read from the question as given (empty for another question). */
  counted: Set<string>;
  /** The initials of the names of two capitalised words or more the short reading's line writes ("NFL" of "the National Football League"). */
  initials: Set<string>;
  /** The numbered names the short reading's line writes: each series' name and the numeral it asks of ("Harvest Cup 50"). */
  numbered: Map<string, string>;
  /** The end of a life asked ("born in what year?"), or null. */
  life: LifeEnd | null;
  /** "The company where X works": the phrase and the person whose organisation the question names, or null. */
  affiliation: { phrase: string; person: string } | null;
  /** The names and numbers the short reading's line writes, lower case (relation.ts); empty without a short reading. */
  names: string[];
  /** The stems of its own verbs, light ones left out: the relation asked about (empty without a short reading). */
  relation: string[];
  /** The short reading's line is negated ("not", "never"). */
  negated: boolean;
  /** The short reading's words that have an opposite (WordNet), with their opposites, stemmed (empty without a short reading). */
  opposed: Opposed[];
  /** The words of the names it writes, stemmed, when it asks about what they name directly; empty otherwise (subject.ts). */
  subject: string[];
}

/** Analyses made since the module was loaded: a test counts them (see analysesSince). */
let analyses = 0;

/** How many analyses have been made so far (a mark for analysesSince). */
export const analysisCount = (): number => analyses;
/** How many analyses have been made since `mark` (an earlier analysisCount()). */
export const analysesSince = (mark: number): number => analyses - mark;

/** Every reading of `question` the answer's stages need, made once. */
export function analyse(question: string): QuestionAnalysis {
  analyses++;
  const { short, asking } = readShortQuestion(question);
  // Where the question asks, as given: the short reading's own when its line is the question itself.
  const askingAsGiven = short ? (short.text === question ? asking! : askingPart(question)) : null;
  const line = short?.text ?? '';
  const names = short ? questionNames(line) : [];
  const shape = analyseQuestion(question);
  const affiliated = affiliation(question);
  return {
    text: question,
    words: tokenize(question),
    plain: plainWords(question),
    shape,
    short,
    asking: askingAsGiven,
    cues: candidateCues(line, short?.nounWord ?? null),
    counted: countedNoun(question),
    initials: short ? initialsOf(line) : new Set(),
    numbered: short ? numberedNames(line) : new Map(),
    life: short ? asksLife(short) : null,
    affiliation: affiliated,
    names,
    relation: short ? relationStems(line) : [],
    negated: NEGATION.test(line),
    opposed: short ? oppositesOf(line) : [],
    subject: directSubject(question, names, shape.relation !== null || affiliated !== null),
  };
}
