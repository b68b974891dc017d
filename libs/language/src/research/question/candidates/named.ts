/** Names of people, places and organisations in a sentence (compromise's, and runs of capitalised words): the candidates of "who", "where" and "which team". */
import { tagged } from './tagged';
import type { ShortKind } from '../short-question';
import { capitalisedRuns, quotedTitles, trimEnds } from '../names';
import { EVENT, FACILITY, notWho, PERSON_NOUNS, personNoun, SETTLEMENTS, VENUES } from '../words';
import type { CandidateCues } from './cues';
import { KIND_FIT, NOT_OF_KIND } from './fit';
import { nlp } from '../../../lazy-parsers';

/** Names of `kind` in a sentence, as written, each weighed by how compromise sees it there. */
export function namesIn(
  kind: ShortKind,
  text: string,
  cues: CandidateCues,
  script: (c: string) => boolean,
): Array<{ text: string; fit: number; person?: boolean }> {
  const doc = tagged(text);
  const people = (doc.people().out('array') as string[]).map(trimEnds);
  const places = (doc.places().out('array') as string[]).map(trimEnds);
  const organisations = (doc.organizations().out('array') as string[]).map(trimEnds);
  // "Who" is as often a team, a band or a broadcaster as a person.
  const typed =
    kind === 'person'
      ? [...people, ...organisations]
      : kind === 'place'
        ? places
        : kind === 'organisation'
          ? organisations
          : [];
  // "Ned Brask of Copper Lanterns": for "who", two names of two words or more each are two
  // candidates ("Bank of Varden", "Duke of York" stay whole).
  const split = (c: string) => {
    const sides = c.split(/\s+of\s+/);
    return kind === 'person' && sides.length === 2 && sides.every((side) => side.split(/\s+/).length >= 2)
      ? sides
      : [c];
  };
  const runs = capitalisedRuns(text).flatMap(split);
  const proper = [...(doc.match('#ProperNoun+ (of|the|de)? #ProperNoun*').out('array') as string[]), ...runs];
  // A list ("Ned Brask of Copper Lanterns and Ilse Marnow") is several candidates; a bracket ends one.
  // "Hobb & Sons", "Kestrel & Loaf" stay one name.
  const pieces = [...typed, ...proper].flatMap((c) => c.split(/\s*(?:,|\band\b|\(|\))\s*/)).flatMap(split);
  const named = new Set(
    pieces
      .map((c) => trimEnds(c).replace(/['’]s$/u, ''))
      .filter((c) => c.length >= 2 && /\p{Lu}|\d/u.test(c) && script(c)),
  );
  // Words the sentence's own tagging reads as names: "Brenvold" in "under their leader Brenvold"
  // is one there, though alone it reads as a common noun. A plural ("the Otters") names a team or
  // a people, not one person.
  let properHere: Set<string> | undefined;
  const properInSentence = (c: string) =>
    (properHere ??= new Set(
      (doc.match('#ProperNoun').not('(#Demonym|#Month|#WeekDay)').out('array') as string[]).map((w) =>
        trimEnds(w).replace(/['’]s$/u, ''),
      ),
    )).has(c);
  const names = [...named].filter((c) => {
    const tags = nlp(c);
    // A nationality, a month or a weekday is capitalised but names no one ("American", "September").
    if (!/\s/.test(c) && tags.has('(#Demonym|#Month|#WeekDay)')) return false;
    // For "who", "Only" opening a sentence or a numeral is capitalised, not a name.
    return kind !== 'person' || tags.has('(#ProperNoun|#Person)') || (properInSentence(c) && !/[^s]s$/.test(c));
  });
  // A name inside a longer run of capitalised words is that run ("Marlowe Pinter" in "J. Marlowe
  // Pinter"); the run is of every kind compromise saw its parts as.
  const wholes = new Map<string, string[]>();
  for (const name of names) {
    const whole = runs.find((r) => r !== name && ` ${r} `.includes(` ${name} `)) ?? name;
    wholes.set(whole, [...(wholes.get(whole) ?? []), name]);
  }
  const out: Array<{ text: string; fit: number; person?: boolean }> = [];
  const { askedWord } = cues;
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
    const placed =
      kind === 'place' &&
      !isPerson &&
      text
        .split(/(?:\s+|^)(?:in|near|from)\s+(?:the\s+)?/)
        .slice(1)
        .some((after) => after.startsWith(whole));
    out.push({
      text: whole,
      fit: placed ? KIND_FIT : kindFit(kind, isPerson, isPlace, isOrganisation),
      ...(isPerson ? { person: true } : {}),
    });
  }
  return cues.several ? [...out, ...listsOf(text, out)] : out;
}

type Named = { text: string; fit: number; person?: boolean };

/**
 * For a question asking for several ("who were the two abbots"), names a sentence lists together
 * are also one candidate, as written: "Ilse Marnow and Dorin Vasch", "Tarn, Varden and Orvik".
 */
function listsOf(text: string, names: Named[]): Named[] {
  const lists: Named[] = [];
  for (const first of names) {
    const at = text.indexOf(first.text);
    if (at < 0) continue;
    const members = [first];
    let end = at + first.text.length;
    for (;;) {
      const gap = /^(?:,\s+and\s+|\s+and\s+|,\s*)/.exec(text.slice(end));
      const next = gap ? names.find((n) => text.startsWith(n.text, end + gap[0].length)) : undefined;
      if (!gap || !next || members.includes(next)) break;
      members.push(next);
      end += gap[0].length + next.text.length;
      if (!gap[0].includes('and')) continue;
      lists.push({
        text: text.slice(at, end),
        fit: Math.min(...members.map((m) => m.fit)),
        ...(members.every((m) => m.person) ? { person: true } : {}),
      });
      break;
    }
  }
  return lists;
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

/** What compromise sees a name as in its sentence weighs it: for "who", a person or a team before a place. */
function kindFit(kind: ShortKind, isPerson: boolean, isPlace: boolean, isOrganisation: boolean): number {
  if (kind === 'person') return isPerson || isOrganisation ? KIND_FIT : isPlace ? 1 / KIND_FIT : 1;
  if (kind === 'place') return isPlace ? KIND_FIT : 1;
  if (kind === 'organisation') return isOrganisation ? KIND_FIT : 1;
  return 1;
}
