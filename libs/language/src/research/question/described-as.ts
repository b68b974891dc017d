/** Whether the passages describe a candidate as the noun a question asks for ("Quillmark is a … magazine"), or as a person. */
import { tokenize } from '@app/text';
import type { ResearchPassage } from '@app/research';
import { wordNet } from '../../lexicon/wordnet';
import { keyOf, subjectOf } from './names';
import { PERSON_NOUNS } from './words';

/** Words after a name that say what it is: "X is a …", "X was the …", "X, an …" (not "X, the …": "For the third season, the seeds…"). */
const DESCRIBES =
  /^(?:\s*,\s*(?:a|an|one of the)\s|\s+(?:is|was|are|were|became|remains)\s+(?:(?:a|an|the|one of the)\s+)?)/iu;
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
export function describedAs(
  noun: string,
  subtype: boolean,
  passages: ResearchPassage[],
  nounWord?: string,
): (candidate: string) => boolean {
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
    if (tokenize(candidate).length > 1 && (subtype || /^\p{Lu}/u.test(last)) && tokenize(last).at(-1) === noun)
      return true;
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
export function describedAsPerson(passages: ResearchPassage[]): (candidate: string) => boolean {
  const texts = passages.map((p) => p.text);
  return once((candidate) => {
    for (const { description } of mentions(candidate, texts))
      if (
        description
          ?.split(/\s+/)
          .slice(0, DESCRIPTION_WORDS)
          .some((w) => PERSON_NOUNS.test(w.replace(/[^\p{L}-]/gu, '')))
      )
        return true;
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
