/** Dates, years and periods as pages write them: the candidates of "when" and "what year". */
import { parseDates } from '../../../lazy-parsers';

/** A piece that is a date (chrono-node reads it, or most of it, as one): "26 March 2015", "the 2015 season" (not "Ballad for the Evening"). */
export const datePiece = (piece: string) => parseDates(piece).some((r) => r.text.length >= 0.5 * piece.length);

/** A year as pages write one without a word saying so (1500-2099): not a count. */
const PLAIN_YEAR = String.raw`1[5-9]\d\d|20\d\d`;
const ONLY_YEAR = new RegExp(`^(?:${PLAIN_YEAR})$`);
const PLAIN_YEARS = new RegExp(String.raw`\b(${PLAIN_YEAR})\b`, 'g');
export const isYear = (s: string) => ONLY_YEAR.test(s);

/**
 * An earlier year (1-1499) is a year only where its words say so: after "in", "since", "until",
 * "c." and the like ("in 1342", "c. 874"), or before an era ("300 BC", "AD 64" reads as "64"):
 * elsewhere "1200" is as often a count ("1200 men").
 */
const EARLY_YEAR = new RegExp(
  [
    // "in 1342", "since 874": three digits or four, and no plural noun after ("in 500 cities").
    String.raw`\b(?:in|since|until|till|by|from|between|before|after|year)\s+(?:the\s+year\s+)?([1-9]\d{2}|1[0-4]\d\d)\b(?![.,]\d|\s*(?:%|BC|BCE|B\.C\.)|\s+[a-z]+s\b)`,
    // "c. 64", "circa 64", "AD 64", "64 AD".
    String.raw`\b(?:circa|c\.|ca\.|AD|A\.D\.)\s*([1-9]\d{0,3})\b(?![.,]\d)`,
    String.raw`\b([1-9]\d{0,3})\s*(?:AD|CE|A\.D\.)\b`,
  ].join('|'),
  'gi',
);
/** A year before the era: "300 BC", "44 BCE". */
const BC_YEAR = /\b([1-9]\d{0,3})\s*(?:BC|BCE|B\.C\.)(?![\p{L}])/gu;
const ORDINAL_WORDS =
  'first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|eleventh|twelfth|thirteenth|fourteenth|fifteenth|sixteenth|seventeenth|eighteenth|nineteenth|twentieth|twenty-first';
const ORDINAL = `(?:\\d{1,2}(?:st|nd|rd|th)|${ORDINAL_WORDS})`;
/** A century or two ("the 10th century", "early 11th century", "10th and 11th centuries", "ninth century BC"), a decade ("1340s", "the 1920s"). */
const PERIOD = new RegExp(
  `\\b(?:(?:early|mid|late|mid-)[\\s-]?)?${ORDINAL}(?:[\\s-]century|(?:(?:\\s+(?:and|or|to)\\s+|\\s*[-–]\\s*)${ORDINAL}\\s+centuries))(?:\\s+(?:BC|BCE|AD|CE))?\\b|\\b\\d{3}0s\\b`,
  'gi',
);

/** Years a sentence writes: 1500-2099 as they stand, earlier ones where their words say so, years before the era with their era. */
export function yearsIn(text: string): string[] {
  // Years before the era first: where "c. 300 BC" is read twice, the one with its era is kept.
  const out: Array<{ at: number; year: string }> = [...text.matchAll(BC_YEAR)].map((m) => ({
    at: m.index!,
    year: m[0],
  }));
  for (const m of text.matchAll(PLAIN_YEARS)) out.push({ at: m.index!, year: m[1]! });
  for (const m of text.matchAll(EARLY_YEAR)) {
    const year = m[1] ?? m[2] ?? m[3]!;
    if (isYear(year)) continue;
    const at = m.index! + m[0].indexOf(year);
    out.push({ at, year });
    // The other end of a range, no earlier than its start: "from 1311 to 1314", "1311-1314".
    const end = /^\s*(?:to|-|–)\s*([1-9]\d{0,3})\b(?!\s*(?:BC|BCE|B\.C\.))/.exec(text.slice(at + year.length));
    if (end && !isYear(end[1]!) && Number(end[1]) > Number(year))
      out.push({ at: at + year.length + end[0].indexOf(end[1]!), year: end[1]! });
  }
  const seen = new Set<number>();
  return out
    .sort((a, b) => a.at - b.at)
    .filter((y) => !seen.has(y.at) && seen.add(y.at))
    .map((y) => y.year);
}

/** Centuries and decades a sentence writes. */
export const periodsIn = (text: string): string[] => [...text.matchAll(PERIOD)].map((m) => m[0]);

/** Dates a sentence writes (chrono-node's, with a year or a month), else its years; and its centuries and decades. */
export function datesIn(text: string): string[] {
  const dates = parseDates(text)
    .filter((r) => r.start.isCertain('year') || r.start.isCertain('month'))
    .map((r) => r.text.replace(/^(?:on|in|at|by|from)\s+/i, ''));
  const periods = periodsIn(text).filter((p) => !dates.some((d) => d.includes(p) || p.includes(d)));
  return [...(dates.length ? dates : yearsIn(text)), ...periods];
}
