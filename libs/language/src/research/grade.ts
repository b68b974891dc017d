/** Grading: the finding a question's passages give it, typed (a value of the kind asked next to its predicate), short (a candidate of the kind asked) or lexical (the closest sentences). */
import type { Finding } from '@app/domain';
import { tokenize } from '@app/text';
import type { ResearchPassage } from '@app/research';
import { analyse, type QuestionAnalysis } from './question/analysis';
import { answerUnits } from './question/answer-units';
import { candidatesIn } from './question/candidates';
import { NOT_OF_KIND } from './question/candidates/fit';
import { countsAsked, numberNamed } from './question/candidates/numbers';
import { kindConfidence } from './question/confidence';
import { lifeDate } from './question/lifespan';
import { listed, shortAnswer } from './question/best-answer';
import { asksSettlement, type ShortAnswer } from './question/short-question';
import { formatValue, typedAnswer } from './question/typed-answer';
import { gradeLexical } from './lexical';
import { judge, type ReaderWeights } from './answer/answer-model';
import { typedValue } from './prompt-answer';
import { clean, MAX_ANSWER_SENTENCES, MAX_SENTENCE, MIN_SENTENCE, sameValue } from './quotes';

/**
 * A question that asks for a kind of value (a year, money, a person, yes/no, …) is answered by the
 * unit that states such a value next to its predicate on a page about its entity: the finding's
 * answer is that value as the page wrote it, its first quote the unit that states it, then other
 * sources stating the same value. When no unit states one, the lexical finding stands, its answer
 * the quotes themselves (the report then says no source answered and shows them as closest passages).
 * The question is analysed once (`question`: its analysis, where the caller has made it) and every
 * stage reads that analysis.
 */
export function gradeExtractive(
  subquery: string,
  passages: ResearchPassage[],
  question: QuestionAnalysis = analyse(subquery),
): Finding | null {
  return judged(question, gradeRules(subquery, passages, question), passages);
}

/**
 * A finding's value judged by the answer model (answer/answer-model.ts): its confidence becomes
 * the model's; a value the model finds unlikely, or one of another kind than asked, is withheld:
 * the finding then holds the closest sentences and no value, and its verdict says why.
 */
export function judged(
  question: QuestionAnalysis,
  finding: Finding | null,
  passages: ResearchPassage[],
  weights?: ReaderWeights,
): Finding | null {
  const value = finding && question.short ? typedValue(finding, question, true) : null;
  if (!finding || !question.short || value === null) return finding;
  const v = judge({ question, value, rule: finding.confidence, evidence: finding.evidence, passages }, weights);
  const verdict = {
    probability: round4(v.probability),
    answered: v.answered,
    value,
    features: Object.fromEntries(Object.entries(v.features).map(([k, x]) => [k, round4(x)])),
    reason: v.reason,
  };
  if (v.answered) return { ...finding, confidence: v.confidence, verdict };
  return { ...finding, answer: finding.evidence[0]!.quote, confidence: 'low', verdict };
}

const round4 = (x: number) => Math.round(x * 1e4) / 1e4;

/** The candidate rules' finding, before the answer model judges it (what the model is trained on). */
export function gradeRules(
  subquery: string,
  passages: ResearchPassage[],
  question: QuestionAnalysis = analyse(subquery),
): Finding | null {
  const finding = gradeUnchecked(question, passages);
  if (!finding || finding.confidence !== 'high') return finding;
  // High only where the value is of the kind asked for (compromise's tags) and of a kind that can be checked.
  const checked = kindConfidence(question, finding.answer);
  return checked === 'high' ? finding : { ...finding, confidence: checked };
}

