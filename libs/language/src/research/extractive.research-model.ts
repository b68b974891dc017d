import nlp from 'compromise';
import type { Finding } from '@app/domain';
import type { TokenUsage } from '../language-model.port';
import { addCounts, bm25, sentenceSpans, tokenize } from '@app/text';
import { affiliation, affiliationName } from './question/affiliation';
import { answerUnits } from './question/answer-units';
import { describedName, describedObject } from './question/described';
import { analyseQuestion, questionKind } from './question/question-shape';
import { roleHolder } from './question/role-holder';
import { analyseShortQuestion, asksSettlement, candidatesIn, countsAsked, kindConfidence, listed, NOT_OF_KIND, numberNamed, shortAnswer, type ShortAnswer, type ShortQuestion } from './question/short-answer';
import { formatValue, typedAnswer } from './question/typed-answer';
import { bridgeNames } from './question/bridge';
import { lifeDate } from './question/lifespan';
import { citedIndexes, claimSentences, GAP_NOTE, oneLine, sourcesSection, type FollowUp, type ResearchCallOptions, type ResearchModel, type ResearchPassage, type ResearchSourceRef, type SynthesiseOptions } from '@app/research';

/** No model is called: invented token counts would distort usage and cost figures. */
const NO_USAGE: TokenUsage = { input: 0, output: 0 };
/** Shorter "sentences" are headings and menu items; longer ones are run-on boilerplate. */
const MIN_SENTENCE = 20;
const MAX_SENTENCE = 600;
/** A sentence within this share of the best score agrees with it (and may join the answer). */
const AGREE_FRACTION = 0.6;
const MAX_ANSWER_SENTENCES = 3;
/** Sub-queries a plan leaves for follow-ups when the question will need them (of 4 or more). */
const FOLLOW_UP_RESERVE = 2;
/** Sub-queries a plan leaves for a bridge's page (of 4 or more) where the question may need one. */
const BRIDGE_RESERVE = 1;
/** Salient prompt terms used for keyword sub-queries. */
const SALIENT_TERMS = 5;
const SUMMARY_FINDINGS = 3;
/** How a research question is phrased, not what it is about: never a keyword on its own. */
const PHRASING = new Set('compare compared comparing comparison versus vs difference differences explain describe overview summary summarise summarize list'.split(' '));
/** Clause breaks: question marks, semicolons, line breaks, sentence ends and joining words. */
const CLAUSE_BREAK = /[?!;\n]+|\.(?=\s|$)|,?\s+\b(?:and|but|or|versus|vs\.?|compared (?:to|with)|as well as|whereas|while)\b\s+/i;
/** Footnote marks copied from pages ("[12]", "[citation needed]") would read as our citations. */
const FOOTNOTE = /\s*\[(?:\d+(?:\s*,\s*\d+)*|citation needed)\]/gi;

/**
 * The offline research model: lexical only, deterministic for a given input, never writes a
 * word that is not either structure (headings, gap notes, the sources list) or a verbatim quote.
 *
 * plan: the given queries, then the whole prompt, its clauses (split at ? ; line breaks, sentence
 * ends and "and/but/or/versus/…"; a derived clause needs two content words), then keyword
 * combinations of its most salient terms (frequency, then first use). Unique by stemmed term set.
 *
 * grade: every passage sentence scored against the sub-query (BM25 over the sentences, blended
 * with term coverage as ExtractiveLanguageModel does). A sentence counts only when it contains at
 * least two of the sub-query's distinct terms (one for a one-term sub-query): otherwise null.
 * Answer: the best sentence plus up to two more within 60% of its score, other sources first.
 * Confidence: high when the best sentence covers >= 60% of the terms AND >= 2 sources agree (have a
 * sentence within 60% of the best), medium when one of the two holds, else low.
 *
 * synthesise: `# prompt`, a summary of the highest-confidence findings' lead quotes, a section per
 * sub-question with its quotes each followed by `[N]` (every sentence once in the whole report; a
 * section with nothing new is left out), then `## Sources` for the cited indexes.
 */
export class ExtractiveResearchModel implements ResearchModel {
  readonly name = 'extractive' as const;

