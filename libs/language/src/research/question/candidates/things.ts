/** Things a noun names: the candidates of "what"/"which" that ask for no person, place, date or number (noun phrases, names, quoted titles, a role, a nationality, a colour). */
import { tagged } from './tagged';
import { tokenize } from '@app/text';
import { capitalisedRuns, quotedTitles, trimEnds } from '../names';
import { ANYONE, COLOURS, NATIONALITY_ASKED, PERSON_NOUNS, phraseCore, ROLE_ASKED } from '../words';
import type { CandidateCues } from './cues';
import { datePiece } from './dates';
import { type Candidate, KIND_FIT, NOUN_FIT } from './fit';
import { BARE_NUMBER } from './numbers';

/** Determiners (and a stray "of", "and", "or") a noun chunk opens with: not part of the thing it names. */
const DETERMINERS = /^(?:(?:the|a|an|its|their|his|her|this|that|these|those|of|and|or)\s+)+/i;

/** Things of the kind a question's noun names in a sentence, as written. */
export function thingsIn(
  text: string,
  questionTerms: Set<string>,
  cues: CandidateCues,
  script: (c: string) => boolean,
): Candidate[] {
  const { askedWord } = cues;
  const doc = tagged(text);
  // "What position does he play?", "what profession…": the role words the sentence holds ("linebacker").
  if (askedWord !== null && ROLE_ASKED.test(askedWord))
    return [...text.matchAll(/[\p{L}-]+/gu)]
      .map((m) => m[0])
      .filter((w) => PERSON_NOUNS.test(w) && !ANYONE.test(w) && !questionTerms.has(tokenize(w)[0] ?? ''))
      .map((w) => ({ text: w, fit: KIND_FIT }));
  // "What nationality": the nationalities the sentence names ("an Australian film director").
  if (askedWord !== null && NATIONALITY_ASKED.test(askedWord))
    return (doc.match('#Demonym').out('array') as string[]).map((d) => ({ text: trimEnds(d), fit: KIND_FIT }));
  // "What colour": the colours it names (a closed class of words; compromise tags none).
  if (cues.colour)
    return [...new Set(text.match(COLOURS) ?? [])]
      .filter((c) => !questionTerms.has(tokenize(c)[0] ?? ''))
      .map((c) => ({ text: c, fit: KIND_FIT }));
  // compromise's noun chunks, cut where the question's own words stand ("the ABL champion
  // Kessa Otters" for a question about the ABL: "champion Kessa Otters"), at brackets,
  // commas and prepositions other than "of" ("victory in extra time": "victory", "extra time";
  // "replica of the Marrow Point Bridge" stays one), without their
  // determiners: "the golden anniversary" -> "golden anniversary".
  const chunks = (
    doc.chunks().json() as Array<{ text: string; terms: Array<{ text: string; chunk?: string; tags?: string[] }> }>
  ).filter((c) => c.terms[0]?.chunk === 'Noun');
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
  // A title quoted whole is kept as written; any other piece loses the words that open a clause
  // before it or leave it unfinished ("However", "… that").
  const cleaned = pieces.map((c) => {
    const piece = trimEnds(c.replace(/[()]/g, ' ').trim()).replace(DETERMINERS, '');
    return quoted.includes(c) ? piece : trimEnds(phraseCore(piece)).replace(DETERMINERS, '');
  });
  // A date or a bare number is not a thing a noun names.
  const things = [
    ...new Set(
      cleaned.filter(
        (c) =>
          c.length >= 2 &&
          c.split(/\s+/).length <= 6 &&
          /\p{L}/u.test(c) &&
          !BARE_NUMBER.test(c) &&
          script(c) &&
          !datePiece(c),
      ),
    ),
  ];
  // "What talk show…", "which hotel…": one of a kind, which pages name; a name of more than one
  // plain word ("Port Kessa Lodge", "XLV") before a common noun phrase. (A lone capitalised
  // word may only open its sentence.)
  const member = cues.member;
  // A numeral left of a name cut at the question's words stands for that name: "XCII" of
  // "Harvest Cup XCII" is scored where it stands, and answers as "Harvest Cup XCII".
  const wholeOf = (c: string) => (/^(?:[IVXLC]+|\d+)$/.test(c) ? runs.find((r) => r.endsWith(` ${c}`)) : undefined);
  // "Which World Cup…?": one of the series the question names, told apart by a year, an ordinal
  // or a numeral ("the 1974 World Cup", "Harvest Cup LXI"), is of the kind asked twice over.
  const series = cues.series;
  const ofSeries = (c: string) => {
    if (!series) return false;
    const at = c.indexOf(series);
    if (at < 0) return false;
    const rest = `${c.slice(0, at)} ${c.slice(at + series.length)}`.trim();
    return /^(?:\d{4}|\d+(?:st|nd|rd|th)|[IVXLC]+|\d+)$/.test(rest);
  };
  const instances = series
    ? [
        ...text.matchAll(
          new RegExp(`\\b(?:\\d{4}|\\d+(?:st|nd|rd|th))\\s+${series.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\b`, 'gu'),
        ),
      ].map((m) => m[0])
    : [];
  return [...new Set([...things, ...instances])].map((text) => {
    const whole = wholeOf(text);
    const fit = ofSeries(whole ?? text)
      ? KIND_FIT * NOUN_FIT
      : (member && /^\p{Lu}/u.test(text) && !/^\p{Lu}\p{Ll}+$/u.test(text)) || quoted.includes(text)
        ? KIND_FIT
        : 1;
    return { text, fit, ...(whole ? { whole } : {}) };
  });
}
