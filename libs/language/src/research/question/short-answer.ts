/**
 * Short answers read from real sentences: what kind of answer a question asks for (a person, a
 * place, an organisation, a date or year, a number, yes/no, one of two named options, or a thing
 * its noun names), candidates of that kind in the passages read (compromise's people, places and
 * organisations and its proper-noun phrases, chrono-node's dates, numbers as written), scored by the
 * question's words around them, the passage's rank and agreement across sentences and sources.
 * Nothing fits: null, never a value of another kind.
 */
import * as chrono from 'chrono-node';
import nlp from 'compromise';
import { sentenceSpans, tokenize } from '@app/text';
import type { ResearchPassage } from '@app/research';
import { wordNet } from '../../lexicon/wordnet';

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

/** Sentences read for candidates at most (compromise costs milliseconds a sentence). */
const SENTENCES_READ = 40;
/** Words at which a question word's pull on a candidate halves. */
const PROXIMITY_SPAN = 2;
/** What each further sentence stating a candidate adds, of its own score. */
const AGREEMENT = 0.25;
/** How much a noun phrase repeated across the pages read loses, by the log of its count. */
const COMMONNESS = 0.5;
/** A name compromise sees as of the kind asked weighs this much more (and one of another kind this much less). */
const KIND_FIT = 1.25;
/** A candidate the pages describe as the noun asked for ("which magazine": "Quillmark is a … magazine") weighs this much more. */
const NOUN_FIT = 1.5;
/** A candidate the pages of two things the question names both state weighs this much more. */
const LINKS_NAMED = 1.5;
/** A candidate whose own page says all the question says of it weighs up to this much more (1 + OWN_PAGE). */
const OWN_PAGE = 1;
/** How much more the word the wh-word asks about pulls a candidate than the question's other words. */
const FOCUS = 2;
const MAX_QUESTION = 400;
const YESNO = /^(?:is|are|was|were|do|does|did|can|could|has|have|had|will|would|should)\s/i;
const PERSON_NOUNS =
  /^(?:person|man|woman|actor|actress|director|author|writer|singer|songwriter|player|footballer|midfielder|striker|goalkeeper|coach|politician|president|king|queen|artist|musician|producer|composer|poet|novelist|scientist|executioner|pioneer|founder|member|character|father|mother|son|daughter|wife|husband|leader|governor|senator|rapper|drummer|guitarist|comedian|journalist|painter|architect|designer|engineer|inventor|explorer|emperor|pope|saint|chef|athlete|boxer|wrestler|quarterback|manager|owner|ceo|host|presenter|star|statesman|linebacker|receiver|kicker|pitcher|captain|commissioner|chairman|chairwoman|officer|minister|mayor|judge|lawyer|doctor|teacher|professor|student|brother|sister|uncle|aunt|nephew|niece|grandson|granddaughter|heir|successor|predecessor|winner|runner-up|champion|mvp)s?$/i;
/**
 * A noun for a person: one of the list, or (written lower case, a name being no role) one that
 * WordNet first reads as a kind of person ("physicist", "violinist", "astronaut"; see isKindOf).
 */
const personNoun = (word: string) => PERSON_NOUNS.test(word) || (/^\p{Ll}[\p{Ll}-]{2,}$/u.test(word) && (wordNet()?.isKindOf(word, 'person', true) ?? false));
const PLACE_NOUNS = /^(?:city|town|village|country|state|province|county|region|area|place|island|river|mountain|lake|nation|capital|district|neighborhood|neighbourhood|location|continent|stadium|venue|park|arena|street|sea|ocean|coast)s?$/i;
const ORG_NOUNS = /^(?:company|firm|band|group|team|club|university|college|school|organization|organisation|label|magazine|newspaper|network|channel|station|party|agency|brand|corporation|studio|publisher|airline|conference|league)s?$/i;
/** Comparatives a choice is settled by: the larger number or the later date wins. */
const MORE = /\b(?:more|most|larger|largest|bigger|biggest|higher|highest|taller|tallest|longer|longest|greater|greatest|later|latest|younger|youngest|newer|newest|recent)\b/i;
const LESS = /\b(?:fewer|less|least|smaller|smallest|lower|lowest|shorter|shortest|first|earlier|earliest|older|oldest)\b/i;
const DATE_COMPARE = /\b(?:born|older|younger|first|earlier|later|founded|formed|established|released|published|opened|died|oldest|youngest|newer|newest)\b/i;

