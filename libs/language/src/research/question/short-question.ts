/**
 * The short reading of a question: what kind of short answer it asks for (a person, a place, an
 * organisation, a date or year, a number, yes/no, one of two named options, or a thing its noun
 * names), the noun it asks for, its terms and where it asks; and the short answer's type.
 */
import { tokenize } from '@app/text';
import { wordNet } from '../../lexicon/wordnet';
import { ORG_NOUNS, PERSON_NOUNS, personNoun, PLACE_NOUNS, SETTLEMENTS } from './words';
import { nlp } from '../../lazy-parsers';

export type ShortKind = 'person' | 'place' | 'organisation' | 'date' | 'year' | 'number' | 'yesno' | 'choice' | 'thing';

export interface ShortQuestion {
  kind: ShortKind;
  /** Which of two: the options as the question names them. */
  options?: [string, string];
  /** The question's terms (stemmed), what candidates are scored by. */
  terms: string[];
  /** The question as asked (one line, bounded). */
  text: string;
  /** The word the wh-word asks about ("who directed", "which director"), stemmed: the answer stands next to it. */
  focus?: string;
  /** The noun the wh-word asks for ("which famous director" -> director), stemmed; absent when none. */
  noun?: string;
  /** That noun as written, lower case ("stadiums"): what a place's kind is read from. */
  nounWord?: string;
  /** A kind of the noun is asked for ("what type of sprite"): a phrase ending in the noun ("water sprite") is one. */
  subtype?: boolean;
  /** More than one answer is asked for ("Who were…", "which announcers…"). */
  plural?: boolean;
}

export interface ShortAnswer {
  value: string;
  confidence: 'high' | 'medium' | 'low';
  source: number;
  quote: string;
  /** Other sources whose sentences state the same value. */
  agreeing: Array<{ source: number; quote: string }>;
}

const MAX_QUESTION = 400;
const YESNO = /^(?:is|are|was|were|do|does|did|can|could|has|have|had|will|would|should)\s/i;

/** The kind of short answer `question` asks for, or null when it asks for none (an open prompt). */
export function analyseShortQuestion(raw: string): ShortQuestion | null {
  return readShortQuestion(raw).short;
}