function gradeUnchecked(analysis: QuestionAnalysis, passages: ResearchPassage[]): Finding | null {
  const { text: subquery, shape } = analysis;
  // Which of two, and yes or no about two named things, are settled from each one's own page.
  const question = analysis.short;
  const asked = question?.kind;
  // The short answer is read once, whichever way the question goes.
  let shortRead: Finding | null | undefined;
  const short = () => (shortRead === undefined ? (shortRead = gradeShort(analysis, passages)) : shortRead);
  // "Born in what year?": the dates given after the name of the person the question describes.
  const life = question && lifeDate(question, passages, analysis.life);
  if (life) return shortFinding(subquery, life, life.agreeing);
  // The two readings of the question disagreeing on a name's kind (a thing asked by its noun,
  // "the fight song of the university whose main campus…", read as a person by "whose"): the
  // typed rules would answer another question.
  const otherName =
    asked === 'thing' && (shape.kind === 'person' || shape.kind === 'place' || shape.kind === 'organisation');
  const first = asked === 'choice' || asked === 'yesno' || shape.kind === 'text' || otherName;
  if (first) {
    // Which of two is never answered "yes": without a settled option, the closest sentences, low.
    if (short()) return short();
    if (asked === 'choice') return lowered(gradeLexical(analysis, passages));
    if (shape.kind === 'text') return gradeLexical(analysis, passages);
  }
  const units = answerUnits(passages, shape, MIN_SENTENCE, MAX_SENTENCE);
  const typed = typedAnswer(analysis, shape, units);
  if (!typed) return short() ?? lowered(gradeLexical(analysis, passages));
  // A person or an organisation the typed rules found only weakly (no predicate beside it), or a
  // name that is none of the kind asked where it stands (see isNameIn): the short path, which
  // weighs every candidate by its distance to the question's words, reads real sentences better.
  // (Counts stay typed: there the typed rules' labels win.) Both readings agreeing, the typed
  // finding stands with the sources it found.
  const named = asked === 'person' || asked === 'place' || asked === 'organisation';
  const single = formatValue(shape.kind, typed.value);
  // "Who were the sideline reporters?": the pair the sentence names, where it names one.
  const value = named ? listed(analysis, single, typed.unit.text) : single;
  // "How many touchdowns": the short path's number is followed by touchdowns, the typed one is not.
  const countsBetter = () =>
    asked === 'number' &&
    short() !== null &&
    countsAsked(analysis, short()!.answer, short()!.evidence[0]!.quote) === true &&
    !countsAsked(analysis, typed.value, typed.unit.text);
  // The short path sure of a person or an organisation (of the kind, agreed by two sources, well
  // ahead of the next): "Ned Brask … was a British executioner for 23 years" over the typed
  // rules' "Ned Brask only had one brother, Alden Pryce" for "who had only one brother and
  // was a British executioner for 23 years?".
  const shortSure = () => (asked === 'person' || asked === 'organisation') && short()?.confidence === 'high';
  // "How many songs were on the album…": the album's name "17" counts nothing.
  const aName = asked === 'number' && numberNamed(passages)(typed.value);
  const weakName =
    shortSure() ||
    aName ||
    (typed.score < TYPED_SURE && (asked === 'person' || asked === 'organisation')) ||
    (named && !isNameIn(analysis, single, typed.unit.text)) ||
    countsBetter();
  if (weakName && short() && !sameValue(short()!.answer, value)) return short();
  // A name is no count: without another number, the closest sentences, low (no value).
  if (aName) return short() ?? lowered(gradeLexical(analysis, passages));
  // Other sources that state the same value (as a whole word: "140" does not state "40"), about
  // the same thing (a word of the question's predicate), agree with it.
  const stated = new RegExp(
    `(?<![\\p{L}\\p{N}])${typed.value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![\\p{L}\\p{N}])`,
    'iu',
  );
  const agreeing = units.filter(
    (u) =>
      u.source !== typed.unit.source &&
      u.about &&
      shape.kind !== 'boolean' &&
      stated.test(u.text) &&
      tokenize(u.text).some((t) => shape.predicate.has(t)),
  );
  const evidence: Finding['evidence'] = [{ source: typed.unit.source, quote: typed.unit.text }];
  for (const u of agreeing)
    if (evidence.length < MAX_ANSWER_SENTENCES && !evidence.some((e) => e.source === u.source))
      evidence.push({ source: u.source, quote: u.text });
  const sources = new Set(evidence.map((e) => e.source)).size;
  // A name is high only when the short path, reading every candidate by its distance to the
  // question's words, names the same one and is sure of it (well ahead of the next): pages on one
  // subject repeat their names everywhere ("Ilse Marnow" and "Dora Keswick" beside "head coach of the Otters").
  const confirmed = !named || sources < 2 || (sameValue(short()?.answer, value) && short()?.confidence === 'high');
  return {
    subquery,
    answer: value,
    citations: [...new Set(evidence.map((e) => e.source))],
    confidence: sources >= 2 && confirmed ? 'high' : sources >= 2 || typed.score >= TYPED_SURE ? 'medium' : 'low',
    evidence,
  };
}

