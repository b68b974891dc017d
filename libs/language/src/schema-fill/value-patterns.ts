/**
 * What a field asks for, read from its name, description and JSON Schema type, and the patterns
 * that find a value of that kind in a sentence. Deterministic; English-first.
 */
export type ValueKind =
  'year' | 'date' | 'money' | 'percent' | 'number' | 'person' | 'place' | 'organisation' | 'boolean' | 'text';

const has = (words: string, pattern: RegExp) => pattern.test(words);

const YEAR_WORDS = /\b(year|founded|established|incorporated|since|born|launched|started)\b/;
const PERCENT_WORDS = /\b(percent|percentage|pct|growth|rate|share)\b|%/;
const MONEY_WORDS =
  /\b(revenue|income|loss|profit|price|cost|cash|dividend|sales|funding|valuation|amount|earnings|salary|budget|capital|turnover)\b/;
const PERSON_WORDS =
  /\b(ceo|cto|cfo|founder|founders|chief|president|director|author|authors|person|manager|leader|head|chair|chairman|chairwoman|owner|who)\b/;
const PLACE_WORDS =
  /\b(city|country|headquarters|headquartered|hq|location|located|based|place|address|where|town|region|lives)\b/;
const ORG_WORDS =
  /\b(university|company|employer|organisation|organization|school|institution|institute|college|works|employer|firm|publisher|parent)\b/;

/** Words of a field: its name split at `_`, `-` and camelCase, and its description. */
export const fieldWords = (name: string, description: string): string =>
  `${name.replace(/([a-z])([A-Z])/g, '$1 $2').replace(/[_-]+/g, ' ')} ${description}`.toLowerCase();

export function valueKind(name: string, schema: Record<string, unknown>): ValueKind {
  const words = fieldWords(name, typeof schema.description === 'string' ? schema.description : '');
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
  if (type === 'boolean') return 'boolean';
  if (type === 'integer' || type === 'number') {
    if (has(words, YEAR_WORDS) && !has(words, /\b(number|count|how many|employees|people)\b/)) return 'year';
    if (has(words, PERCENT_WORDS)) return 'percent';
    return 'number';
  }
  if (schema.format === 'date' || schema.format === 'date-time' || has(words, /\bdate\b/)) return 'date';
  if (has(words, MONEY_WORDS)) return 'money';
  if (has(words, PERCENT_WORDS)) return 'percent';
  if (has(words, /\byear\b/) && !has(words, /\byears\b/)) return 'year';
  if (has(words, PERSON_WORDS)) return 'person';
  if (has(words, /\b(university|college|school|institute|institution)\b/)) return 'organisation';
  if (has(words, PLACE_WORDS)) return 'place';
  if (has(words, ORG_WORDS)) return 'organisation';
  return 'text';
}

/** A value found in a sentence: its verbatim text, where it sits, and its typed form. */
export interface FoundValue {
  text: string;
  index: number;
  value: string | number | boolean;
}

const NUMBER_WORDS: Record<string, number> = {
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
  eleven: 11,
  twelve: 12,
  thirteen: 13,
  fourteen: 14,
  fifteen: 15,
  sixteen: 16,
  seventeen: 17,
  eighteen: 18,
  nineteen: 19,
  twenty: 20,
  thirty: 30,
  forty: 40,
  fifty: 50,
  hundred: 100,
};

const all = (pattern: RegExp, text: string): RegExpExecArray[] => [
  ...text.matchAll(new RegExp(pattern.source, pattern.flags.includes('g') ? pattern.flags : `${pattern.flags}g`)),
];

const MONEY =
  /(?:(?:US)?\$|€|£|\b(?:EUR|USD|GBP|CHF|JPY)\s?)\d[\d,]*(?:\.\d+)?(?:\s?(?:million|billion|thousand|trillion|bn|m|k)\b)?|\b\d[\d,]*(?:\.\d+)?\s?(?:million|billion|thousand)\s(?:dollars|euros|pounds|USD|EUR)\b/u;
const PERCENT = /\b(\d+(?:\.\d+)?)\s?(?:%|percent\b|per cent\b)/u;
const YEAR = /\b(1[5-9]\d\d|20\d\d)\b/u;
const ISO_DATE = /\b(1[5-9]\d\d|20\d\d)-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])\b/u;
const MONTHS = 'January|February|March|April|May|June|July|August|September|October|November|December';
const WRITTEN_DATE = new RegExp(
  `\\b(?:\\d{1,2}\\s+(?:${MONTHS})|(?:${MONTHS})\\s+\\d{1,2},?)\\s+(1[5-9]\\d\\d|20\\d\\d)\\b`,
  'u',
);
const NUMBER = /(?<![\w.$€£])\d{1,3}(?:,\d{3})+(?:\.\d+)?(?![\w%])|(?<![\w.$€£,])\d+(?:\.\d+)?(?![\w%]|,\d{3})/u;
// A name never runs across a line break (a list of headlines is not one long name).
const CAPITALISED =
  /\b\p{Lu}[\p{L}\p{N}'’.-]*(?:[ \t]+(?:of|de|da|van|von|im|am|del|la|le|for)?[ \t]*\p{Lu}[\p{L}\p{N}'’.-]*){0,5}/gu;

