/**
 * Word lists of the short path: the nouns that name a kind of answer, the comparatives a choice is
 * settled by, names of grounds and events. The words themselves are data, with their source:
 * lexicon/answer-words.json; this file only makes them patterns.
 */
import { wordNet } from '../../lexicon/wordnet';
import lexicon from '../../lexicon/answer-words.json';

interface WordList {
  words: string[];
  plural?: boolean;
  caseSensitive?: boolean;
}
const escape = (w: string) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const alternation = (list: WordList) => list.words.map(escape).join('|');
/** The whole string is one word of the list (or its plural, for a `plural` list). */
const wholeWord = (list: WordList) =>
  new RegExp(`^(?:${alternation(list)})${list.plural ? 's?' : ''}$`, list.caseSensitive ? '' : 'i');
/** A word of the list stands in the text. */
const inText = (list: WordList, flags = 'i') => new RegExp(`\\b(?:${alternation(list)})\\b`, flags);
const L = lexicon as unknown as Record<string, WordList>;

export const PERSON_NOUNS = wholeWord(L.person_nouns!);
/**
 * A noun for a person: one of the list, or (written lower case, a name being no role) one that
 * WordNet first reads as a kind of person ("physicist", "violinist", "astronaut"; see isKindOf).
 */
export const personNoun = (word: string) =>
  PERSON_NOUNS.test(word) ||
  (/^\p{Ll}[\p{Ll}-]{2,}$/u.test(word) && (wordNet()?.isKindOf(word, 'person', true) ?? false));
export const PLACE_NOUNS = wholeWord(L.place_nouns!);
export const ORG_NOUNS = wholeWord(L.organisation_nouns!);
/** Comparatives a choice is settled by: the larger number or the later date wins. */
export const MORE = inText(L.more!);
export const LESS = inText(L.less!);
export const DATE_COMPARE = inText(L.date_compare!);
/**
 * Last words of names of buildings and grounds, and of events: "Milo's Stadium", "Harvest Cup XIX";
 * a dome may close a compound ("Kessadome").
 */
export const GROUNDS = new RegExp(`(?:\\b(?:${alternation(L.grounds!)})|\\Bdome)$`, 'u');
const INSTITUTION = new RegExp(`\\b(?:${alternation(L.institutions!)})$`, 'u');
export const FACILITY = (name: string) => GROUNDS.test(name) || INSTITUTION.test(name);
export const EVENT = new RegExp(`\\b(?:${alternation(L.events!)})(?:\\s+(?:[IVXLC]+|\\d{4}))?$`, 'u');
/** Nouns asking for a settlement or a region, and for a building or ground. */
export const SETTLEMENTS = wholeWord(L.settlements!);
/** A question asking what two named things have in common. */
export const SHARED = inText(L.shared!);
/** Nouns asking for a role or a position ("what position does he play"). */
export const ROLE_ASKED = wholeWord(L.role_asked!);
export const COLOURS = inText(L.colours!, 'gi');
export const NATIONALITY_ASKED = wholeWord(L.nationality_asked!);
/** Words for anyone at all: no role. */
export const ANYONE = wholeWord(L.anyone!);
export const VENUES = wholeWord(L.venues!);

/** Names of grounds, schools, hotels, events and prizes: never the answer to "who". */
export const notWho = (name: string) => FACILITY(name) || EVENT.test(name);

const OPENERS = new Set(L.phrase_openers!.words);
const CLOSERS = new Set(L.phrase_closers!.words);
const bare = (word: string) => word.toLowerCase().replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, '');

/**
 * A phrase without the words that open a clause before it or leave it unfinished after it: no
 * answer begins with "however" or "since", nor ends on "that", "of" or "the" ("Tarn lattice
 * that" is "Tarn lattice"). Empty when nothing else is left.
 */
export function phraseCore(phrase: string): string {
  const words = phrase.split(/\s+/).filter(Boolean);
  let first = 0;
  let last = words.length;
  while (first < last && OPENERS.has(bare(words[first]!))) first++;
  while (last > first && CLOSERS.has(bare(words[last - 1]!))) last--;
  return words.slice(first, last).join(' ');
}

/** A text's words, lower case, in order, stop words kept (at most 400: a sentence, a question). */
export const plainWords = (text: string): string[] => (text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).slice(0, 400);