  async plan(prompt: string, queries: string[], maxSubqueries: number, options?: ResearchCallOptions): Promise<{ subqueries: string[]; usage: TokenUsage }> {
    options?.signal?.throwIfAborted();
    const whole0 = Math.max(0, Math.floor(maxSubqueries));
    // A question about whoever holds a role at an entity, or one a bridge may answer (a value asked
    // of something the question only describes), will need follow-ups: room is left for them.
    const short = analyseShortQuestion(prompt)?.kind;
    const reserve = analyseQuestion(prompt).relation ? FOLLOW_UP_RESERVE : short !== undefined && short !== 'choice' && short !== 'yesno' && describesUnnamed(prompt) ? BRIDGE_RESERVE : 0;
    const cap = whole0 >= 4 ? whole0 - Math.min(reserve, Math.floor(whole0 / 4)) : whole0;
    const given = queries.map(oneLine).filter(Boolean);
    const whole = oneLine(prompt).replace(/[?.!]+$/, '');
    const clauses = oneLine(prompt)
      .split(CLAUSE_BREAK)
      .map((c) => oneLine(c ?? '').replace(/^[,:\s-]+|[,:\s-]+$/g, ''))
      .filter((c) => new Set(tokenize(c)).size >= 2);
    const derived = [whole, ...clauses, ...keywordQueries(prompt)].filter((q) => tokenize(q).length > 0);
    return { subqueries: uniqueQueries([...given, ...derived]).slice(0, cap), usage: NO_USAGE };
  }

  async grade(subquery: string, passages: ResearchPassage[], options?: ResearchCallOptions): Promise<{ finding: Finding | null; usage: TokenUsage }> {
    options?.signal?.throwIfAborted();
    return { finding: gradeExtractive(subquery, passages), usage: NO_USAGE };
  }

  async followUp(question: string, passages: ResearchPassage[], max: number, options?: ResearchCallOptions): Promise<{ followUps: FollowUp[]; usage: TokenUsage }> {
    options?.signal?.throwIfAborted();
    return { followUps: max >= 1 ? extractiveFollowUps(question, passages, Math.floor(max)).slice(0, Math.floor(max)) : [], usage: NO_USAGE };
  }

  async synthesise(prompt: string, findings: Finding[], sources: ResearchSourceRef[], options?: SynthesiseOptions): Promise<{ report: string; usage: TokenUsage }> {
    options?.signal?.throwIfAborted();
    return { report: extractiveReport(prompt, findings, sources, options?.subqueries, options?.restatements, options?.queries), usage: NO_USAGE };
  }
}

/**
 * A question about whoever holds a role at an entity ("Where did the chief executive of X study?")
 * is restated with the name the passages give that role-holder ("…, our chief executive, Dana
 * Whitcombe, …" -> "Where did Dana Whitcombe study?"): the person's own page may never name X.
 */
export function extractiveFollowUps(question: string, passages: ResearchPassage[], max = 1): FollowUp[] {
  const restated = restatedFollowUps(question, passages);
  if (restated.length > 0) return restated;
  // A bridge: the name the best sentences give a thing the question describes, read for the
  // question itself, unless the pages already answer it surely.
  // (The answer the pages already give is no bridge: "the University of Tartu" answers "Where did
  // Dana Whitcombe study?", it leads nowhere.)
  // (The names first: the pages are graded again only when there is one to follow.)
  const names = bridgeNames(question, passages, max + 1);
  if (names.length === 0) return [];
  const current = gradeExtractive(question, passages);
  if (current?.confidence === 'high') return [];
  const answer = current ? clean(current.answer).toLowerCase() : '';
  return names
    .filter((b) => !answer || !answer.includes(b.name.toLowerCase()))
    .slice(0, max)
    .map((b) => ({ subquery: b.name, restates: false, regrade: true, via: { source: b.source, quote: b.quote } }));
}