/** The short reading of `raw` (see analyseShortQuestion) and where its bounded line asks (askingPart), when it asks. */
export function readShortQuestion(raw: string): { short: ShortQuestion | null; asking?: string } {
  const question = raw
    .slice(0, MAX_QUESTION)
    .replace(/\s+/g, ' ')
    .replace(/^[^\p{L}\p{N}"“]+/u, '')
    .trim();
  if (!/\?\s*$/.test(question) && !/^(?:who|whom|whose|what|which|when|where|how|in what|in which)\b/i.test(question))
    return { short: null };
  const asking = askingPart(question);
  return { short: kindOf(question, asking), asking };
}

/** The short reading of `question` (one bounded line), `asking` where it asks. */
function kindOf(question: string, asking: string): ShortQuestion | null {
  const asked = askedNoun(asking);
  // "Who were…", "what two artists…", "which announcers…": more than one answer is asked for.
  const plural =
    /\bwho\s+(?:were|are)\b|\b(?:what|which)\s+(?:two|both)\b/i.test(question) ||
    (asked !== undefined && nlp(asked.word).nouns().isPlural().found);
  const focus = tokenize(/\b(?:who|whom|whose|what|which|where|when)\b(.*)$/i.exec(asking)?.[1] ?? '')[0];
  const base = {
    terms: [...new Set(tokenize(question))],
    text: question,
    ...(focus ? { focus } : {}),
    ...(asked ? { noun: asked.stem, nounWord: asked.word } : {}),
    ...(asked?.subtype ? { subtype: true } : {}),
    ...(plural ? { plural } : {}),
  };
  const options = choiceOptions(question);
  if (options) return { kind: 'choice', options, ...base };
  if (YESNO.test(question)) return { kind: 'yesno', ...base };
  const lower = question.toLowerCase();
  // The question word that comes first asks: "What is the fight song of the university whose
  // campus…" asks what, not who; "Which World Cup…, where the referee…" asks which, not where.
  const asks = /\b(who|whom|whose|what|which|where|when|how)\b/i.exec(asking)?.[1]?.toLowerCase();
  if (/\b(?:what|which|in what|in which)\s+(?:year|season|draft)\b/.test(lower)) return { kind: 'year', ...base };
  if (/\bhow\s+(?:many|much|long|old|far|tall|high)\b/.test(lower)) return { kind: 'number', ...base };
  if (asks === 'when' || /\b(?:what|which)\s+(?:date|day|month)\b/.test(lower)) return { kind: 'date', ...base };
  // "What was the score", "what was his passer rating": a number the noun names.
  if (
    /\b(?:what|which)\s+(?:(?:is|was|were|are)\s+)?(?:[\p{L}'’.-]+\s+){0,4}?(?:score|rating|ranking|percentage|percent|number|amount|cost|price|value|worth|age|average|total|population|attendance|margin)\b|\bweigh\b/iu.test(
      lower,
    )
  )
    return { kind: 'number', ...base };
  if (asks === 'where') return { kind: 'place', ...base };
  // "Which English midfielder", "what New York city", "What Canadian": the noun after the wh-word.
  // "What is the name of the stadium where…": the noun asked for (see askedNoun) first.
  const head = /\b(?:what|which)\s+([\p{L}\s,'’-]{0,60})/iu.exec(asking);
  // (WordNet is asked of the noun asked for alone: the words after the wh-word may be adjectives, "what official language".)
  for (const word of [
    ...(asked ? [asked.word] : []),
    ...(head?.[1] ?? '')
      .split(/[^\p{L}-]+/u)
      .filter(Boolean)
      .slice(0, 3),
  ]) {
    // The lists first: WordNet reads a trade ("retailer", "publisher") as a person too.
    if (PERSON_NOUNS.test(word) || nlp(word).has('#Demonym')) return { kind: 'person', ...base };
    if (PLACE_NOUNS.test(word)) return { kind: 'place', ...base };
    if (ORG_NOUNS.test(word)) return { kind: 'organisation', ...base };
    if (word === asked?.word && personNoun(word)) return { kind: 'person', ...base };
  }
  if (asks === 'who' || asks === 'whom' || asks === 'whose') return { kind: 'person', ...base };
  if (/\b(?:what|which)\b/.test(lower)) return { kind: 'thing', ...base };
  return null;
}

/** A verb's bare form ("war", "go"): after "what" or "which", a noun compromise tagged out of context. */
const bareVerb = (tags: string[]) => tags.includes('Infinitive') && !tags.includes('Auxiliary');
const WH = /\b(?:who|whom|whose|what|which|where|when|how)\b/gi;
const AUXILIARY = /^(?:is|was|are|were|do|does|did|has|have|had|can|could|will|would)$/i;

/**
 * Where a question asks: from its opening wh-word; in a statement that ends in a question ("…, a
 * film based on the novel of the same name by which author?") from its last wh-word that no verb
 * follows (a relative "which appeared in…" asks nothing).
 */
export function askingPart(question: string): string {
  const opening = /^(?:(?:in|on|at|of|for|by|from|to|with)\s+)?(?:who|whom|whose|what|which|where|when|how)\b/i.exec(
    question,
  );
  if (opening) return question;
  let at = -1;
  for (const m of question.matchAll(WH)) {
    const next = /^\s+([\p{L}'’-]+)/u.exec(question.slice(m.index! + m[0].length))?.[1];
    const tags = next
      ? ((nlp(next).json() as Array<{ terms: Array<{ tags: string[] }> }>)[0]?.terms[0]?.tags ?? [])
      : [];
    if (next && !AUXILIARY.test(next) && tags.includes('Verb') && !bareVerb(tags)) continue;
    at = m.index!;
  }
  return at >= 0 ? question.slice(at) : question;
}

/** Two named options after the comparative, no comma before them: "Which magazine was started first Arthur's Magazine or First for Women?" */
const COMPARED_OPTIONS = new RegExp(
  String.raw`^(?:[Ww]hich|[Ww]ho|[Ww]hat)\b.*?\b(?:first|earlier|later|older|younger|more|less|fewer|larger|bigger|smaller|higher|lower|longer|shorter|further|farther|closer|taller|newer|recently)\s+(?=\p{Lu}|["“])([^,?]{2,80}?)\s+or\s+(?=\p{Lu}|["“]|the\s)([^,?]{2,80}?)\s*\??$`,
  'u',
);

/** "Who was born first, Ilse Marnow or Dora Keswick?" -> both names. */
function choiceOptions(question: string): [string, string] | null {
  // The options follow the last comma or dash before "or" ("…, which state … first - Norland or
  // Westmark?"), a title's colon inside one ("…, Hollin's Kin: The Ballad of Wheat or Velvet
  // Porch?"); else the colon before them ("Which mountain is higher: Korvath Peak or The Anvil").
  const m =
    /^.*(?:,|\s[-–])\s*([^,?]{2,80}?),?\s+or\s+([^,?]{2,80}?)\s*(?:[,?]|$)/.exec(question) ??
    /^.*:\s*([^,:?]{2,80}?),?\s+or\s+([^,?]{2,80}?)\s*(?:[,?]|$)/.exec(question) ??
    /^(?:is|was|are|were)\s+(.{2,80}?)\s+or\s+(.{2,80}?)\s+(?:located|based|older|younger|larger|bigger|the)\b/i.exec(
      question,
    ) ??
    COMPARED_OPTIONS.exec(question) ??
    // "Between X and Y, which…", "Which of X and Y…"
    /^between\s+(.{2,80}?)\s+and\s+(.{2,80}?),\s*(?:which|who|what)\b/i.exec(question) ??
    /^(?:which|who)\s+of\s+(?!the\s+(?:two|three|following)\b)(.{2,80}?)\s+(?:and|or)\s+(.{2,80}?)\s+(?:is|was|are|were|has|had|did|does|do|came|comes)\b/i.exec(
      question,
    );
  if (!m) return null;
  const clean = (s: string) =>
    s
      .replace(/^(?:the|a|an)\s+/i, '')
      .replace(/["“”]/g, '')
      .trim();
  const a = clean(m[1]!);
  const b = clean(m[2]!);
  return a && b && a.toLowerCase() !== b.toLowerCase() ? [a, b] : null;
}

/** Nouns a wh-phrase names that say nothing of the answer's kind ("what type of X": X is the kind). */
const EMPTY_NOUNS = new Set(tokenize('name type kind sort one part thing term form example way number amount'));

/**
 * The noun a "what"/"which" phrase asks for (as written, lower case, and stemmed), as compromise
 * tags the phrase: the last common noun before the phrase's verb, preposition or comma ("what
 * science fantasy young adult series, told …" -> series; "what type of products" -> products;
 * "which area of Norland" -> area). None for a name ("what Declan O'Farrell"), a pronoun or a
 * noun that names no kind ("name", "type").
 */
export function askedNoun(question: string): { word: string; stem: string; subtype: boolean } | undefined {
  const wh = /\b(?:what|which)\s+(.*)$/i.exec(question);
  if (!wh || /^(?:who|whom|whose|when|where|how)\b/i.test(question)) return undefined;
  const subtype = /^(?:(?:is|was|are|were)\s+)?(?:the\s+)?(?:type|types|kind|kinds|sort)\s+of\b/i.test(wh[1]!);
  const phrase = wh[1]!
    .replace(
      /^(?:(?:is|was|are|were)\s+)?(?:the\s+)?(?:(?:last|first|full|given|real)\s+)?(?:name|names|type|types|kind|kinds|sort)\s+of\s+(?:the\s+|an?\s+)?/i,
      '',
    )
    // "What is the nationality of…": the noun after the article.
    .replace(/^(?:is|was|are|were)\s+the\s+(?=[\p{Ll}-]+\s+of\b)/iu, '');
  const terms = (
    (nlp(phrase).json() as Array<{ terms: Array<{ text: string; normal: string; tags: string[]; post: string }> }>)[0]
      ?.terms ?? []
  ).slice(0, 8);
  let head: string | undefined;
  // The last word read, where compromise saw an adjective WordNet knows as a noun ("of what
  // animal?": compromise tags "animal" alone as an adjective): the noun when no other is.
  let lastNoun: string | undefined;
  for (const [i, t] of terms.entries()) {
    const tags = new Set(t.tags);
    // Right after "what", a verb's bare form is a noun compromise mistook ("of what war?").
    if (i === 0 && bareVerb(t.tags)) tags.add('Noun').delete('Verb');
    if (tags.has('Pronoun') || tags.has('Verb') || tags.has('Preposition') || tags.has('Conjunction')) break;
    // A capitalised word is part of a name ("Which World Cup"), not the kind asked for.
    const lower = !/^\p{Lu}/u.test(t.text);
    if (tags.has('Noun') && !tags.has('ProperNoun') && lower) head = t.normal;
    else if (!['Adjective', 'Value', 'Determiner', 'ProperNoun', 'Noun'].some((tag) => tags.has(tag))) break;
    lastNoun = tags.has('Adjective') && lower && wordNet()?.knows(t.normal) ? t.normal : undefined;
    if (/[,;:]/.test(t.post)) break;
  }
  head ??= lastNoun;
  const stem = head && tokenize(head).at(-1);
  return head && stem && !EMPTY_NOUNS.has(stem) ? { word: head, stem, subtype } : undefined;
}

/** The question asks for a settlement or a region ("in what city"), not a building or ground. */
export const asksSettlement = (q: ShortQuestion) => q.nounWord !== undefined && SETTLEMENTS.test(q.nounWord);
