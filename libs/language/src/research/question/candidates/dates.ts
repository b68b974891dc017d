/** Dates and years as pages write them: the candidates of "when" and "what year". */
import * as chrono from 'chrono-node';

/** A piece that is a date (chrono-node reads it, or most of it, as one): "26 March 2015", "the 2015 season" (not "Ballad for the Evening"). */
export const datePiece = (piece: string) => chrono.parse(piece).some((r) => r.text.length >= 0.5 * piece.length);

/** A year as pages write one (1500-2099): not a count. */
export const isYear = (s: string) => /^(?:1[5-9]\d\d|20\d\d)$/.test(s);
export const yearsIn = (text: string) => [...text.matchAll(/\b(1[5-9]\d\d|20\d\d)\b/g)].map((m) => m[1]!);

/** Dates a sentence writes (chrono-node's, with a year or a month), else its years. */
export function datesIn(text: string): string[] {
  const dates = chrono
    .parse(text)
    .filter((r) => r.start.isCertain('year') || r.start.isCertain('month'))
    .map((r) => r.text);
  return dates.length ? dates : yearsIn(text);
}