function restatedFollowUps(question: string, passages: ResearchPassage[]): FollowUp[] {
  // "In what year was the company where Henrik Salvesen works founded?": the company's name first.
  const tie = affiliation(question);
  if (tie) {
    const named = affiliationName(tie.person, passages);
    if (!named) return [];
    return [{ subquery: oneLine(question.replace(tie.phrase, named.name)), restates: true, via: { source: named.unit.source, quote: named.unit.text } }];
  }
  const shape = analyseQuestion(question);
  // "Who is the chief executive of X?" is answered by the name itself: nothing to follow.
  if (!shape.relation || shape.kind === 'person') return [];
  const units = answerUnits(passages, shape, MIN_SENTENCE, MAX_SENTENCE);
  // "The designer of X's flagship pump": first the name X's pages give the pump, then its designer.
  const described = describedObject(question, shape);
  if (described) {
    const named = describedName(described.descriptor, shape, units);
    if (!named) return [];
    const restated = oneLine(question.replace(described.text, named.name));
    return [{ subquery: restated, restates: true, via: { source: named.unit.source, quote: named.unit.text } }];
  }
  const holder = roleHolder(shape, units);
  if (!holder) return [];
  const restated = oneLine(question.replace(shape.relation.phrase, holder.name));
  return [{ subquery: restated, restates: true, via: { source: holder.unit.source, quote: holder.unit.text } }];
}

/**
 * Whether a question describes a thing it does not name, through a clause or a possessive ("the
 * university whose main campus…", "Dorin Vasch's team", "someone born in…"): a bridge may be needed.
 * Read with compromise (a relative pronoun past the question's opening, a possessive).
 */
function describesUnnamed(question: string): boolean {
  const doc = nlp(question);
  if (doc.has('#Possessive') || /\b(?:someone|somebody|something)\b/i.test(question)) return true;
  const words = question.split(/\s+/);
  return words.slice(2).some((w) => /^(?:who|whom|whose|which|that|where)$/i.test(w.replace(/[^\p{L}]/gu, '')));
}

/** First spelling wins; two queries with the same stemmed terms are one query. */
export function uniqueQueries(queries: string[]): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const q of queries) {
    const terms = [...new Set(tokenize(q))].sort();
    const key = terms.length ? terms.join(' ') : q.toLowerCase();
    if (!q || seen.has(key)) continue;
    seen.add(key);
    out.push(q);
  }
  return out;
}

function keywordQueries(prompt: string): string[] {
  const byStem = new Map<string, { word: string; count: number; first: number }>();
  let position = 0;
  for (const m of prompt.toLowerCase().matchAll(/[\p{L}\p{N}]+/gu)) {
    const stemmed = tokenize(m[0])[0];
    if (!stemmed || PHRASING.has(m[0])) continue;
    const entry = byStem.get(stemmed);
    if (entry) entry.count++;
    else byStem.set(stemmed, { word: m[0], count: 1, first: position++ });
  }
  const salient = [...byStem.values()].sort((a, b) => b.count - a.count || a.first - b.first).slice(0, SALIENT_TERMS);
  // Words in prompt order read like the prompt; the choice of words follows salience.
  const phrase = (picked: typeof salient) => [...picked].sort((a, b) => a.first - b.first).map((e) => e.word).join(' ');
  if (salient.length <= 3) return salient.length ? [phrase(salient)] : [];
  // All salient terms together, then triples, most salient first: narrower searches that still
  // keep enough context to land on-topic.
  const out = [phrase(salient)];
  for (let i = 0; i < salient.length; i++)
    for (let j = i + 1; j < salient.length; j++) for (let k = j + 1; k < salient.length; k++) out.push(phrase([salient[i]!, salient[j]!, salient[k]!]));
  return out;
}

interface Candidate {
  source: number;
  text: string;
  score: number;
  coverage: number;
  order: number;
}

/**
 * A question that asks for a kind of value (a year, money, a person, yes/no, …) is answered by the
 * unit that states such a value next to its predicate on a page about its entity: the finding's
 * answer is that value as the page wrote it, its first quote the unit that states it, then other
 * sources stating the same value. When no unit states one, the lexical finding stands, its answer
 * the quotes themselves (the report then says no source answered and shows them as closest passages).
 */
