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

export type ShortKind = 'person' | 'place' | 'organisation' | 'date' | 'year' | 'number' | 'yesno' | 'choice' | 'thing';

export interface ShortQuestion {
  kind: ShortKind;
  /** Which of two: the options as the question names them. */
  options?: [string, string];
  /** The question's terms (stemmed), what candidates are scored by. */
  terms: string[];
  /** The question as asked (one line, bounded). */
  text: string;
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
const MAX_QUESTION = 400;
const YESNO = /^(?:is|are|was|were|do|does|did|can|could|has|have|had|will|would|should)\s/i;
const PERSON_NOUNS =
  /^(?:person|man|woman|actor|actress|director|author|writer|singer|songwriter|player|footballer|midfielder|striker|goalkeeper|coach|politician|president|king|queen|artist|musician|producer|composer|poet|novelist|scientist|executioner|pioneer|founder|member|character|father|mother|son|daughter|wife|husband|leader|governor|senator|rapper|drummer|guitarist|comedian|journalist|painter|architect|designer|engineer|inventor|explorer|emperor|pope|saint|chef|athlete|boxer|wrestler|quarterback|manager|owner|ceo|host|presenter|star|statesman|linebacker|receiver|kicker|pitcher|captain|commissioner|chairman|chairwoman|officer|minister|mayor|judge|lawyer|doctor|teacher|professor|student|brother|sister|uncle|aunt|nephew|niece|grandson|granddaughter|heir|successor|predecessor|winner|runner-up|champion|mvp)s?$/i;
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
  const base = { terms: [...new Set(tokenize(question))], text: question };
  const options = choiceOptions(question);
  if (options) return { kind: 'choice', options, ...base };
  if (YESNO.test(question)) return { kind: 'yesno', ...base };
  const lower = question.toLowerCase();
  if (/\b(?:what|which|in what|in which)\s+year\b/.test(lower)) return { kind: 'year', ...base };
  if (/\bhow\s+(?:many|much|long|old|far|tall|high)\b/.test(lower)) return { kind: 'number', ...base };
  if (/(?:^|\s)when\b|\b(?:what|which)\s+(?:date|day|month)\b/.test(lower)) return { kind: 'date', ...base };
  // "What was the score", "what was his passer rating": a number the noun names.
  if (/\b(?:what|which)\s+(?:(?:is|was|were|are)\s+)?(?:the\s+|his\s+|her\s+|its\s+|their\s+)?(?:[\p{L}'’]+\s+)?(?:score|rating|percentage|percent|number|amount|cost|price|age|average|total|population|attendance|margin)\b/iu.test(lower))
    return { kind: 'number', ...base };
  if (/(?:^|\s)where\b/.test(lower)) return { kind: 'place', ...base };
  // "Which English midfielder", "what New York city", "What Canadian": the noun after the wh-word.
  const head = /\b(?:what|which)\s+([\p{L}\s,'’-]{0,60})/iu.exec(question);
  for (const word of (head?.[1] ?? '').split(/[^\p{L}-]+/u).filter(Boolean).slice(0, 3)) {
    if (PERSON_NOUNS.test(word) || nlp(word).has('#Demonym')) return { kind: 'person', ...base };
    if (PLACE_NOUNS.test(word)) return { kind: 'place', ...base };
    if (ORG_NOUNS.test(word)) return { kind: 'organisation', ...base };
  }
  if (/(?:^|\s)(?:who|whom|whose)\b/.test(lower)) return { kind: 'person', ...base };
  if (/\b(?:what|which)\b/.test(lower)) return { kind: 'thing', ...base };
  return null;
}

/** "Who was born first, Connie Willis or Margaret Landon?" -> both names. */
function choiceOptions(question: string): [string, string] | null {
  const m = /(?:[,:]|\s-)\s*([^,:?]{2,80}?),?\s+or\s+([^,?]{2,80}?)\s*(?:[,?]|$)/.exec(question) ?? /^(?:is|was|are|were)\s+(.{2,80}?)\s+or\s+(.{2,80}?)\s+(?:located|based|older|younger|larger|bigger|the)\b/i.exec(question);
  if (!m) return null;
  const clean = (s: string) => s.replace(/^(?:the|a|an)\s+/i, '').replace(/["“”]/g, '').trim();
  const a = clean(m[1]!);
  const b = clean(m[2]!);
  return a && b && a.toLowerCase() !== b.toLowerCase() ? [a, b] : null;
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
  passages.forEach((p, rank) => {
    for (const s of sentenceSpans(p.text)) {
      if (s.text.length < 15 || s.text.length > 800) continue;
      const seen = new Set(tokenize(`${s.text}`));
      // The page's title counts a little: "He directed it" is about the page's film.
      const titleTerms = new Set(tokenize(p.title));
      let overlap = 0;
      for (const t of terms) if (seen.has(t)) overlap += weight(t);
      else if (titleTerms.has(t)) overlap += 0.5 * weight(t);
      if (overlap > 0) out.push({ source: p.source, text: s.text, rank, overlap, title: p.title });
    }
  });
  return out.sort((a, b) => b.overlap - a.overlap || a.rank - b.rank).slice(0, SENTENCES_READ);
}

/** Term weights: rarer among the passages' sentences weighs more (an idf over what was read). */
function weights(passages: ResearchPassage[], terms: string[]): (t: string) => number {
  const df = new Map<string, number>();
  let n = 0;
  for (const p of passages)
    for (const s of sentenceSpans(p.text)) {
      n++;
      for (const t of new Set(tokenize(s.text))) if (terms.includes(t)) df.set(t, (df.get(t) ?? 0) + 1);
    }
  return (t) => Math.log(1 + (n + 1) / ((df.get(t) ?? 0) + 0.5));
}

const trimEnds = (s: string) => s.replace(/^[\s"'“”‘’(]+|[\s"'“”‘’),.;:!?]+$/g, '');

/** Candidates of `kind` in a sentence, as written. */
function candidatesIn(kind: ShortKind, text: string): string[] {
  if (kind === 'year') return [...text.matchAll(/\b(1[5-9]\d\d|20\d\d)\b/g)].map((m) => m[1]!);
  if (kind === 'date') {
    const dates = chrono.parse(text).filter((r) => r.start.isCertain('year') || r.start.isCertain('month')).map((r) => r.text);
    return dates.length ? dates : [...text.matchAll(/\b(1[5-9]\d\d|20\d\d)\b/g)].map((m) => m[1]!);
  }
  if (kind === 'number')
    return [...text.matchAll(/\b(\d[\d,.]*|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|dozen)\b/gi)].map((m) => m[1]!).filter((n) => !/^(1[5-9]\d\d|20\d\d)$/.test(n));
  const doc = nlp(text);
  if (kind === 'thing') {
    // Noun phrases, without their determiners and trailing clauses: "the golden anniversary" -> "golden anniversary".
    const phrases = (doc.nouns().out('array') as string[]).flatMap((c) => c.split(/\s*(?:,|;|\(|\)|\bwhich\b|\bthat\b|\bwho\b)\s*/));
    const cleaned = phrases.map((c) => trimEnds(c).replace(/^(?:the|a|an|its|their|his|her|this|that|these|those)\s+/i, ''));
    // A date or a bare number is not a thing a noun names.
    return [...new Set(cleaned.filter((c) => c.length >= 2 && c.split(/\s+/).length <= 6 && chrono.parse(c).length === 0))];
  }
  const typed =
    kind === 'person' ? doc.people().out('array') : kind === 'place' ? doc.places().out('array') : kind === 'organisation' ? doc.organizations().out('array') : [];
  const proper = doc.match('#ProperNoun+ (of|the|de)? #ProperNoun*').out('array') as string[];
  // A list ("Jay DeMarcus of Rascal Flatts and Hal David") is several candidates; a bracket ends one.
  const pieces = [...(typed as string[]), ...proper].flatMap((c) => c.split(/\s*(?:,|\band\b|&|\(|\))\s*/));
  const named = pieces.map(trimEnds).filter((c) => c.length >= 2 && /\p{Lu}|\d/u.test(c));
  // "Only" opening a sentence, a numeral: capitalised, not a name.
  return [...new Set(kind === 'person' ? named.filter((c) => nlp(c).has('#ProperNoun') || nlp(c).has('#Person')) : named)];
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

/** A candidate that only repeats the question ("Nashville" for a question about Nashville) answers nothing. */
function newToQuestion(candidate: string, questionTerms: Set<string>): boolean {
  const own = tokenize(candidate);
  return own.length > 0 && own.some((t) => !questionTerms.has(t));
}

const keyOf = (s: string) => s.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, ' ').trim();

/** The short answer to `question` from `passages` (in rank order), or null when none of its kind is found. */
export function shortAnswer(question: string, passages: ResearchPassage[]): ShortAnswer | null {
  const q = analyseShortQuestion(question);
  if (!q || passages.length === 0) return null;
  if (q.kind === 'choice') return choose(q, passages);
  if (q.kind === 'yesno') return yesNo(q, passages);
  const weight = weights(passages, q.terms);
  const terms = new Set(q.terms);
  const sentences = sentencesOf(passages, terms, weight);
  const total = q.terms.reduce((a, t) => a + weight(t), 0) || 1;
  const found = new Map<string, { value: string; score: number; best: number; hits: Sentence[] }>();
  // A noun phrase every page repeats ("the game", "the team") is what the pages are about, not an answer.
  const everywhere = passages.map((p) => keyOf(p.text)).join(' | ');
  const commonness = (key: string) => {
    let count = 0;
    for (let at = everywhere.indexOf(key); at >= 0 && count < 50; at = everywhere.indexOf(key, at + key.length)) count++;
    return 1 / (1 + 0.5 * Math.log(Math.max(1, count)));
  };
  for (const s of sentences) {
    const base = (s.overlap / total) / (1 + 0.15 * s.rank);
    const near = (candidate: string) => {
      // A question word within three words of the candidate ("directed by Michael Bay").
      const at = s.text.indexOf(candidate);
      if (at < 0) return false;
      const before = s.text.slice(0, at).split(/\s+/).slice(-4).join(' ');
      const after = s.text.slice(at + candidate.length).split(/\s+/).slice(0, 4).join(' ');
      return tokenize(`${before} ${after}`).some((t) => terms.has(t));
    };
    for (const candidate of candidatesIn(q.kind, s.text)) {
      if (!newToQuestion(candidate, terms) && q.kind !== 'year' && q.kind !== 'number') continue;
      if ((q.kind === 'year' || q.kind === 'number' || q.kind === 'date') && question.includes(candidate)) continue;
      const key = keyOf(candidate);
      if (!key) continue;
      const entry = found.get(key) ?? { value: candidate, score: 0, best: 0, hits: [] };
      if (entry.hits.includes(s)) continue;
      entry.hits.push(s);
      entry.best = Math.max(entry.best, base * (near(candidate) ? 1.5 : 1) * (q.kind === 'thing' ? commonness(key) : 1));
      // Agreement: each further sentence stating it adds a little.
      entry.score = entry.best + 0.25 * (entry.hits.length - 1) * entry.best;
      if (candidate.length > entry.value.length && keyOf(candidate) === key) entry.value = candidate;
      found.set(key, entry);
    }
  }
  const ranked = [...found.values()].sort((a, b) => b.score - a.score);
  const top = ranked[0];
  if (!top || top.best < 0.2) return null;
  const second = ranked[1]?.score ?? 0;
  const sources = new Set(top.hits.map((h) => h.source));
  const first = [...top.hits].sort((a, b) => b.overlap - a.overlap)[0]!;
  const clear = top.score >= 1.6 * second;
  // A name (person, place, organisation) can be checked against its kind; a bare number or date of
  // the right shape may still count the wrong thing: never more than medium.
  const named = q.kind === 'person' || q.kind === 'place' || q.kind === 'organisation';
  const confidence = named && clear && sources.size >= 2 && top.best >= 0.4 ? 'high' : clear || sources.size >= 2 ? 'medium' : 'low';
  const agreeing = top.hits.filter((h) => h.source !== first.source).map((h) => ({ source: h.source, quote: h.text }));
  return { value: top.value, confidence, source: first.source, quote: first.text, agreeing };
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
  const optionTerms = new Set([...tokenize(a), ...tokenize(b)]);
  const rest = question.filter((t) => !optionTerms.has(t));
  const sa = about(a, passages);
  const sb = about(b, passages);
  if (sa.length === 0 && sb.length === 0) return null;
  const compare = (pick: (s: Sentence[]) => { value: number; s: Sentence } | null, larger: boolean, confidence: ShortAnswer['confidence'] = 'medium'): ShortAnswer | null => {
    const va = pick(sa);
    const vb = pick(sb);
    if (!va || !vb || va.value === vb.value) return null;
    const aWins = larger ? va.value > vb.value : va.value < vb.value;
    const win = aWins ? va : vb;
    return { value: aWins ? a : b, confidence, source: win.s.source, quote: win.s.text, agreeing: [{ source: (aWins ? vb : va).s.source, quote: (aWins ? vb : va).s.text }] };
  };
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
    const number = (ss: Sentence[]) => {
      let best: { value: number; s: Sentence } | null = null;
      for (const s of ss) {
        for (const m of s.text.matchAll(/(\d[\d,]*(?:\.\d+)?)\s*(?:-|\s)?([a-z]+)?/gi)) {
          const n = Number(m[1]!.replace(/,/g, ''));
          if (!Number.isFinite(n) || /^(1[5-9]\d\d|20\d\d)$/.test(m[1]!)) continue;
          const near = unit ? tokenize(s.text.slice(m.index!, m.index! + 40)).includes(unit) : true;
          if (near && (!best || n > best.value)) best = { value: n, s };
        }
      }
      return best;
    };
    const settled = compare(number, wantsMore);
    if (settled) return settled;
  }
  // The question's own words around each option decide.
  const score = (ss: Sentence[]) => {
    let best: { value: number; s: Sentence } | null = null;
    for (const s of ss) {
      const seen = new Set(tokenize(s.text));
      const v = rest.filter((t) => seen.has(t)).length + s.overlap * 0.1;
      if (!best || v > best.value) best = { value: v, s };
    }
    return best;
  };
  const settled = compare(score, true);
  return settled && { ...settled, confidence: 'low' };
}

/** The pages a question names by their titles ("Are both Dogo Cubano and the Dutch Shepherd dog breeds?"). */
function namedPages(q: ShortQuestion, passages: ResearchPassage[]): ResearchPassage[] {
  const text = keyOf(q.text);
  const named = passages
    .map((p) => ({ p, name: keyOf(p.title.replace(/\s*\([^)]*\)$/, '')) }))
    .filter((n) => n.name.length >= 3 && ` ${text} `.includes(` ${n.name} `))
    .sort((a, b) => b.name.length - a.name.length || a.p.source - b.p.source);
  const out: Array<{ p: ResearchPassage; name: string }> = [];
  // The longest names first; a name inside one already taken ("Pizza" in "Papa John's Pizza") is not another page.
  for (const n of named) if (!out.some((o) => o.name.includes(n.name))) out.push(n);
  return out.map((o) => o.p);
}

/** Nationalities and countries a page's opening states (compromise's demonyms and places). */
function originOf(p: ResearchPassage): Set<string> {
  const opening = sentenceSpans(p.text).slice(0, 2).map((s) => s.text).join(' ');
  const doc = nlp(opening);
  return new Set([...(doc.match('#Demonym').out('array') as string[]), ...(doc.places().out('array') as string[])].map(keyOf));
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
    const oa = originOf(a);
    const ob = originOf(b);
    if (oa.size === 0 || ob.size === 0) return null;
    return answer([...oa].some((o) => ob.has(o)), 'medium');
  }
  if (/\b(?:same|similar|different)\b/i.test(q.text)) return null;
  const named = new Set([...tokenize(a.title), ...tokenize(b.title)]);
  const kind = q.terms.filter((t) => !named.has(t) && !/^(?:both|each|also)$/.test(t));
  if (kind.length === 0) return null;
  const holds = (p: ResearchPassage) => {
    const opening = new Set(tokenize(sentenceSpans(p.text).slice(0, 2).map((s) => s.text).join(' ')));
    return kind.filter((t) => opening.has(t)).length / kind.length;
  };
  const ha = holds(a);
  const hb = holds(b);
  // Both openings say it: as sure as the pages. One says it and the other does not: a "no" may
  // only mean the other page words it differently.
  if (ha >= 0.5 && hb >= 0.5) return answer(true, 'high');
  if (Math.min(ha, hb) === 0 && Math.max(ha, hb) >= 0.5) return answer(false, 'medium');
  return null;
}
