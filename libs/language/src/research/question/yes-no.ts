/** Yes or no, for two pages the question names: the same nationality, or both of a kind, as each page's opening says. */
import { nlp } from '../../lazy-parsers';
import { sentenceSpans, tokenize } from '@app/text';
import type { ResearchPassage } from '@app/research';
import { wordNet } from '../../lexicon/wordnet';
import { keyOf, namedPages, trimEnds } from './names';
import type { ShortAnswer, ShortQuestion } from './short-question';

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
    origins.set(
      p,
      (found = {
        demonyms: doc.match('#Demonym').out('array') as string[],
        places: doc.places().out('array') as string[],
      }),
    );
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
export function yesNo(q: ShortQuestion, passages: ResearchPassage[]): ShortAnswer | null {
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
  const named = counts([
    ...tokenize(a.title.replace(/\s*\([^)]*\)$/, '')),
    ...tokenize(b.title.replace(/\s*\([^)]*\)$/, '')),
  ]);
  const asked = counts(tokenize(q.text));
  // What they are is said by nouns and adjectives; the question's verbs frame it ("described as a genus").
  const verbs = new Set(tokenize((nlp(q.text).match('#Verb').out('array') as string[]).join(' ')));
  let kind = q.terms.filter(
    (t) => (asked.get(t) ?? 0) > (named.get(t) ?? 0) && !verbs.has(t) && !/^(?:both|each|also)$/.test(t),
  );
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