export function gradeExtractive(subquery: string, passages: ResearchPassage[]): Finding | null {
  const finding = gradeUnchecked(subquery, passages);
  if (!finding || finding.confidence !== 'high') return finding;
  // High only where the value is of the kind asked for (compromise's tags) and of a kind that can be checked.
  const checked = kindConfidence(subquery, finding.answer);
  return checked === 'high' ? finding : { ...finding, confidence: checked };
}

function gradeUnchecked(subquery: string, passages: ResearchPassage[]): Finding | null {
  const shape = analyseQuestion(subquery);
  // Which of two, and yes or no about two named things, are settled from each one's own page.
  const question = analyseShortQuestion(subquery);
  const asked = question?.kind;
  // The short answer is read once, whichever way the question goes.
  let shortRead: Finding | null | undefined;
  const short = () => (shortRead === undefined ? (shortRead = gradeShort(subquery, passages)) : shortRead);
  // "Born in what year?": the dates given after the name of the person the question describes.
  const life = question && lifeDate(question, passages);
  if (life) return shortFinding(subquery, life, life.agreeing);
  // The two readings of the question disagreeing on a name's kind (a thing asked by its noun,
  // "the fight song of the university whose main campus…", read as a person by "whose"): the
  // typed rules would answer another question.
  const otherName = asked === 'thing' && (shape.kind === 'person' || shape.kind === 'place' || shape.kind === 'organisation');
  const first = asked === 'choice' || asked === 'yesno' || shape.kind === 'text' || otherName;
  if (first) {
    // Which of two is never answered "yes": without a settled option, the closest sentences, low.
    if (short()) return short();
    if (asked === 'choice') return lowered(gradeLexical(subquery, passages));
    if (shape.kind === 'text') return gradeLexical(subquery, passages);
  }
  const units = answerUnits(passages, shape, MIN_SENTENCE, MAX_SENTENCE);
  const typed = typedAnswer(subquery, shape, units);
  if (!typed) return short() ?? lowered(gradeLexical(subquery, passages));
  // A person or an organisation the typed rules found only weakly (no predicate beside it), or a
  // name that is none of the kind asked where it stands (see isNameIn): the short path, which
  // weighs every candidate by its distance to the question's words, reads real sentences better.
  // (Counts stay typed: there the typed rules' labels win.) Both readings agreeing, the typed
  // finding stands with the sources it found.
  const named = asked === 'person' || asked === 'place' || asked === 'organisation';
  const single = formatValue(shape.kind, typed.value);
  // "Who were the sideline reporters?": the pair the sentence names, where it names one.
  const value = named ? listed(question!, single, typed.unit.text) : single;
  // "How many touchdowns": the short path's number is followed by touchdowns, the typed one is not.
  const countsBetter = () => asked === 'number' && short() !== null && countsAsked(subquery, short()!.answer, short()!.evidence[0]!.quote) === true && !countsAsked(subquery, typed.value, typed.unit.text);
  // The short path sure of a person or an organisation (of the kind, agreed by two sources, well
  // ahead of the next): "Ned Brask … was a British executioner for 23 years" over the typed
  // rules' "Ned Brask only had one brother, Alden Pryce" for "who had only one brother and
  // was a British executioner for 23 years?".
  const shortSure = () => (asked === 'person' || asked === 'organisation') && short()?.confidence === 'high';
  // "How many songs were on the album…": the album's name "17" counts nothing.
  const aName = asked === 'number' && numberNamed(passages)(typed.value);
  const weakName = shortSure() || aName || (typed.score < TYPED_SURE && (asked === 'person' || asked === 'organisation')) || (named && !isNameIn(question!, single, typed.unit.text)) || countsBetter();
  if (weakName && short() && !sameValue(short()!.answer, value)) return short();
  // A name is no count: without another number, the closest sentences, low (no value).
  if (aName) return short() ?? lowered(gradeLexical(subquery, passages));
  // Other sources that state the same value (as a whole word: "140" does not state "40"), about
  // the same thing (a word of the question's predicate), agree with it.
  const stated = new RegExp(`(?<![\\p{L}\\p{N}])${typed.value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![\\p{L}\\p{N}])`, 'iu');
  const agreeing = units.filter(
    (u) => u.source !== typed.unit.source && u.about && shape.kind !== 'boolean' && stated.test(u.text) && tokenize(u.text).some((t) => shape.predicate.has(t)),
  );
  const evidence: Finding['evidence'] = [{ source: typed.unit.source, quote: typed.unit.text }];
  for (const u of agreeing) if (evidence.length < MAX_ANSWER_SENTENCES && !evidence.some((e) => e.source === u.source)) evidence.push({ source: u.source, quote: u.text });
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
function isNameIn(q: ShortQuestion, value: string, sentence: string): boolean {
  const { kind, noun } = q;
  const key = clean(value).toLowerCase();
  const terms = new Set(q.terms);
  if (tokenize(value).every((t) => terms.has(t))) return false;
  const mine = candidatesIn(kind, sentence, terms, q.text, q.nounWord ?? null).filter((c) => clean(c.text).toLowerCase().includes(key));
  // A name the short path weighs below any other of its sentence: an event for "where", a stadium for "who".
  if (mine.length > 0 && mine.every((c) => c.fit <= NOT_OF_KIND)) return false;
  // "Where": one the sentence puts a place's preposition before ("in North Hobart"); "which
  // company": one worked at, for or with ("nine years designing kitchen appliances at Brenholt
  // Haushaltsgeräte"), or one that names the noun asked ("University of Évora").
  const at = sentence.indexOf(value);
  const before = at >= 0 ? sentence.slice(Math.max(0, at - 12), at) : '';
  // (Not "at" for a city or a country: "presenter at MTR 1377" names a station, not a city.)
  const placePreposition = asksSettlement(q) ? /\b(?:in|near|from)\s+(?:the\s+)?$/i : /\b(?:in|at|near|from)\s+(?:the\s+)?$/i;
  if (kind === 'place' && placePreposition.test(before)) return true;
  if (kind === 'organisation' && /\b(?:at|for|by|with|from|joined)\s+(?:the\s+)?$/i.test(before)) return true;
  if (kind === 'organisation' && noun && /^\p{Lu}/u.test(value) && tokenize(value).includes(noun)) return true;
  // Else places and organisations as compromise sees them in their sentence ("including CNN" is
  // no place, "Harvest Cup" no organisation); any candidate for "who".
  return mine.some((c) => kind === 'person' || c.fit > 1);
}

const sameValue = (a: string | undefined, b: string) => a !== undefined && clean(a).toLowerCase() === clean(b).toLowerCase();

/** A typed answer scored this high states its value beside the question's predicate. */
const TYPED_SURE = 3;

const lowered = (f: Finding | null): Finding | null => f && { ...f, confidence: 'low' };

/** A question's short answer (see short-answer.ts) as a finding: the value, the sentence stating it, the sources agreeing. */
function gradeShort(subquery: string, passages: ResearchPassage[]): Finding | null {
  const short = shortAnswer(subquery, passages);
  if (!short) return null;
  // A thing named by a noun phrase is a guess from its sentence: the closest sentences stay beside it.
  const beside = analyseShortQuestion(subquery)?.kind === 'thing' ? (gradeLexical(subquery, passages)?.evidence ?? []) : short.agreeing;
  return shortFinding(subquery, short, beside);
}

/** A short answer as a finding: its value, the sentence stating it, then the sentences beside it (other sources' first). */
function shortFinding(subquery: string, short: ShortAnswer, beside: ShortAnswer['agreeing']): Finding {
  const evidence: Finding['evidence'] = [{ source: short.source, quote: short.quote }];
  for (const a of beside) if (evidence.length < MAX_ANSWER_SENTENCES && !evidence.some((e) => e.quote === a.quote || (e.source === a.source && beside === short.agreeing))) evidence.push(a);
  return { subquery, answer: short.value, citations: [...new Set(evidence.map((e) => e.source))], confidence: short.confidence, evidence };
}

function gradeLexical(subquery: string, passages: ResearchPassage[]): Finding | null {
  const terms = [...new Set(tokenize(subquery))];
  if (terms.length === 0) return null;
  const units = passages.flatMap((p) =>
    sentenceSpans(p.text)
      .filter((s) => s.text.length >= MIN_SENTENCE && s.text.length <= MAX_SENTENCE)
      .map((s) => ({ source: p.source, text: s.text })),
  );
  const tokens = units.map((u) => tokenize(u.text));
  const scored = bm25(terms, tokens.map((t) => addCounts(new Map(), t)), tokens.map((t) => t.length));
  const maxRaw = scored.reduce((a, s) => Math.max(a, s.raw), 0);
  const need = Math.min(2, terms.length);
  const ranked: Candidate[] = units
    .map((u, i) => ({
      ...u,
      // Rounded so float noise never reorders equal sentences across platforms.
      score: maxRaw > 0 ? Math.round((0.5 * (scored[i]!.raw / maxRaw) + 0.5 * scored[i]!.coverage) * 1e6) / 1e6 : 0,
      coverage: scored[i]!.coverage,
      matched: scored[i]!.matched,
      order: i,
    }))
    .filter((c) => c.matched >= need)
    .sort((a, b) => b.score - a.score || a.order - b.order);
  const best = ranked[0];
  if (!best) return null;
  const agreeing = ranked.filter((c) => c.score >= AGREE_FRACTION * best.score);
  const picked = pickAnswer(agreeing);
  const agreeingSources = new Set(agreeing.map((c) => c.source)).size;
  const strong = best.coverage >= 0.6;
  const confidence = strong && agreeingSources >= 2 ? 'high' : strong || agreeingSources >= 2 ? 'medium' : 'low';
  return {
    subquery,
    answer: picked.map((c) => c.text).join(' '),
    citations: [...new Set(picked.map((c) => c.source))],
    confidence,
    evidence: picked.map((c) => ({ source: c.source, quote: c.text })),
  };
}

/** Best first; then sentences from sources not yet quoted; then any; never the same text twice. */
function pickAnswer(agreeing: Candidate[]): Candidate[] {
  const picked: Candidate[] = [];
  const texts = new Set<string>();
  const take = (c: Candidate) => {
    const key = oneLine(c.text).toLowerCase();
    if (picked.length >= MAX_ANSWER_SENTENCES || texts.has(key)) return;
    texts.add(key);
    picked.push(c);
  };
  take(agreeing[0]!);
  for (const c of agreeing) if (!picked.some((p) => p.source === c.source)) take(c);
  for (const c of agreeing) take(c);
  return picked.sort((a, b) => b.score - a.score || a.order - b.order);
}

const CONFIDENCE_RANK = { high: 0, medium: 1, low: 2 } as const;
/** Sentences of the "Other evidence" section at most: more would pad the report. */
const OTHER_EVIDENCE = 4;

const sameQuestion = (a: string, b: string) => oneLine(a).replace(/[?.!\s]+$/, '').toLowerCase() === oneLine(b).replace(/[?.!\s]+$/, '').toLowerCase();
/** A sub-question written in words (a question or a clause), not a bag of keywords: it may head a section. */
export const isWorded = (q: string) => /[?]\s*$/.test(q) || tokenize(q).length < (q.match(/[\p{L}\p{N}]+/gu) ?? []).length;
/** A typed finding's answer is its value, not its quotes joined. */
const typedValue = (f: Finding, things = false) => {
  if (f.answer.length > 120 || f.evidence.some((e) => clean(e.quote) === clean(f.answer))) return null;
  if (questionKind(f.subquery) !== 'text') return f.answer;
  // A short answer (short-answer.ts) is a value its first quote states, or yes/no. A thing's noun
  // phrase answers a task's field (things), not a report's lead: there the sentences lead.
  const short = analyseShortQuestion(f.subquery);
  const kind = short?.kind;
  if (!kind || (kind === 'thing' && !things)) return null;
  // Which of two is answered by an option as the question writes it, settled by sentences that
  // need not repeat its name ("It covers 543 km²" on the park's own page).
  if (kind === 'choice') return short.options?.includes(f.answer) ? f.answer : null;
  return /^(?:yes|no)$/.test(f.answer) || f.evidence.some((e) => e.quote.includes(f.answer)) ? f.answer : null;
};

/** The short answer to a research prompt: the value its finding states, where it asks for one. */
export interface PromptAnswer {
  value: string;
  confidence: Finding['confidence'];
  /** The sources stating it (1-based, as cited). */
  citations: number[];
  /** The sentence that states it, verbatim, and the source it is from. */
  quote: string;
  source: number;
}

/**
 * The value that answers `prompt`, as the report's first paragraph leads with it: a follow-up's
 * finding that restates the prompt first, then the prompt's own; a value only where the question
 * asks for one (a person, a date, a number...) and the finding found it. null otherwise: no
 * sentence stands in for a value.
 */
export function promptAnswer(prompt: string, findings: Finding[], restatements: string[] = []): PromptAnswer | null {
  for (const q of [...restatements, prompt].map(oneLine)) {
    // The latest finding for it: a question graded again once a bridge's page was read.
    const finding = findings.findLast((f) => sameQuestion(f.subquery, q) && f.evidence.length > 0);
    const value = finding && typedValue(finding, true);
    if (finding && value) return { value, confidence: finding.confidence, citations: finding.citations, quote: finding.evidence[0]!.quote, source: finding.evidence[0]!.source };
  }
  return null;
}

/**
 * The extractive report, answer first: `# prompt`; a paragraph that answers it (the value a typed
 * finding found, then the sentence stating it, or the best sentences of the prompt's finding; a
 * follow-up's finding, which restates the prompt with what an earlier round learned, comes first),
 * or a plain "No source answered" when nothing does; then a section per worded sub-question in
 * plan order (headings are the questions themselves), the closest passages of an unanswered typed
 * question, other evidence for an open-ended prompt; then `## Sources`. Every sentence once.
 */
export function extractiveReport(prompt: string, findings: Finding[], sources: ResearchSourceRef[], subqueries?: string[], restatements: string[] = [], given: string[] = []): string {
  const known = new Set(sources.map((s) => s.index));
  // Only evidence citing a known source can be written: a claim must resolve.
  const usable = findings
    .map((f) => ({ finding: f, evidence: f.evidence.filter((e) => known.has(e.source) && clean(e.quote)) }))
    .filter((u) => u.evidence.length > 0);
  const topic = oneLine(prompt) || 'Research report';
  const out: string[] = [`# ${topic}`, ''];

  // No sentence twice in a report: each cited sentence is written once, where it first fits.
  const said = new Set<string>();
  const fresh = (quote: string, source: number, limit = Infinity): string[] => {
    const written: string[] = [];
    for (const piece of claimSentences(clean(quote)).map(escapeLineStart)) {
      if (written.length >= limit) break;
      const key = piece.toLowerCase().replace(/\[\d+(?:\s*,\s*\d+)*\]/g, '').replace(/[^\p{L}\p{N}]+/gu, ' ').trim();
      if (said.has(key)) continue;
      said.add(key);
      written.push(`${piece} [${source}]`);
    }
    return written;
  };
  const findingFor = (q: string) => usable.findLast((u) => sameQuestion(u.finding.subquery, q));

  // 1. The answer. Questions that restate the prompt (follow-ups) first, then the prompt itself
  // (or the given query it came as), then its worded clauses.
  const order = uniqueStrings([...(subqueries ?? []), ...findings.map((f) => f.subquery)].map(oneLine));
  // The user's own queries are topics in words whatever their form; derived keyword bags are not.
  const worded = order.filter((q) => isWorded(q) || given.some((g) => sameQuestion(g, q)));
  // A follow-up restating the prompt answers it; the prompt's own finding then only came near
  // (the chief executive's company, not where they studied) and does not lead.
  const leadQuestions = uniqueStrings([...restatements.map(oneLine), ...(restatements.length ? [] : [topic]), ...worded.filter((w) => !(restatements.length && sameQuestion(w, topic)))]);
  const typedPrompt = questionKind(topic) !== 'text';
  const lead: string[] = [];
  const answered = new Set<string>();
  // An open-ended prompt is answered by quotes below; a value leads only what asks for one.
  // A question asking for a short answer (short-answer.ts) leads with it too, where one was found.
  for (const q of typedPrompt || restatements.length || analyseShortQuestion(topic) ? leadQuestions : []) {
    const u = findingFor(q);
    if (!u || lead.length >= 6) continue;
    const value = typedValue(u.finding);
    if (value === null) continue;
    const [first, ...rest] = u.evidence;
    const stated = `**${escapeMarkdown(value)}** [${first!.source}].`;
    if (lead.includes(stated)) continue;
    lead.push(stated, ...fresh(first!.quote, first!.source, 2));
    for (const e of rest.slice(0, 1)) lead.push(...fresh(e.quote, e.source, 1));
    answered.add(oneLine(u.finding.subquery));
    // A restatement's finding answers the prompt: the prompt's own (a near miss) adds nothing to the lead.
    if (restatements.some((r) => sameQuestion(r, q))) answered.add(topic);
    // One typed answer per lead unless the prompt asks several things.
    if (!worded.some((w) => !sameQuestion(w, topic) && !sameQuestion(w, q) && !restatements.some((r) => sameQuestion(r, w)))) break;
  }
  if (lead.length === 0 && !typedPrompt) {
    const best = leadQuestions.map(findingFor).find((u) => u) ?? [...usable].sort((a, b) => CONFIDENCE_RANK[a.finding.confidence] - CONFIDENCE_RANK[b.finding.confidence])[0];
    if (best) {
      for (const e of best.evidence) if (lead.length < 3) lead.push(...fresh(e.quote, e.source, 3 - lead.length));
      answered.add(oneLine(best.finding.subquery));
    }
  }
  out.push(lead.length ? lead.join(' ') : `${GAP_NOTE} ${topic}`, '');

  // 2. A section per worded sub-question, in plan order; the quotes not yet written.
  // A question asking for a value no source states: what came closest, under a heading that says so.
  const closest = typedPrompt && lead.length === 0 ? findingFor(topic) : undefined;
  if (closest) {
    const sentences = closest.evidence.flatMap((e) => fresh(e.quote, e.source));
    if (sentences.length) out.push('## Closest passages', '', sentences.join(' '), '');
  }
  for (const q of uniqueStrings([...worded, ...restatements.map(oneLine)])) {
    // The prompt is the title and the lead answers it: no section repeats it.
    if (sameQuestion(q, topic)) continue;
    const u = findingFor(q);
    if (!u) {
      if (!answered.has(q) && !restatements.some((r) => sameQuestion(r, q))) out.push(`## ${headingOf(q)}`, '', `${GAP_NOTE} ${q}`, '');
      continue;
    }
    const typedButUnanswered = questionKind(q) !== 'text' && typedValue(u.finding) === null;
    const sentences = u.evidence.flatMap((e) => fresh(e.quote, e.source));
    if (sentences.length === 0) continue;
    out.push(`## ${typedButUnanswered ? `Closest passages: ${headingOf(q)}` : headingOf(q)}`, '', sentences.join(' '), '');
  }

  // 3. Keyword searches found more: worth a short section only when the prompt is open-ended.
  if (!typedPrompt) {
    const other = usable.filter((u) => !worded.some((w) => sameQuestion(w, u.finding.subquery)) || sameQuestion(u.finding.subquery, topic)).flatMap((u) => u.evidence.flatMap((e) => fresh(e.quote, e.source, 1)));
    if (other.length) out.push('## Other evidence', '', other.slice(0, OTHER_EVIDENCE).join(' '), '');
  }
  const body = out.join('\n');
  return `${body}\n${sourcesSection(citedIndexes(body), sources)}\n`;
}

/** A sub-question as a heading: the question itself, first letter capitalised. */
const headingOf = (q: string) => {
  const line = oneLine(q);
  return line.charAt(0).toUpperCase() + line.slice(1);
};

const escapeMarkdown = (s: string) => s.replace(/([*_`\[\]])/g, '\\$1');

const clean = (quote: string) => oneLine(quote.replace(FOOTNOTE, ''));

/** A quote opening with "#", "-" or "1." would turn into markdown structure at a line start. */
const escapeLineStart = (s: string) => (/^(?:#|>|[-*+]\s)/.test(s) ? `\\${s}` : s.replace(/^(\d+)([.)]\s)/, '$1\\$2'));

function uniqueStrings(items: string[]): string[] {
  return [...new Set(items.filter(Boolean))];
}