/**
 * Whether a name the typed rules read is a name of the kind asked where it stands, as the short
 * path reads names ("Only" opening a sentence, "Harvest Cup" for a question about a Harvest Cup,
 * a date for "where" are none): one of that sentence's candidates, or inside one; for a place
 * or an organisation, one compromise sees as such.
 */
function isNameIn(analysis: QuestionAnalysis, value: string, sentence: string): boolean {
  const q = analysis.short!;
  const { kind, noun } = q;
  const key = clean(value).toLowerCase();
  const terms = new Set(q.terms);
  if (tokenize(value).every((t) => terms.has(t))) return false;
  const mine = candidatesIn(kind, sentence, terms, analysis.cues).filter((c) =>
    clean(c.text).toLowerCase().includes(key),
  );
  // A name the short path weighs below any other of its sentence: an event for "where", a stadium for "who".
  if (mine.length > 0 && mine.every((c) => c.fit <= NOT_OF_KIND)) return false;
  // "Where": one the sentence puts a place's preposition before ("in North Hobart"); "which
  // company": one worked at, for or with ("nine years designing kitchen appliances at Brenholt
  // Haushaltsgeräte"), or one that names the noun asked ("University of Évora").
  const at = sentence.indexOf(value);
  const before = at >= 0 ? sentence.slice(Math.max(0, at - 12), at) : '';
  // (Not "at" for a city or a country: "presenter at MTR 1377" names a station, not a city.)
  const placePreposition = asksSettlement(q)
    ? /\b(?:in|near|from)\s+(?:the\s+)?$/i
    : /\b(?:in|at|near|from)\s+(?:the\s+)?$/i;
  if (kind === 'place' && placePreposition.test(before)) return true;
  if (kind === 'organisation' && /\b(?:at|for|by|with|from|joined)\s+(?:the\s+)?$/i.test(before)) return true;
  if (kind === 'organisation' && noun && /^\p{Lu}/u.test(value) && tokenize(value).includes(noun)) return true;
  // Else places and organisations as compromise sees them in their sentence ("including CNN" is
  // no place, "Harvest Cup" no organisation); any candidate for "who".
  return mine.some((c) => kind === 'person' || c.fit > 1);
}

/** A typed answer scored this high states its value beside the question's predicate. */
const TYPED_SURE = 3;

const lowered = (f: Finding | null): Finding | null => f && { ...f, confidence: 'low' };

/** A question's short answer (see best-answer.ts) as a finding: the value, the sentence stating it, the sources agreeing. */
function gradeShort(question: QuestionAnalysis, passages: ResearchPassage[]): Finding | null {
  const short = shortAnswer(question, passages);
  if (!short) return null;
  // A thing named by a noun phrase is a guess from its sentence: the closest sentences stay beside it.
  const beside = question.short?.kind === 'thing' ? (gradeLexical(question, passages)?.evidence ?? []) : short.agreeing;
  return shortFinding(question.text, short, beside);
}

/** A short answer as a finding: its value, the sentence stating it, then the sentences beside it (other sources' first). */
function shortFinding(subquery: string, short: ShortAnswer, beside: ShortAnswer['agreeing']): Finding {
  const evidence: Finding['evidence'] = [{ source: short.source, quote: short.quote }];
  for (const a of beside)
    if (
      evidence.length < MAX_ANSWER_SENTENCES &&
      !evidence.some((e) => e.quote === a.quote || (e.source === a.source && beside === short.agreeing))
    )
      evidence.push(a);
  return {
    subquery,
    answer: short.value,
    citations: [...new Set(evidence.map((e) => e.source))],
    confidence: short.confidence,
    evidence,
  };
}
