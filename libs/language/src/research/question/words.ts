/** Word lists of the short path: the nouns that name a kind of answer, the comparatives a choice is settled by, names of grounds and events. */
import { wordNet } from '../../lexicon/wordnet';

export const PERSON_NOUNS =
  /^(?:person|man|woman|actor|actress|director|author|writer|singer|songwriter|player|footballer|midfielder|striker|goalkeeper|coach|politician|president|king|queen|artist|musician|producer|composer|poet|novelist|scientist|executioner|pioneer|founder|member|character|father|mother|son|daughter|wife|husband|leader|governor|senator|rapper|drummer|guitarist|comedian|journalist|painter|architect|designer|engineer|inventor|explorer|emperor|pope|saint|chef|athlete|boxer|wrestler|quarterback|manager|owner|ceo|host|presenter|star|statesman|linebacker|receiver|kicker|pitcher|captain|commissioner|chairman|chairwoman|officer|minister|mayor|judge|lawyer|doctor|teacher|professor|student|brother|sister|uncle|aunt|nephew|niece|grandson|granddaughter|heir|successor|predecessor|winner|runner-up|champion|mvp)s?$/i;
/**
 * A noun for a person: one of the list, or (written lower case, a name being no role) one that
 * WordNet first reads as a kind of person ("physicist", "violinist", "astronaut"; see isKindOf).
 */
export const personNoun = (word: string) => PERSON_NOUNS.test(word) || (/^\p{Ll}[\p{Ll}-]{2,}$/u.test(word) && (wordNet()?.isKindOf(word, 'person', true) ?? false));
export const PLACE_NOUNS = /^(?:city|town|village|country|state|province|county|region|area|place|island|river|mountain|lake|nation|capital|district|neighborhood|neighbourhood|location|continent|stadium|venue|park|arena|street|sea|ocean|coast)s?$/i;
export const ORG_NOUNS = /^(?:company|firm|band|group|team|club|university|college|school|organization|organisation|label|magazine|newspaper|network|channel|station|party|agency|brand|corporation|studio|publisher|airline|conference|league)s?$/i;
/** Comparatives a choice is settled by: the larger number or the later date wins. */
export const MORE = /\b(?:more|most|larger|largest|bigger|biggest|higher|highest|taller|tallest|longer|longest|greater|greatest|later|latest|younger|youngest|newer|newest|recent)\b/i;
export const LESS = /\b(?:fewer|less|least|smaller|smallest|lower|lowest|shorter|shortest|first|earlier|earliest|older|oldest)\b/i;
export const DATE_COMPARE = /\b(?:born|older|younger|first|earlier|later|founded|formed|established|released|published|opened|died|oldest|youngest|newer|newest)\b/i;
/**
 * Last words of names of buildings and grounds, and of events: "Milo's Stadium", "Harvest Cup XIX";
 * a dome may close a compound ("Kessadome").
 */
export const GROUNDS = /(?:\b(?:Stadium|Field|Park|Arena|Center|Centre|Dome|Hall|Airport|Plaza|Square|Street|Avenue|Bridge|Theatre|Theater|Museum)|\Bdome)$/u;
export const FACILITY = (name: string) => GROUNDS.test(name) || /\b(?:University|College|School|Hotel)$/u.test(name);
export const EVENT = /\b(?:Bowl|Cup|Trophy|Award|Awards|Prize|Championship|Tournament|Games|Series|Season|Olympics)(?:\s+(?:[IVXLC]+|\d{4}))?$/u;
/** Nouns asking for a settlement or a region, and for a building or ground. */
export const SETTLEMENTS = /^(?:city|cities|town|towns|village|country|countries|state|states|province|county|region|capital|nation)$/i;
/** A question asking what two named things have in common. */
export const SHARED = /\b(?:share|shared|in common|both have|both had)\b/i;
/** Nouns asking for a role or a position ("what position does he play"). */
export const ROLE_ASKED = /^(?:position|positions|role|roles|job|jobs|occupation|occupations|profession|professions|post)$/i;
export const COLOURS = /\b(?:white|black|red|blue|green|yellow|orange|purple|violet|pink|brown|gr[ae]y|gold|silver|bronze|navy|teal|maroon|crimson|scarlet|beige|turquoise|cyan|magenta)\b/gi;
export const NATIONALITY_ASKED = /^(?:nationality|nationalities|citizenship)$/i;
/** Words for anyone at all: no role. */
export const ANYONE = /^(?:person|man|woman|player|member|star|people)s?$/i;
export const VENUES = /^(?:venue|venues|stadium|stadiums|arena|ground|hotel|building|facility|campus)$/i;

/** Names of grounds, schools, hotels, events and prizes: never the answer to "who". */
export const notWho = (name: string) => FACILITY(name) || EVENT.test(name);