/** The kind of short answer `question` asks for, or null when it asks for none (an open prompt). */
export function analyseShortQuestion(raw: string): ShortQuestion | null {
  const question = raw.slice(0, MAX_QUESTION).replace(/\s+/g, ' ').replace(/^[^\p{L}\p{N}"“]+/u, '').trim();
  if (!/\?\s*$/.test(question) && !/^(?:who|whom|whose|what|which|when|where|how|in what|in which)\b/i.test(question)) return null;
  const asking = askingPart(question);
  const asked = askedNoun(asking);
  // "Who were…", "what two artists…", "which announcers…": more than one answer is asked for.
  const plural = /\bwho\s+(?:were|are)\b|\b(?:what|which)\s+(?:two|both)\b/i.test(question) || (asked !== undefined && nlp(asked.word).nouns().isPlural().found);
  const focus = tokenize(/\b(?:who|whom|whose|what|which|where|when)\b(.*)$/i.exec(asking)?.[1] ?? '')[0];
  const base = { terms: [...new Set(tokenize(question))], text: question, ...(focus ? { focus } : {}), ...(asked ? { noun: asked.stem, nounWord: asked.word } : {}), ...(asked?.subtype ? { subtype: true } : {}), ...(plural ? { plural } : {}) };
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
  if (/\b(?:what|which)\s+(?:(?:is|was|were|are)\s+)?(?:[\p{L}'’.-]+\s+){0,4}?(?:score|rating|ranking|percentage|percent|number|amount|cost|price|age|average|total|population|attendance|margin)\b|\bweigh\b/iu.test(lower))
    return { kind: 'number', ...base };
  if (asks === 'where') return { kind: 'place', ...base };
  // "Which English midfielder", "what New York city", "What Canadian": the noun after the wh-word.
  // "What is the name of the stadium where…": the noun asked for (see askedNoun) first.
  const head = /\b(?:what|which)\s+([\p{L}\s,'’-]{0,60})/iu.exec(asking);
  // (WordNet is asked of the noun asked for alone: the words after the wh-word may be adjectives, "what official language".)
  for (const word of [...(asked ? [asked.word] : []), ...(head?.[1] ?? '').split(/[^\p{L}-]+/u).filter(Boolean).slice(0, 3)]) {
    if ((word === asked?.word ? personNoun(word) : PERSON_NOUNS.test(word)) || nlp(word).has('#Demonym')) return { kind: 'person', ...base };
    if (PLACE_NOUNS.test(word)) return { kind: 'place', ...base };
    if (ORG_NOUNS.test(word)) return { kind: 'organisation', ...base };
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
  const opening = /^(?:(?:in|on|at|of|for|by|from|to|with)\s+)?(?:who|whom|whose|what|which|where|when|how)\b/i.exec(question);
  if (opening) return question;
  let at = -1;
  for (const m of question.matchAll(WH)) {
    const next = /^\s+([\p{L}'’-]+)/u.exec(question.slice(m.index! + m[0].length))?.[1];
    const tags = next ? ((nlp(next).json() as Array<{ terms: Array<{ tags: string[] }> }>)[0]?.terms[0]?.tags ?? []) : [];
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
    /^(?:is|was|are|were)\s+(.{2,80}?)\s+or\s+(.{2,80}?)\s+(?:located|based|older|younger|larger|bigger|the)\b/i.exec(question) ??
    COMPARED_OPTIONS.exec(question) ??
    // "Between X and Y, which…", "Which of X and Y…"
    /^between\s+(.{2,80}?)\s+and\s+(.{2,80}?),\s*(?:which|who|what)\b/i.exec(question) ??
    /^(?:which|who)\s+of\s+(?!the\s+(?:two|three|following)\b)(.{2,80}?)\s+(?:and|or)\s+(.{2,80}?)\s+(?:is|was|are|were|has|had|did|does|do|came|comes)\b/i.exec(question);
  if (!m) return null;
  const clean = (s: string) => s.replace(/^(?:the|a|an)\s+/i, '').replace(/["“”]/g, '').trim();
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
function askedNoun(question: string): { word: string; stem: string; subtype: boolean } | undefined {
  const wh = /\b(?:what|which)\s+(.*)$/i.exec(question);
  if (!wh || /^(?:who|whom|whose|when|where|how)\b/i.test(question)) return undefined;
  const subtype = /^(?:(?:is|was|are|were)\s+)?(?:the\s+)?(?:type|types|kind|kinds|sort)\s+of\b/i.test(wh[1]!);
  const phrase = wh[1]!
    .replace(/^(?:(?:is|was|are|were)\s+)?(?:the\s+)?(?:(?:last|first|full|given|real)\s+)?(?:name|names|type|types|kind|kinds|sort)\s+of\s+(?:the\s+|an?\s+)?/i, '')
    // "What is the nationality of…": the noun after the article.
    .replace(/^(?:is|was|are|were)\s+the\s+(?=[\p{Ll}-]+\s+of\b)/iu, '');
  const terms = ((nlp(phrase).json() as Array<{ terms: Array<{ text: string; normal: string; tags: string[]; post: string }> }>)[0]?.terms ?? []).slice(0, 8);
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

/** Words after a name that say what it is: "X is a …", "X was the …", "X, an …" (not "X, the …": "For the third season, the seeds…"). */
const DESCRIBES = /^(?:\s*,\s*(?:a|an|one of the)\s|\s+(?:is|was|are|were|became|remains)\s+(?:(?:a|an|the|one of the)\s+)?)/iu;
/** Words of a description read for the noun asked, at most (one clause). */
const DESCRIPTION_WORDS = 8;

/**
 * Whether the passages say a candidate is of the noun asked for: its own name ends in it ("Ned
 * Brelton Stadium" for "what stadium"), a sentence describes it as one ("Quillmark is a British …
 * magazine"; "Saltmere, a coastal area"), the noun stands right before it ("the director J.
 * Corwin Halvard"), the verb the noun names the agent of stands before it ("directed by J. Corwin
 * Halvard"), its own page's title names the noun ("Fenwick (magazine)"), or WordNet holds it as a
 * kind (a common noun) or an instance (a name) of the noun. Read once per candidate.
 */
function describedAs(noun: string, subtype: boolean, passages: ResearchPassage[], nounWord?: string): (candidate: string) => boolean {
  const lexicon = nounWord ? wordNet() : null;
  const texts = passages.map((p) => p.text);
  // A page's title says what its subject is: "Fenwick (magazine)", "The Lantern (2009 Danish film)".
  const titled = new Map<string, string[]>();
  for (const p of passages) {
    const kind = /\(([^)]*)\)\s*$/.exec(p.title)?.[1];
    if (kind) titled.set(subjectOf(p.title), tokenize(kind));
  }
  return once((candidate) => {
    // A name ending in the noun ("Ned Brelton Stadium" for "what stadium"); for a kind of the noun,
    // a phrase ending in it ("water sprite" for "what type of sprite"), not for an instance
    // ("primary colour" is no colour). The noun alone is no answer.
    // (A number after the name is no part of its kind: "Border War II", "Apollo 11".)
    const last = /([\p{L}\p{N}]+)\W*$/u.exec(candidate.replace(/\s+(?:[IVXLC]+|\d+)$/u, ''))?.[1] ?? '';
    if (tokenize(candidate).length > 1 && (subtype || /^\p{Lu}/u.test(last)) && tokenize(last).at(-1) === noun) return true;
    if (titled.get(keyOf(candidate))?.includes(noun)) return true;
    // WordNet holds a common noun as a kind of the noun asked ("a traveling cat" for "what animal",
    // "guitar" for "which instrument"), or a name as an instance of it ("New Delhi" for "what
    // city"; not "British" for "which group": the British are a kind of people, no instance).
    if (lexicon && nounWord) {
      const common = /^\p{Ll}/u.test(candidate.split(/\s+/).at(-1) ?? '');
      if (common ? lexicon.isKindOf(candidate, nounWord) : lexicon.isInstanceOf(candidate, nounWord)) return true;
    }
    for (const { text, at, description } of mentions(candidate, texts)) {
      if (description && tokenize(description).slice(0, DESCRIPTION_WORDS).includes(noun)) return true;
      // The word right before it, nothing between ("the director J. Corwin Halvard", not "a team in NFL").
      const before = /([\p{L}-]+)\s+$/u.exec(text.slice(Math.max(0, at - 40), at))?.[1];
      if (before && tokenize(before)[0] === noun) return true;
      // The verb the noun is the agent of, by it ("directed by J. Corwin Halvard" for "which director").
      const agent = /([\p{L}-]+)\s+by\s+$/u.exec(text.slice(Math.max(0, at - 40), at))?.[1];
      const verb = agent && tokenize(agent)[0];
      if (verb && verb.length >= 4 && noun.length > verb.length && noun.startsWith(verb)) return true;
    }
    return false;
  });
}

/**
 * Whether the passages describe a candidate as a person ("Kenji Amamura (…) is a Japanese
 * musician and singer-songwriter"): no answer to "where", whatever compromise makes of the name.
 */
function describedAsPerson(passages: ResearchPassage[]): (candidate: string) => boolean {
  const texts = passages.map((p) => p.text);
  return once((candidate) => {
    for (const { description } of mentions(candidate, texts))
      if (description?.split(/\s+/).slice(0, DESCRIPTION_WORDS).some((w) => PERSON_NOUNS.test(w.replace(/[^\p{L}-]/gu, '')))) return true;
    return false;
  });
}

/**
 * Each place a candidate stands in the texts, with the clause that describes it there when one
 * does ("X is a …", "X (1924 – 2011) was a …", "X, an …").
 */
function* mentions(candidate: string, texts: string[]): Generator<{ text: string; at: number; description?: string }> {
  for (const text of texts)
    for (let at = text.indexOf(candidate); at >= 0; at = text.indexOf(candidate, at + candidate.length)) {
      // Past a bracket right after the name ("(born March 7, 1966 in Harunomi)"), and past another
      // name between commas before "is" ("Saltmere, less commonly known as Gullwick Bay, is a coastal area").
      const after = text
        .slice(at + candidate.length, at + candidate.length + 240)
        .replace(/^\s*\([^)]*\)/, '')
        .replace(/^\s*,[^,.;]{1,60},(?=\s+(?:is|was|are|were)\b)/u, '');
      const lead = DESCRIBES.exec(after);
      yield { text, at, ...(lead ? { description: after.slice(lead[0].length).split(/[.;:()]|,\s/)[0]! } : {}) };
    }
}

/** `read` once per candidate. */
function once(read: (candidate: string) => boolean): (candidate: string) => boolean {
  const seen = new Map<string, boolean>();
  return (candidate) => {
    let known = seen.get(candidate);
    if (known === undefined) seen.set(candidate, (known = read(candidate)));
    return known;
  };
}

interface Sentence {
  source: number;
  text: string;
  rank: number;
  overlap: number;
  title: string;
}

/** Passage sentences that share the question's words, best first (at most SENTENCES_READ). */
function sentencesOf(passages: ResearchPassage[], terms: Set<string>, weight: (t: string) => number): Sentence[] {
  const out: Sentence[] = [];
  const linked = linkContext(passages, terms, weight);
  const named = namedContext(passages, terms, weight);
  passages.forEach((p, rank) => {
    const link = linked.get(p.source);
    for (const s of sentenceSpans(p.text)) {
      if (s.text.length < 15 || s.text.length > 800) continue;
      const seen = new Set(tokenize(`${s.text}`));
      // The page's title counts a little: "He directed it" is about the page's film.
      const titleTerms = new Set(tokenize(p.title));
      const names = named(p.source, s.text);
      let overlap = 0;
      for (const t of terms) if (seen.has(t)) overlap += weight(t);
      else if (titleTerms.has(t)) overlap += 0.5 * weight(t);
      else if (link?.has(t) || names.has(t)) overlap += LINKED * weight(t);
      if (overlap > 0) out.push({ source: p.source, text: s.text, rank, overlap, title: p.title });
    }
  });
  return out.sort((a, b) => b.overlap - a.overlap || a.rank - b.rank).slice(0, SENTENCES_READ);
}

/** What a question's word in the sentence that leads to a page counts, in that page's sentences, of its weight. */
const LINKED = 0.5;

/**
 * For each passage, the question's words of the sentence on another page that names it: "Tobin
 * Arkwell … is known for playing Pell in The Lantern" leads to The Lantern's own page, whose
 * sentences then answer what the question asks of it ("directed by J. Corwin Halvard").
 */
function linkContext(passages: ResearchPassage[], terms: Set<string>, weight: (t: string) => number): Map<number, Set<string>> {
  const out = new Map<number, Set<string>>();
  // Each sentence cut at its commas, semicolons and brackets: the part that names a page says what leads to it.
  const pages = passages.map((p) => ({
    p,
    subject: subjectOf(p.title),
    title: tokenize(p.title),
    parts: sentenceSpans(p.text).flatMap((s) => s.text.split(/[,;:()]/).map((part) => ({ key: ` ${keyOf(part)} `, terms: tokenize(part) }))),
  }));
  for (const q of pages) {
    if (q.subject.length < 3) continue;
    let best: Set<string> | undefined;
    let bestWeight = 0;
    for (const p of pages) {
      if (p.p === q.p || p.subject === q.subject) continue;
      for (const part of p.parts) {
        if (!part.key.includes(` ${q.subject} `)) continue;
        // The question's words beside the name ("and Tom in the film The Lantern"), and the page's own title.
        const mine = new Set([...terms].filter((t) => part.terms.includes(t) || p.title.includes(t)));
        const w = [...mine].reduce((a, t) => a + weight(t), 0);
        if (w > bestWeight) [best, bestWeight] = [mine, w];
      }
    }
    if (best) out.set(q.p.source, best);
  }
  return out;
}

/**
 * The other way round: a sentence that names another page's subject borrows the question's words
 * of that page's best sentence. "Varden Song … is a fight song of the University of Varden" names
 * the page whose sentences say what the question says of the university ("main campus in
 * Calloway, Varden"), and so answers "the fight song of the university whose main campus…".
 */
function namedContext(passages: ResearchPassage[], terms: Set<string>, weight: (t: string) => number): (source: number, sentence: string) => Set<string> {
  const pages = passages
    .map((p) => {
      let best = new Set<string>();
      let bestWeight = 0;
      for (const s of sentenceSpans(p.text)) {
        const mine = new Set(tokenize(s.text).filter((t) => terms.has(t)));
        const w = [...mine].reduce((a, t) => a + weight(t), 0);
        if (w > bestWeight) [best, bestWeight] = [mine, w];
      }
      return { source: p.source, subject: subjectOf(p.title), best };
    })
    .filter((p) => p.subject.length >= 3 && p.best.size > 0);
  return (source, sentence) => {
    const key = ` ${keyOf(sentence)} `;
    const out = new Set<string>();
    const own = pages.find((p) => p.source === source)?.subject;
    for (const p of pages) if (p.source !== source && p.subject !== own && key.includes(` ${p.subject} `)) for (const t of p.best) out.add(t);
    return out;
  };
}

/** Term weights: rarer among the passages' sentences weighs more (an idf over what was read). */
export function termWeights(passages: ResearchPassage[], terms: string[]): (t: string) => number {
  const df = new Map<string, number>();
  let n = 0;
  for (const p of passages)
    for (const s of sentenceSpans(p.text)) {
      n++;
      for (const t of new Set(tokenize(s.text))) if (terms.includes(t)) df.set(t, (df.get(t) ?? 0) + 1);
    }
  return (t) => Math.log(1 + (n + 1) / ((df.get(t) ?? 0) + 0.5));
}

/** A piece that is a date (chrono-node reads it, or most of it, as one): "26 March 2015", "the 2015 season" (not "Ballad for the Evening"). */
export const datePiece = (piece: string) => chrono.parse(piece).some((r) => r.text.length >= 0.5 * piece.length);

/** A year as pages write one (1500-2099): not a count. */
const isYear = (s: string) => /^(?:1[5-9]\d\d|20\d\d)$/.test(s);
const yearsIn = (text: string) => [...text.matchAll(/\b(1[5-9]\d\d|20\d\d)\b/g)].map((m) => m[1]!);

const trimEnds = (s: string) => s.replace(/^[\s"'“”‘’(]+|[\s"'“”‘’),.;:!?]+$/g, '');

/** Candidates of `kind` in a sentence, as written. */
export function candidatesIn(
  kind: ShortKind,
  text: string,
  questionTerms: Set<string>,
  question: string,
  // The noun the question asks for, as written (ShortQuestion.nounWord; null: none); read from the question when not given.
  askedWord: string | null = kind === 'place' || kind === 'thing' ? (askedNoun(question)?.word ?? null) : null,
): Array<{ text: string; fit: number; person?: boolean; whole?: string }> {
  // A name in another script than the question's ("Михаил Горбачёв" for an English question) is not how the asker writes it.
  const latin = /\p{Script=Latin}/u.test(question);
  const script = (c: string) => !latin || /\p{Script=Latin}/u.test(c);
  const plain = (values: string[]) => values.map((text) => ({ text, fit: 1 }));
  if (kind === 'year') return plain(yearsIn(text));
  if (kind === 'date') {
    const dates = chrono.parse(text).filter((r) => r.start.isCertain('year') || r.start.isCertain('month')).map((r) => r.text);
    return plain(dates.length ? dates : yearsIn(text));
  }
  if (kind === 'number') return numbersIn(text, question);
  const doc = nlp(text);
  if (kind === 'thing') {
    // "What position does he play?", "what profession…": the role words the sentence holds ("linebacker").
    if (askedWord !== null && ROLE_ASKED.test(askedWord))
      return [...text.matchAll(/[\p{L}-]+/gu)].map((m) => m[0]).filter((w) => PERSON_NOUNS.test(w) && !ANYONE.test(w) && !questionTerms.has(tokenize(w)[0] ?? '')).map((w) => ({ text: w, fit: KIND_FIT }));
    // "What nationality": the nationalities the sentence names ("an Australian film director").
    if (askedWord !== null && NATIONALITY_ASKED.test(askedWord)) return (doc.match('#Demonym').out('array') as string[]).map((d) => ({ text: trimEnds(d), fit: KIND_FIT }));
    // "What colour": the colours it names (a closed class of words; compromise tags none).
    if (/\b(?:what|which)\s+colou?rs?\b/i.test(question)) return [...new Set(text.match(COLOURS) ?? [])].filter((c) => !questionTerms.has(tokenize(c)[0] ?? '')).map((c) => ({ text: c, fit: KIND_FIT }));
    // compromise's noun chunks, cut where the question's own words stand ("the ABL champion
    // Kessa Otters" for a question about the ABL: "champion Kessa Otters"), at brackets,
    // commas and prepositions other than "of" ("victory in extra time": "victory", "extra time";
    // "replica of the Marrow Point Bridge" stays one), without their
    // determiners: "the golden anniversary" -> "golden anniversary".
    const chunks = (doc.chunks().json() as Array<{ text: string; terms: Array<{ text: string; chunk?: string; tags?: string[] }> }>).filter((c) => c.terms[0]?.chunk === 'Noun');
    const pieces: string[] = [];
    for (const c of chunks) {
      let run: string[] = [];
      const flush = () => {
        if (run.length) pieces.push(run.join(' '));
        run = [];
      };
      for (const t of c.terms) {
        const own = tokenize(t.text);
        if (own.length > 0 && own.every((w) => questionTerms.has(w))) flush();
        else if (t.tags?.includes('Preposition') && !/^of$/i.test(t.text)) flush();
        else run.push(t.text);
        if (/[,;()]/.test(t.text)) flush();
      }
      flush();
      pieces.push(c.text);
    }
    // A name the question's own words begin ("Which Harvest Cup…?" -> "Harvest Cup LXI").
    const runs = capitalisedRuns(text);
    pieces.push(...runs);
    // A title the page quotes whole ("Ballad for the Evening", "I'm a Heron").
    const quoted = quotedTitles(text);
    pieces.push(...quoted);
    const cleaned = pieces.map((c) => trimEnds(c.replace(/[()]/g, ' ').trim()).replace(/^(?:(?:the|a|an|its|their|his|her|this|that|these|those|of|and|or)\s+)+/i, ''));
    // A date or a bare number is not a thing a noun names.
    const things = [...new Set(cleaned.filter((c) => c.length >= 2 && c.split(/\s+/).length <= 6 && /\p{L}/u.test(c) && !BARE_NUMBER.test(c) && script(c) && !datePiece(c)))];
    // "What talk show…", "which hotel…": one of a kind, which pages name; a name of more than one
    // plain word ("Port Kessa Lodge", "XLV") before a common noun phrase. (A lone capitalised
    // word may only open its sentence.)
    const member = /\b(?:which|what)\s+(?!(?:is|was|are|were|did|does|do|has|had|have)\b)/i.test(question);
    // A numeral left of a name cut at the question's words stands for that name: "XCII" of
    // "Harvest Cup XCII" is scored where it stands, and answers as "Harvest Cup XCII".
    const wholeOf = (c: string) => (/^(?:[IVXLC]+|\d+)$/.test(c) ? runs.find((r) => r.endsWith(` ${c}`)) : undefined);
    // "Which World Cup…?": one of the series the question names, told apart by a year, an ordinal
    // or a numeral ("the 1974 World Cup", "Harvest Cup LXI"), is of the kind asked twice over.
    const series = /^(?:[Ww]hich|[Ww]hat)\s+((?:\p{Lu}[\p{L}'’-]*\s+)*\p{Lu}[\p{L}'’-]*)\s+(?:is|was|are|were|did|does|do|has|had|have)\b/u.exec(question)?.[1];
    const ofSeries = (c: string) => {
      if (!series) return false;
      const at = c.indexOf(series);
      if (at < 0) return false;
      const rest = `${c.slice(0, at)} ${c.slice(at + series.length)}`.trim();
      return /^(?:\d{4}|\d+(?:st|nd|rd|th)|[IVXLC]+|\d+)$/.test(rest);
    };
    const instances = series ? [...text.matchAll(new RegExp(`\\b(?:\\d{4}|\\d+(?:st|nd|rd|th))\\s+${series.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\b`, 'gu'))].map((m) => m[0]) : [];
    return [...new Set([...things, ...instances])].map((text) => {
      const whole = wholeOf(text);
      const fit = ofSeries(whole ?? text) ? KIND_FIT * NOUN_FIT : (member && /^\p{Lu}/u.test(text) && !/^\p{Lu}\p{Ll}+$/u.test(text)) || quoted.includes(text) ? KIND_FIT : 1;
      return { text, fit, ...(whole ? { whole } : {}) };
    });
  }
  const people = (doc.people().out('array') as string[]).map(trimEnds);
  const places = (doc.places().out('array') as string[]).map(trimEnds);
  const organisations = (doc.organizations().out('array') as string[]).map(trimEnds);
  // "Who" is as often a team, a band or a broadcaster as a person.
  const typed = kind === 'person' ? [...people, ...organisations] : kind === 'place' ? places : kind === 'organisation' ? organisations : [];
  // "Ned Brask of Copper Lanterns": for "who", two names of two words or more each are two
  // candidates ("Bank of Varden", "Duke of York" stay whole).
  const split = (c: string) => {
    const sides = c.split(/\s+of\s+/);
    return kind === 'person' && sides.length === 2 && sides.every((side) => side.split(/\s+/).length >= 2) ? sides : [c];
  };
  const runs = capitalisedRuns(text).flatMap(split);
  const proper = [...(doc.match('#ProperNoun+ (of|the|de)? #ProperNoun*').out('array') as string[]), ...runs];
  // A list ("Ned Brask of Copper Lanterns and Ilse Marnow") is several candidates; a bracket ends one.
  // "Hobb & Sons", "Kestrel & Loaf" stay one name.
  const pieces = [...typed, ...proper].flatMap((c) => c.split(/\s*(?:,|\band\b|\(|\))\s*/)).flatMap(split);
  const named = new Set(pieces.map((c) => trimEnds(c).replace(/['’]s$/u, '')).filter((c) => c.length >= 2 && /\p{Lu}|\d/u.test(c) && script(c)));
  const names = [...named].filter((c) => {
    const tags = nlp(c);
    // A nationality, a month or a weekday is capitalised but names no one ("American", "September").
    if (!/\s/.test(c) && tags.has('(#Demonym|#Month|#WeekDay)')) return false;
    // For "who", "Only" opening a sentence or a numeral is capitalised, not a name.
    return kind !== 'person' || tags.has('(#ProperNoun|#Person)');
  });
  // A name inside a longer run of capitalised words is that run ("Marlowe Pinter" in "J. Marlowe
  // Pinter"); the run is of every kind compromise saw its parts as.
  const wholes = new Map<string, string[]>();
  for (const name of names) {
    const whole = runs.find((r) => r !== name && ` ${r} `.includes(` ${name} `)) ?? name;
    wholes.set(whole, [...(wholes.get(whole) ?? []), name]);
  }
  const out: Array<{ text: string; fit: number; person?: boolean }> = [];
  const settlement = askedWord !== null && SETTLEMENTS.test(askedWord);
  const venue = askedWord !== null && VENUES.test(askedWord);
  const personAsked = askedWord !== null && personNoun(askedWord);
  const titles = kind === 'person' ? quotedTitles(text) : [];
  for (const [whole, parts] of wholes) {
    const seen = (spans: string[]) => [whole, ...parts].some((c) => spans.some((span) => span.includes(c)));
    const isPerson = seen(people);
    const isPlace = seen(places);
    const isOrganisation = seen(organisations);
    // "Where": a name compromise sees as a person and not a place is no place ("Ewan Strachie was born in Aberdeen").
    if (kind === 'place' && isPerson && !isPlace) continue;
    // An event is no place ("Harvest Cup XIX"); a venue is no city, nor a city a venue.
    if (kind === 'place' && (EVENT.test(whole) || (FACILITY(whole) ? settlement : venue))) {
      out.push({ text: whole, fit: NOT_OF_KIND });
      continue;
    }
    if (kind === 'place' && venue && FACILITY(whole)) {
      out.push({ text: whole, fit: KIND_FIT });
      continue;
    }
    // "Who": a name ending in a venue's or an event's word ("Brelton Stadium", "Harvest Cup XIX",
    // "Marrow Trophy") names no one, whatever compromise saw in its parts.
    if (kind === 'person' && whole !== withoutRole(whole)) {
      out.push({ text: withoutRole(whole), fit: KIND_FIT });
      continue;
    }
    if (kind === 'person' && notWho(whole)) {
      out.push({ text: whole, fit: NOT_OF_KIND });
      continue;
    }
    // "Which player…", "which actor…": one person, not the team or the studio compromise reads
    // ("the Kessa Otters lost Brin Callory to a torn ACL").
    if (kind === 'person' && personAsked && isOrganisation && !isPerson) {
      out.push({ text: whole, fit: NOT_OF_KIND });
      continue;
    }
    // A title the sentence quotes is a work's ("the drama "Amber Summer""), no one's name.
    if (kind === 'person' && titles.includes(whole)) {
      out.push({ text: whole, fit: NOT_OF_KIND });
      continue;
    }
    // "Where": a name the sentence puts "in", "near" or "from" before is a place there ("born … in Fujioka").
    const placed = kind === 'place' && !isPerson && text.split(/(?:\s+|^)(?:in|near|from)\s+(?:the\s+)?/).slice(1).some((after) => after.startsWith(whole));
    out.push({ text: whole, fit: placed ? KIND_FIT : kindFit(kind, isPerson, isPlace, isOrganisation), ...(isPerson ? { person: true } : {}) });
  }
  return out;
}

/**
 * A person's name without the role written before it as part of the capitalised run: "ABL
 * Commissioner Ilse Marnow" -> "Ilse Marnow", "Goalkeeper Dorin Vasch" -> "Dorin
 * Vasch" (two words of name at least stay).
 */
function withoutRole(name: string): string {
  const words = name.split(/\s+/);
  // The last role word that leaves two words of name, and all before it ("NFL", "League").
  for (let i = words.length - 3; i >= 0; i--) if (PERSON_NOUNS.test(words[i]!)) return words.slice(i + 1).join(' ');
  return name;
}

/** The fit of a name that is not of the kind asked (an event for "where", a stadium for "who"). */
export const NOT_OF_KIND = 0.5;

/**
 * Last words of names of buildings and grounds, and of events: "Milo's Stadium", "Harvest Cup XIX";
 * a dome may close a compound ("Kessadome").
 */
const GROUNDS = /(?:\b(?:Stadium|Field|Park|Arena|Center|Centre|Dome|Hall|Airport|Plaza|Square|Street|Avenue|Bridge|Theatre|Theater|Museum)|\Bdome)$/u;
const FACILITY = (name: string) => GROUNDS.test(name) || /\b(?:University|College|School|Hotel)$/u.test(name);
const EVENT = /\b(?:Bowl|Cup|Trophy|Award|Awards|Prize|Championship|Tournament|Games|Series|Season|Olympics)(?:\s+(?:[IVXLC]+|\d{4}))?$/u;
/** Nouns asking for a settlement or a region, and for a building or ground. */
const SETTLEMENTS = /^(?:city|cities|town|towns|village|country|countries|state|states|province|county|region|capital|nation)$/i;
/** A question asking what two named things have in common. */
const SHARED = /\b(?:share|shared|in common|both have|both had)\b/i;
/** Nouns asking for a role or a position ("what position does he play"). */
const ROLE_ASKED = /^(?:position|positions|role|roles|job|jobs|occupation|occupations|profession|professions|post)$/i;
const COLOURS = /\b(?:white|black|red|blue|green|yellow|orange|purple|violet|pink|brown|gr[ae]y|gold|silver|bronze|navy|teal|maroon|crimson|scarlet|beige|turquoise|cyan|magenta)\b/gi;
const NATIONALITY_ASKED = /^(?:nationality|nationalities|citizenship)$/i;
/** Words for anyone at all: no role. */
const ANYONE = /^(?:person|man|woman|player|member|star|people)s?$/i;
const VENUES = /^(?:venue|venues|stadium|stadiums|arena|ground|hotel|building|facility|campus)$/i;
/** The question asks for a settlement or a region ("in what city"), not a building or ground. */
export const asksSettlement = (q: ShortQuestion) => q.nounWord !== undefined && SETTLEMENTS.test(q.nounWord);

/** Names of grounds, schools, hotels, events and prizes: never the answer to "who". */
const notWho = (name: string) => FACILITY(name) || EVENT.test(name);

/** What compromise sees a name as in its sentence weighs it: for "who", a person or a team before a place. */
function kindFit(kind: ShortKind, isPerson: boolean, isPlace: boolean, isOrganisation: boolean): number {
  if (kind === 'person') return isPerson || isOrganisation ? KIND_FIT : isPlace ? 1 / KIND_FIT : 1;
  if (kind === 'place') return isPlace ? KIND_FIT : 1;
  if (kind === 'organisation') return isOrganisation ? KIND_FIT : 1;
  return 1;
}

/** A number as written with what belongs to it: "$1.2 billion", "5½", "31–24", "11:28", "six"; not an ordinal ("50th"). */
const NUMBER = new RegExp(
  String.raw`(?:[$€£]\s?)?\b\d[\d,]*(?:\.\d+)?[½¼¾]?(?:\s?[–-]\s?\d[\d,]*(?![\d,]*\s?[–-]))?(?::\d\d)?(?:\s(?:million|billion|trillion|thousand)\b|\s?%|\s(?:percent|per cent)\b)?(?![\p{L}\p{N}])|\b(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|twenty|thirty|forty|fifty|dozen|hundred)\b(?:\s(?:million|billion|thousand)\b)?`,
  'giu',
);

/**
 * Whether a number is a name in the passages: a page is about it ("17 (XXXTentacion album)") or a
 * page quotes it whole ('from his album "17"'). Such a number counts nothing.
 */
export function numberNamed(passages: ResearchPassage[]): (value: string) => boolean {
  const subjects = new Set(passages.map((p) => subjectOf(p.title)));
  return (value) => {
    const key = keyOf(value);
    return subjects.has(key) || passages.some((p) => p.text.includes(`"${value}"`) || p.text.includes(`“${value}”`));
  };
}

/** A name and the numeral that makes it one of a series: "Harvest Cup 50", "Harvest Cup XLIX", "Apollo 11". */
const NUMBERED_NAME = /((?:\p{Lu}[\p{L}'’-]*\s+){1,4})((?:[IVXLC]+|\d+)(?:st|nd|rd|th)?)\b/gu;

/**
 * Whether a sentence speaks of another one of a series the question names one of: the question
 * asks of "Harvest Cup 50", the sentence of "Harvest Cup XL" (and not of 50). Its names answer
 * another question.
 */
export function instanceConflict(question: string): (sentence: string) => boolean {
  // The series' name without what opens its sentence ("The", "Which").
  const series = (words: string) => keyOf(words).replace(/^(?:(?:the|a|an|which|what|in|at|on|of|for)\s+)+/, '');
  const asked = new Map<string, string>();
  for (const m of question.matchAll(NUMBERED_NAME)) if (series(m[1]!)) asked.set(series(m[1]!), m[2]!.toLowerCase());
  if (asked.size === 0) return () => false;
  return (sentence) => {
    let other = false;
    for (const m of sentence.matchAll(NUMBERED_NAME)) {
      const number = asked.get(series(m[1]!));
      if (number === undefined) continue;
      if (m[2]!.toLowerCase() === number) return false;
      other = true;
    }
    return other;
  };
}

/** The initials of the names of two capitalised words or more a text writes: "NFL" of "the National Football League". */
function initialsOf(text: string): Set<string> {
  return new Set(
    capitalisedRuns(text)
      .map((run) => run.split(/\s+/).filter((w) => /^\p{Lu}/u.test(w)))
      .filter((words) => words.length >= 2)
      .map((words) => words.map((w) => w[0]).join('')),
  );
}

/** Nothing but a number ("Two", "1.5 million"): no thing a noun names. */
const BARE_NUMBER = new RegExp(`^(?:${NUMBER.source})$`, 'iu');

/** "How many solo tackles…?": the words of what is counted (none for another question). */
const countedNoun = (question: string) => new Set(tokenize(/\bhow many\s+([\p{L}-]+(?:\s+[\p{L}-]+)?)/iu.exec(question)?.[1] ?? ''));
/** A number the counted noun follows in its clause ("five solo tackles") counts it. */
const countsNoun = (counted: Set<string>, after: string) => counted.size > 0 && tokenize(after.split(/[,;.()]/)[0]!.split(/\s+/).slice(0, 4).join(' ')).some((t) => counted.has(t));

/** Whether `value`, where `sentence` states it, is followed by what a "how many" question counts; undefined when the question names nothing counted. */
export function countsAsked(question: string, value: string, sentence: string): boolean | undefined {
  const counted = countedNoun(question);
  if (counted.size === 0) return undefined;
  const at = sentence.indexOf(value);
  if (at < 0) return false;
  // Or a label names it: "Students: 5,800".
  const label = /([\p{L}-]+)\s*[:\t]\s*$/u.exec(sentence.slice(Math.max(0, at - 40), at))?.[1];
  return (label !== undefined && tokenize(label).some((t) => counted.has(t))) || countsNoun(counted, sentence.slice(at + value.length, at + value.length + 40));
}

/**
 * The numbers a sentence states, years left out; a question about money prefers an amount of
 * money, one about a score a score ("31–24"), one about a time of the clock a time.
 */
function numbersIn(text: string, question: string): Array<{ text: string; fit: number }> {
  const money = /\bhow much\b.*\b(?:money|cost|costs|spent|spend|raise|raised|pay|paid|worth|price|charge|charged|earn|earned)\b|\b(?:cost|price|revenue|budget|fee)\b/i.test(question);
  const score = /\bscore\b/i.test(question);
  const clock = /\bhow much time\b|\btime (?:was )?(?:left|remaining)\b/i.test(question);
  const counted = countedNoun(question);
  return [...text.matchAll(NUMBER)]
    .map((m) => ({ n: m[0].trim().replace(/[,.]+$/, ''), after: text.slice(m.index! + m[0].length, m.index! + m[0].length + 40) }))
    .filter(({ n }) => !isYear(n))
    .map(({ n, after }) => {
      const fits = (money && /^[$€£]|\b(?:million|billion)\b/.test(n)) || (score && /\d\s?[–-]\s?\d/.test(n)) || (clock && /:\d\d$/.test(n));
      const counts = countsNoun(counted, after);
      return { text: n, fit: fits ? KIND_FIT * KIND_FIT : counts ? KIND_FIT : 1 };
    });
}

/**
 * Runs of capitalised words as written ("Tobin Arkwell", "J. Corwin Halvard", "Bank of Varden"):
 * names compromise does not tag in their sentence; a run's leading stop words ("The", "In") are
 * not part of the name.
 */
const CAPITALISED_WORD = String.raw`(?:(?:\p{Lu}\.)+|\p{Lu}[\p{L}\p{M}'’.-]*)`;
const CAPITALISED_RUN = new RegExp(`(?<![\\p{L}\\p{N}])${CAPITALISED_WORD}(?:\\s+(?:(?:of|the|de|del|da|van|von|der|le|la|&)\\s+)?${CAPITALISED_WORD})*`, 'gu');

/** Titles a text quotes whole, capitalised, of six words at most: 'the song "Ballad for the Evening"'. */
export const quotedTitles = (text: string): string[] =>
  [...text.matchAll(/["“]([^"“”]{2,80})["”]/gu)].map((m) => m[1]!.trim()).filter((q) => q.split(/\s+/).length <= 6 && /^\p{Lu}/u.test(q));

const joining = new Map<string, boolean>();
/** Whether compromise reads a word alone as a preposition or a conjunction ("Despite", "Although", "After"). */
function joiningWord(word: string): boolean {
  let known = joining.get(word);
  if (known === undefined) {
    if (joining.size >= 10_000) joining.clear();
    const tags = (nlp(word).json() as Array<{ terms: Array<{ tags: string[] }> }>)[0]?.terms[0]?.tags ?? [];
    joining.set(word, (known = tags.includes('Preposition') || tags.includes('Conjunction')));
  }
  return known;
}

export function capitalisedRuns(text: string): string[] {
  const runs = text.match(CAPITALISED_RUN) ?? [];
  return runs
    .map((run) => {
      const words = run.split(/\s+/);
      let drop = 0;
      while (drop < words.length - 1 && tokenize(words[drop]!).length === 0 && !/^(?:\p{Lu}\.)+$/u.test(words[drop]!)) drop++;
      // A sentence's opening preposition or conjunction is no part of the name after it ("Despite Varden").
      if (drop < words.length - 1 && joiningWord(words[drop]!)) drop++;
      return words.slice(drop).join(' ').replace(/['’]s$/u, '').replace(/[.'’-]+$/u, (end) => (/^\p{Lu}\.$/u.test(words.at(-1)!) ? end : ''));
    })
    .filter((name) => tokenize(name).length > 0);
}

/**
 * How sure a value can be for the kind `question` asks: high for a name of the kind asked (a
 * person or a team for "who", a place for "where"), yes/no and which-of-two; medium for a number
 * or a date (of the right shape, it may still count the wrong thing) and for a name compromise
 * does not see as the kind asked.
 */
export function kindConfidence(question: string, value: string): ShortAnswer['confidence'] {
  const kind = analyseShortQuestion(question)?.kind;
  if (!kind || kind === 'choice' || kind === 'yesno') return 'high';
  if (kind === 'number' || kind === 'date' || kind === 'year' || kind === 'thing') return 'medium';
  // "Who": one word ("Roman", "Milo" of "Milo's Stadium") may be a person's name only to compromise's list of first names.
  if (kind === 'person' && !/\s/.test(value.trim()) && !nlp(value).has('#Organization')) return 'medium';
  return fitsKind(question, value) ? 'high' : 'medium';
}

/** The value is a name of the kind `question` asks for, as compromise tags it (a person or a team for "who", a place for "where"). */
export function fitsKind(question: string, value: string): boolean {
  const kind = analyseShortQuestion(question)?.kind;
  const doc = nlp(value);
  if (kind === 'person') return doc.has('#Person') || doc.has('#Organization');
  if (kind === 'place') return doc.has('#Place');
  if (kind === 'organisation') return doc.has('#Organization') || doc.has('#ProperNoun');
  return true;
}

/**
 * How close a candidate stands to the question's words in its sentence: each question word the
 * sentence holds counts by its weight, less the further (in words) it stands from the candidate
 * ("the ABL champion Kessa Otters defeated the CBL champion Brelton Hawks": for "ABL",
 * Kessa Otters). A factor around 1: 0.5 with no question word near, up to 1.5.
 */
function proximity(text: string, terms: Set<string>, weight: (t: string) => number, total: number): (candidate: string) => number {
  const tokens = [...text.matchAll(/[\p{L}\p{N}]+/gu)].map((m) => ({ start: m.index!, end: m.index! + m[0].length, term: tokenize(m[0])[0] }));
  const matched = tokens.map((t, i) => ({ i, term: t.term })).filter((t) => t.term !== undefined && terms.has(t.term));
  return (candidate) => {
    const at = text.indexOf(candidate);
    if (at < 0) return 1;
    const first = tokens.findIndex((t) => t.end > at);
    let last = first;
    while (last + 1 < tokens.length && tokens[last + 1]!.start < at + candidate.length) last++;
    const nearest = new Map<string, number>();
    for (const m of matched) {
      if (m.i >= first && m.i <= last) continue;
      const d = m.i < first ? first - m.i : m.i - last;
      nearest.set(m.term!, Math.min(nearest.get(m.term!) ?? Infinity, d));
    }
    let near = 0;
    for (const [term, d] of nearest) near += weight(term) / (1 + d / PROXIMITY_SPAN);
    return 1 + near / total;
  };
}

/** A candidate that only repeats the question ("Nashville" for a question about Nashville) answers nothing. */
function newToQuestion(candidate: string, questionTerms: Set<string>): boolean {
  const own = tokenize(candidate);
  return own.length > 0 && own.some((t) => !questionTerms.has(t));
}

export const keyOf = (s: string) => s.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, ' ').trim();

/** The short answer to `question` from `passages` (in rank order), or null when none of its kind is found. */
export function shortAnswer(question: string, passages: ResearchPassage[]): ShortAnswer | null {
  const q = analyseShortQuestion(question);
  if (!q || passages.length === 0) return null;
  if (q.kind === 'choice') return choose(q, passages);
  if (q.kind === 'yesno') return yesNo(q, passages);
  const weight = termWeights(passages, q.terms);
  const terms = new Set(q.terms);
  const sentences = sentencesOf(passages, terms, weight);
  const total = q.terms.reduce((a, t) => a + weight(t), 0) || 1;
  const found = new Map<string, { value: string; score: number; best: number; fit: number; person: boolean; bySource: Map<number, number>; hits: Sentence[] }>();
  // "Which magazine": a candidate the pages call a magazine is the kind asked for.
  const isAsked = q.noun ? describedAs(q.noun, q.subtype === true, passages, q.nounWord) : () => false;
  const aPerson = q.kind === 'place' ? describedAsPerson(passages) : () => false;
  const namesOf = numberNamed(passages);
  // Read from the question as analysed (one line, bounded), not from the prompt as sent.
  const otherInstance = instanceConflict(q.text);
  const initials = initialsOf(q.text);
  const ownPage = ownPageSupport(passages, terms, weight, total);
  const subjects = new Set(passages.map((p) => subjectOf(p.title)));
  // A noun phrase every page repeats ("the game", "the team") is what the pages are about, not an answer.
  const everywhere = passages.map((p) => keyOf(p.text)).join(' | ');
  const commonness = (key: string) => {
    let count = 0;
    for (let at = everywhere.indexOf(key); at >= 0 && count < 50; at = everywhere.indexOf(key, at + key.length)) count++;
    return 1 / (1 + COMMONNESS * Math.log(Math.max(1, count)));
  };
  for (const s of sentences) {
    const base = ((s.overlap / total) / (1 + 0.15 * s.rank)) * (otherInstance(s.text) ? NOT_OF_KIND : 1);
    const near = proximity(s.text, terms, (t) => (t === q.focus ? FOCUS * weight(t) : weight(t)), total);
    for (const { text: candidate, fit, person, whole } of candidatesIn(q.kind, s.text, terms, q.text, q.nounWord ?? null)) {
      // Words the question already holds are no answer, unless the pages call that name the noun
      // asked and the question does not write it: "Varden Song … is a fight song" for "the fight
      // song of the university … in Calloway, Varden".
      if (!newToQuestion(candidate, terms) && q.kind !== 'year' && q.kind !== 'number' && !(isAsked(whole ?? candidate) && !` ${keyOf(q.text)} `.includes(` ${keyOf(candidate)} `))) continue;
      // "Where": no one the pages describe as a person, whatever compromise makes of the name.
      if (aPerson(candidate)) continue;
      if ((q.kind === 'year' || q.kind === 'number' || q.kind === 'date') && q.text.includes(candidate)) continue;
      // A number that is a name (an album called "17") counts nothing.
      if (q.kind === 'number' && namesOf(candidate)) continue;
      // The initials of a name the question writes are that name ("NFL" of "the National Football League").
      if (initials.has(candidate)) continue;
      const key = keyOf(candidate);
      if (!key) continue;
      const entry = found.get(key) ?? { value: whole ?? candidate, score: 0, best: 0, fit: 0, person: false, bySource: new Map<number, number>(), hits: [] };
      if (entry.hits.includes(s)) continue;
      entry.hits.push(s);
      // A page's own subject is what the pages are about, not a thing of the kind asked.
      const kindFit = q.kind === 'thing' && subjects.has(key) ? 1 : fit;
      const here = base * near(candidate) * kindFit * (isAsked(whole ?? candidate) ? NOUN_FIT : 1) * (q.kind === 'thing' ? commonness(key) : 1);
      entry.best = Math.max(entry.best, here);
      entry.fit = Math.max(entry.fit, fit);
      entry.person ||= person === true;
      // Agreement: each further source stating it adds a little, as much as its sentence is about
      // the question; a page naming its own subject is no further source.
      if (subjectOf(s.title) !== key) entry.bySource.set(s.source, Math.max(entry.bySource.get(s.source) ?? 0, here));
      const others = [...entry.bySource.values()].sort((a, b) => b - a);
      entry.score = entry.best + AGREEMENT * others.slice(others[0] === entry.best ? 1 : 0).reduce((a, v) => a + v, 0);
      if (!whole && candidate.length > entry.value.length && keyOf(candidate) === key) entry.value = candidate;
      found.set(key, entry);
    }
  }
  // A candidate named on another page than its own, whose own page says what the question says of
  // it. For "who", only a name compromise sees as a person or a team, or one the pages call the
  // noun asked: "who directed the film in which X had a role" finds the film's own page saying
  // so, and asks for its director.
  // A kind ("what type of sprite") is no page's subject: no own page supports one.
  // Where the question names the noun it asks for, only a candidate the pages call that: "a
  // medieval fortress in Gullwick borders on the south side of what coastal area?" describes
  // Gullwick Castle, whose own page says so, and asks for the coastal area beside it.
  const ofKind = (e: { value: string; fit: number }) => !q.subtype && (q.noun ? isAsked(e.value) : q.kind !== 'person' || e.fit > 1 || isAsked(e.value));
  for (const entry of found.values())
    if (ofKind(entry) && entry.hits.some((h) => subjectOf(h.title) !== keyOf(entry.value))) entry.score *= 1 + OWN_PAGE * ownPage(entry.value);
  // "What profession do X and Y share?": what every page the question names states.
  if (SHARED.test(q.text)) {
    const named = namedPages(q, passages).map((p) => p.source);
    if (named.length >= 2) for (const entry of found.values()) if (!named.every((n) => entry.hits.some((h) => h.source === n))) entry.score *= NOT_OF_KIND;
  }
  // Two things the question names, both read: a candidate both their pages state is what links
  // them ("which actor, who also appeared in "The Quiet Partners", does Night Courier star?": the
  // one of Night Courier's cast that The Quiet Partners' page names too).
  const namedThings = new Map<string, Set<number>>();
  for (const p of namedPages(q, passages)) {
    const subject = subjectOf(p.title);
    namedThings.set(subject, (namedThings.get(subject) ?? new Set()).add(p.source));
  }
  if (namedThings.size >= 2)
    for (const entry of found.values()) {
      const stating = [...namedThings.values()].filter((sources) => entry.hits.some((h) => sources.has(h.source))).length;
      if (stating >= 2) entry.score *= LINKS_NAMED;
    }
  const ranked = [...found.values()].sort((a, b) => b.score - a.score);
  const top = ranked[0];
  if (!top || top.best < 0.2) return null;
  const second = ranked[1]?.score ?? 0;
  const sources = new Set(top.hits.map((h) => h.source));
  const first = [...top.hits].sort((a, b) => b.overlap - a.overlap)[0]!;
  const clear = top.score >= 1.5 * second;
  // A name (person, place, organisation) can be checked against its kind; a bare number or date of
  // the right shape may still count the wrong thing: never more than medium.
  // "Who": sure only of a name compromise reads as a person's ("who coached…" is not sure of a league).
  // "Which team": sure only of a name compromise reads as an organisation's (or the pages call the noun asked).
  const named = (q.kind === 'person' && top.person) || q.kind === 'place' || (q.kind === 'organisation' && top.fit > 1);
  const confidence = named && clear && sources.size >= 2 && top.best >= 0.4 ? 'high' : clear || sources.size >= 2 ? 'medium' : 'low';
  const agreeing = top.hits.filter((h) => h.source !== first.source).map((h) => ({ source: h.source, quote: h.text }));
  const several = listed(q, top.value, first.text, terms);
  const value = q.kind === 'place' && several === top.value ? withRegion(top.value, first.text, terms) : several;
  return { value: canonical(value, first, passages), confidence, source: first.source, quote: first.text, agreeing };
}

/**
 * A question asking for several ("Who were the sideline reporters?") is answered by the pair its
 * sentence joins with "and" ("Alden Pryce and Corey Vance"), the answer found one of them.
 */
export function listed(q: ShortQuestion, value: string, sentence: string, terms: Set<string> = new Set(q.terms)): string {
  if (!q.plural || q.kind === 'yesno' || q.kind === 'choice') return value;
  for (const other of candidatesIn(q.kind, sentence, terms, q.text, q.nounWord ?? null)) {
    if (other.text === value || !newToQuestion(other.text, terms)) continue;
    for (const pair of [`${value} and ${other.text}`, `${other.text} and ${value}`]) if (sentence.includes(pair)) return pair;
  }
  return value;
}

/**
 * A place as its sentence writes it with the region after a comma: "Harunomi, Okawa", "Port
 * Kessa, Varden" (not a region the question already names).
 */
function withRegion(value: string, sentence: string, terms: Set<string>): string {
  const at = sentence.indexOf(`${value}, `);
  // One of a list ("…, Harbour Review, Quill Weekly, Varden Journal, Lumen") is followed by the next one, no region.
  if (at < 0 || /,\s*$/.test(sentence.slice(0, at))) return value;
  const region = new RegExp(`^${CAPITALISED_RUN.source}`, 'u').exec(sentence.slice(at + value.length + 2))?.[0];
  return region && newToQuestion(region, terms) && !nlp(region).has('#Person') ? `${value}, ${region}` : value;
}

/**
 * A name a page's opening gives its subject among others ("La Varenna or Región Varennica
 * is the … area of north-east Norland" on the page "Varenna, Norland"), where that opening
 * states the answer: the page's own name for it, its title's, as the opening writes it.
 */
function canonical(value: string, sentence: Sentence, passages: ResearchPassage[]): string {
  const page = passages.find((p) => p.source === sentence.source);
  if (!page || sentenceSpans(page.text)[0]?.text !== sentence.text) return value;
  const name = titleName(page.title);
  // The subject as the opening names it, with its other names: "X or Y", "X, also known as Y".
  const subject = /^(.{1,80}?)\s+(?:is|was|are|were)\s/u.exec(sentence.text)?.[1] ?? '';
  const aliases = /\s(?:or|also known as|also called|officially|formerly)\s/u.test(subject);
  return name && keyOf(name) !== keyOf(value) && aliases && subject.includes(value) && subject.includes(name) ? name : value;
}

/** A page's title as the name of its subject: "Quillmark (magazine)" -> quillmark, "Varenna, Norland" -> varenna. */
export const subjectOf = (title: string) => keyOf(titleName(title));
/** A page's title as its subject's name, as written: "Quillmark (magazine)" -> Quillmark, "Varenna, Norland" -> Varenna. */
export const titleName = (title: string) => title.replace(/\s*\([^)]*\)\s*$/, '').replace(/,.*$/, '').trim();

/**
 * How much a candidate's own page (a passage titled with its name) says what the question says
 * of it: the question's words on that page, by weight, as a share of all of them. "Which
 * magazine, the British response to Glossmark, did Dorian Kesh edit?": Quillmark's own page
 * calls it the British response to Glossmark. 0 when no page is about the candidate.
 */
function ownPageSupport(passages: ResearchPassage[], terms: Set<string>, weight: (t: string) => number, total: number): (candidate: string) => number {
  const pages = new Map<string, Set<string>>();
  for (const p of passages) {
    const subject = subjectOf(p.title);
    if (subject) pages.set(subject, new Set([...(pages.get(subject) ?? []), ...tokenize(p.text)]));
  }
  return (candidate) => {
    const own = pages.get(keyOf(candidate));
    if (!own) return 0;
    const name = new Set(tokenize(candidate));
    let said = 0;
    for (const t of terms) if (!name.has(t) && own.has(t)) said += weight(t);
    return said / total;
  };
}

/** Sentences about an option: those naming it, and those of a page titled after it. */
function about(option: string, passages: ResearchPassage[]): Sentence[] {
  const key = keyOf(option);
  const out: Sentence[] = [];
  passages.forEach((p, rank) => {
    const titled = keyOf(p.title.replace(/\s*\([^)]*\)$/, '')) === key;
    for (const s of sentenceSpans(p.text)) if (titled || keyOf(s.text).includes(key)) out.push({ source: p.source, text: s.text, rank, overlap: titled ? 1 : 0.5, title: p.title });
  });
  return out;
}

/** Which of two: settled by the dates or numbers each option's sentences state, else by the question's words around each. */
function choose(q: ShortQuestion, passages: ResearchPassage[]): ShortAnswer | null {
  const [a, b] = q.options!;
  const question = q.terms;
  // An option's own description (", the 1970 Copper Lanterns documentary") only says which one is
  // meant: its words would find that option's page, not settle the question.
  const optionTerms = new Set([...tokenize(a), ...tokenize(b), ...[a, b].flatMap((o) => tokenize(appositiveOf(q.text, o)))]);
  const rest = question.filter((t) => !optionTerms.has(t));
  const sa = about(a, passages);
  const sb = about(b, passages);
  if (sa.length === 0 && sb.length === 0) return null;
  type Read = { value: number; s: Sentence } | null;
  const decide = (va: Read, vb: Read, larger: boolean, confidence: ShortAnswer['confidence'] = 'medium'): ShortAnswer | null => {
    if (!va || !vb || va.value === vb.value) return null;
    const aWins = larger ? va.value > vb.value : va.value < vb.value;
    const win = aWins ? va : vb;
    return { value: aWins ? a : b, confidence, source: win.s.source, quote: win.s.text, agreeing: [{ source: (aWins ? vb : va).s.source, quote: (aWins ? vb : va).s.text }] };
  };
  const compare = (pick: (s: Sentence[], option: string) => Read, larger: boolean, confidence?: ShortAnswer['confidence']) => decide(pick(sa, a), pick(sb, b), larger, confidence);
  const wantsMore = MORE.test(q.text);
  const wantsLess = LESS.test(q.text);
  if (DATE_COMPARE.test(q.text) && (wantsMore || wantsLess)) {
    const year = (ss: Sentence[]) => {
      for (const s of [...ss].sort((x, y) => y.overlap - x.overlap || x.rank - y.rank)) {
        const m = /\b(1[0-9]\d\d|20\d\d)\b/.exec(s.text);
        if (m) return { value: Number(m[1]), s };
      }
      return null;
    };
    // Each option's own page giving its year: the comparison is as sure as the pages.
    const titled = (ss: Sentence[]) => ss.some((x) => x.overlap === 1);
    const settled = compare(year, wantsMore && !/\b(?:older|oldest|first|earl)/i.test(q.text), titled(sa) && titled(sb) ? 'high' : 'medium');
    if (settled) return settled;
  } else if (wantsMore || wantsLess) {
    // "more floors": the noun after the comparative is what is counted; else any number about the option.
    const unit = tokenize(/\b(?:more|fewer|less)\s+([\p{L}]+)/iu.exec(q.text)?.[1] ?? '')[0];
    // Each option's own count: the first number its sentences (its own page first) write before
    // the counted noun ("68 floors", "a seventy seven story building": compromise reads the words),
    // else the first number its own page states; a number inside its name ("15 Brelton Plaza") is no count.
    const counted = (ss: Sentence[], option: string) => {
      const ordered = [...ss].sort((x, y) => y.overlap - x.overlap || x.rank - y.rank);
      let any: { value: number; s: Sentence; unit?: boolean } | null = null;
      for (const s of ordered) {
        const text = s.text.split(option).join(' ');
        for (const n of nlp(text).numbers().json() as Array<{ text: string; number?: { num?: number } }>) {
          const value = n.number?.num;
          if (value === undefined || !Number.isFinite(value) || isYear(n.text.trim())) continue;
          const at = text.indexOf(n.text);
          const after = tokenize(text.slice(at + n.text.length).split(/\s+/).slice(0, 3).join(' '));
          if (unit && after.includes(unit)) return { value, s, unit: true };
          if (!any && s.overlap === 1) any = { value, s };
        }
      }
      return any;
    };
    // Each option's own page counting the noun asked ("68 floors"): as sure as the pages.
    const ca = counted(sa, a);
    const cb = counted(sb, b);
    const sure = !!ca?.unit && !!cb?.unit && ca.s.overlap === 1 && cb.s.overlap === 1;
    const settled = decide(ca, cb, wantsMore, sure ? 'high' : 'medium');
    if (settled) return settled;
  }
  // The question's own words around each option decide.
  // What is said of each option, all its sentences together ("… a 2001 documentary film." "It was
  // nominated for Best Documentary Feature."): the words of the question it holds; the sentence
  // holding most of them is quoted.
  const score = (ss: Sentence[]) => {
    let best: { value: number; s: Sentence } | null = null;
    const said = new Set<string>();
    for (const s of ss) {
      const seen = new Set(tokenize(s.text));
      for (const t of rest) if (seen.has(t)) said.add(t);
      const v = rest.filter((t) => seen.has(t)).length + s.overlap * 0.1;
      if (!best || v > best.value) best = { value: v, s };
    }
    return best && { value: said.size + best.s.overlap * 0.1, s: best.s };
  };
  const settled = compare(score, true);
  return settled && { ...settled, confidence: 'low' };
}

/** The description a question writes after an option, between commas: "…, Quiet Harbour, the 1970 documentary?" -> "the 1970 documentary". */
function appositiveOf(question: string, option: string): string {
  const at = question.indexOf(option);
  if (at < 0) return '';
  return /^\s*,\s*((?:the|a|an)\s+[^,?]{2,80}?)\s*(?:,|\?|$)/i.exec(question.slice(at + option.length))?.[1] ?? '';
}

/** The pages a question names by their titles ("Are both Perro Varenno and the Norland Shepherd dog breeds?"). */
function namedPages(q: ShortQuestion, passages: ResearchPassage[]): ResearchPassage[] {
  const text = keyOf(q.text);
  const named = passages
    .map((p) => ({ p, name: keyOf(p.title.replace(/\s*\([^)]*\)$/, '')) }))
    .filter((n) => n.name.length >= 3 && ` ${text} `.includes(` ${n.name} `))
    .sort((a, b) => b.name.length - a.name.length || a.p.source - b.p.source);
  const out: Array<{ p: ResearchPassage; name: string }> = [];
  // The longest names first; a name inside one already taken ("Pizza" in "Uncle Rob's Pizza") is not another page.
  for (const n of named) if (!out.some((o) => o.name.includes(n.name))) out.push(n);
  return out.map((o) => o.p);
}

/** Nationalities and countries a page's opening states (compromise's demonyms and places). */
function originOf(p: ResearchPassage): Set<string> {
  const { demonyms, places } = openingOrigins(p);
  return new Set([...demonyms, ...places].map(keyOf));
}

/** The demonyms and places compromise reads in a page's opening, once a page. */
const origins = new WeakMap<ResearchPassage, { demonyms: string[]; places: string[] }>();
function openingOrigins(p: ResearchPassage): { demonyms: string[]; places: string[] } {
  let found = origins.get(p);
  if (!found) {
    const doc = nlp(openingOf(p));
    origins.set(p, (found = { demonyms: doc.match('#Demonym').out('array') as string[], places: doc.places().out('array') as string[] }));
  }
  return found;
}

const openingOf = (p: ResearchPassage) =>
  sentenceSpans(p.text)
    .slice(0, 2)
    .map((s) => s.text)
    .join(' ');

/**
 * The country a page's opening gives its subject, as WordNet's names of it: by the nationality it
 * states ("an Austrian university" -> austria), else by the places it names ("in Sarasota,
 * Florida" -> united states). Empty when neither is known.
 */
function countriesOf(p: ResearchPassage): Set<string> {
  const lexicon = wordNet();
  if (!lexicon) return new Set();
  const { demonyms, places: named } = openingOrigins(p);
  const stated = demonyms.flatMap((d) => lexicon.placesOfNationality(trimEnds(d)));
  if (stated.length > 0) return new Set(stated);
  // "Sarasota, Florida." is read as one place: each of its parts.
  const places = named.flatMap((place) => place.split(/\s*,\s*/)).map(trimEnds);
  return new Set(places.flatMap((place) => lexicon.placesOf(place)));
}

/**
 * Yes or no, for two pages the question names: "the same nationality" compares what each page's
 * opening says of its origin; "both <kind>" asks whether each page's opening holds the kind's words.
 */
function yesNo(q: ShortQuestion, passages: ResearchPassage[]): ShortAnswer | null {
  const pages = namedPages(q, passages);
  if (pages.length < 2) return null;
  const [a, b] = pages as [ResearchPassage, ResearchPassage];
  const quoteOf = (p: ResearchPassage) => sentenceSpans(p.text)[0]?.text ?? p.text.slice(0, 200);
  const answer = (yes: boolean, confidence: ShortAnswer['confidence']): ShortAnswer => ({
    value: yes ? 'yes' : 'no',
    confidence,
    source: a.source,
    quote: quoteOf(a),
    agreeing: [{ source: b.source, quote: quoteOf(b) }],
  });
  if (/\b(?:same|similar)\s+(?:nationality|country|origin)\b/i.test(q.text)) {
    // The countries WordNet gives them ("American" and "in Sarasota, Florida" are one), else the words.
    const [ca, cb] = [countriesOf(a), countriesOf(b)];
    if (ca.size > 0 && cb.size > 0) {
      const same = [...ca].some((c) => cb.has(c));
      return answer(same, same ? 'high' : 'medium');
    }
    const oa = originOf(a);
    const ob = originOf(b);
    if (oa.size === 0 || ob.size === 0) return null;
    // Both openings naming the same nationality settle it; different words may still mean one country.
    const same = [...oa].some((o) => ob.has(o));
    return answer(same, same ? 'high' : 'medium');
  }
  if (/\b(?:same|similar|different)\b/i.test(q.text)) return null;
  // The words the question says of both, not those of their names: a word of a name counts when
  // the question writes it once more ("Are both Uncle Rob's Pizza and Uncle Dino's specialized in Pizza?").
  const counts = (words: string[]) => words.reduce((m, t) => m.set(t, (m.get(t) ?? 0) + 1), new Map<string, number>());
  const named = counts([...tokenize(a.title.replace(/\s*\([^)]*\)$/, '')), ...tokenize(b.title.replace(/\s*\([^)]*\)$/, ''))]);
  const asked = counts(tokenize(q.text));
  // What they are is said by nouns and adjectives; the question's verbs frame it ("described as a genus").
  const verbs = new Set(tokenize((nlp(q.text).match('#Verb').out('array') as string[]).join(' ')));
  let kind = q.terms.filter((t) => (asked.get(t) ?? 0) > (named.get(t) ?? 0) && !verbs.has(t) && !/^(?:both|each|also)$/.test(t));
  if (kind.length === 0) return null;
  // A nationality asked of both ("both American universities") is each one's country, however its
  // page words it: a page placing its subject in another country answers no.
  const lexicon = wordNet();
  let countries: [Set<string>, Set<string>] | undefined;
  for (const demonym of lexicon ? (nlp(q.text).match('#Demonym').out('array') as string[]).map(trimEnds) : []) {
    const own = tokenize(demonym);
    const wanted = new Set(lexicon!.placesOfNationality(demonym));
    if (wanted.size === 0 || !own.every((t) => kind.includes(t))) continue;
    const [ca, cb] = (countries ??= [countriesOf(a), countriesOf(b)]);
    const says = (c: Set<string>) => [...c].some((x) => wanted.has(x));
    if ((ca.size > 0 && !says(ca)) || (cb.size > 0 && !says(cb))) return answer(false, 'medium');
    if (says(ca) && says(cb)) kind = kind.filter((t) => !own.includes(t));
  }
  if (kind.length === 0) return answer(true, 'high');
  const [oa, ob] = [a, b].map((p) => new Set(tokenize(openingOf(p)))) as [Set<string>, Set<string>];
  const ha = kind.filter((t) => oa.has(t)).length / kind.length;
  const hb = kind.filter((t) => ob.has(t)).length / kind.length;
  // Both openings say it, every word of it said by one at least: as sure as the pages; a word
  // neither says leaves it open ("American universities" of two pages that say "university"
  // only). One says it and the other does not: a "no" may only mean the other page words it differently.
  if (ha >= 0.5 && hb >= 0.5) return kind.every((t) => oa.has(t) || ob.has(t)) ? answer(true, 'high') : null;
  if (Math.min(ha, hb) === 0 && Math.max(ha, hb) >= 0.5) return answer(false, 'medium');
  return null;
}