/** Capitalised words that are roles, titles or sentence furniture, never a name. */
const NOT_A_NAME = new Set(
  'The This That These Those Our Their His Her Its We I He She They It A An In On At By For From With Since Before After Under Today Chief Executive Officer Technology Financial Operating President Director Head Founder Co-founder Professor Dr Mr Ms Mrs Inc Ltd LLC SE AG GmbH Company Corporation Annual Report Fiscal Year Q1 Q2 Q3 Q4 January February March April May June July August September October November December Monday Tuesday Wednesday Thursday Friday Saturday Sunday PhD MBA CEO CTO CFO Abstract PDF'.split(
    ' ',
  ),
);

const withoutEntity = (phrase: string, entity: Set<string>) =>
  phrase
    .split(/\s+/)
    .filter((word) => !entity.has(word.toLowerCase().replace(/[^\p{L}\p{N}]/gu, '')))
    .join(' ');

function capitalisedPhrases(text: string, entity: Set<string>, minWords: number, maxWords: number): FoundValue[] {
  const out: FoundValue[] = [];
  for (const match of text.matchAll(CAPITALISED)) {
    const words = match[0].split(/\s+/).filter((w) => !NOT_A_NAME.has(w.replace(/[.,]$/, '')));
    // "Harborview's city archive": a possessive names what follows, not itself.
    if (/['’]s$/.test(match[0])) continue;
    const phrase = withoutEntity(words.join(' '), entity).replace(/[.,'’]+$/, '');
    const count = phrase ? phrase.split(/\s+/).length : 0;
    if (count < minWords || count > maxWords) continue;
    const index = match.index! + match[0].indexOf(phrase.split(/\s+/)[0]!);
    out.push({ text: phrase, index, value: phrase });
  }
  return out;
}

/** Every value of `kind` in `text` (the caller picks the one nearest the field's words). */
export function valuesOfKind(kind: ValueKind, text: string, entity: Set<string>): FoundValue[] {
  switch (kind) {
    case 'money':
      return all(MONEY, text).map((m) => ({ text: m[0].trim(), index: m.index!, value: m[0].trim() }));
    case 'percent':
      return all(PERCENT, text).map((m) => ({ text: m[0], index: m.index!, value: Number(m[1]) }));
    case 'year':
      return all(YEAR, text)
        .filter((m) => !/[\d,.]/.test(text[m.index! - 1] ?? '') && !/^\d/.test(text.slice(m.index! + 4, m.index! + 5)))
        .map((m) => ({ text: m[0], index: m.index!, value: Number(m[1]) }));
    case 'date': {
      const iso = all(ISO_DATE, text).map((m) => ({ text: m[0], index: m.index!, value: m[0] }));
      const written = all(WRITTEN_DATE, text).map((m) => ({ text: m[0], index: m.index!, value: m[0] }));
      return [...iso, ...written];
    }
    case 'number': {
      const digits = all(NUMBER, text)
        // A year or a money amount is not a count.
        .filter((m) => !YEAR.test(m[0]) || m[0].length !== 4)
        .map((m) => ({ text: m[0], index: m.index!, value: Number(m[0].replace(/,/g, '')) }));
      const words = all(new RegExp(`\\b(${Object.keys(NUMBER_WORDS).join('|')})\\b`, 'i'), text).map((m) => ({
        text: m[0],
        index: m.index!,
        value: NUMBER_WORDS[m[1]!.toLowerCase()]!,
      }));
      return [...digits, ...words];
    }
    case 'person':
      return capitalisedPhrases(text, entity, 2, 3);
    case 'organisation':
      return capitalisedPhrases(text, entity, 1, 6);
    case 'place': {
      // "…moved its headquarters to Orvik", "relocated to Orvik": where it is now.
      const led = [
        ...text.matchAll(
          /\b(?:in|at|near|from|based in|headquartered in|remain in|(?:headquarters|head office|base) to|(?:relocated|moved) to)[ \t]+(\p{Lu}[\p{L}'’-]*(?:[ \t]+(?:im|am|de|del|upon|on)?[ \t]*\p{Lu}[\p{L}'’-]*){0,2})/gu,
        ),
      ];
      return led
        .map((m) => ({
          phrase: withoutEntity(
            m[1]!
              .split(/\s+/)
              .filter((w) => !NOT_A_NAME.has(w))
              .join(' '),
            entity,
          ),
          m,
        }))
        .filter(({ phrase, m }) => phrase.length > 1 && !/['’]s$/.test(m[1]!))
        .map(({ phrase, m }) => ({ text: phrase, index: m.index! + m[0].indexOf(phrase), value: phrase }));
    }
    case 'boolean':
    case 'text':
      return [];
  }
}
