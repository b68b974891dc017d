/**
 * Sentence splitting. Three rules on purpose, each matched to its use:
 *
 * - `sentenceSpans`: the language engines quote sentences verbatim, so a span keeps its offsets
 *   and text; breaks at list items and headings too.
 * - `sentenceRanges`: the local index cuts snippets from every hit, so the rule is the cheapest
 *   one (a mark and white space, or a line break) and only offsets are made.
 * - `sentences`: page excerpts are read by people, so abbreviations, initials and decimals do
 *   not end a sentence ("Dr. Smith met J. R. Jones at 3.5 km").
 */

export interface Span {
  start: number;
  end: number;
  text: string;
}

/**
 * Sentences as verbatim spans of `text`: a break after . ! ? … (and closing quotes) when the next
 * word starts upper-case or with a digit ("e.g. the" stays whole) and the full stop does not end
 * an initial or an abbreviation ("J. Corwin Halvard"), and at blank lines or line
 * starts that look like list items or headings. Surrounding whitespace is trimmed.
 */
export function sentenceSpans(text: string): Span[] {
  const spans: Span[] = [];
  const boundary =
    /(?<=[.!?…]["'”’)\]]*)\s+(?=["'“‘([]?[\p{Lu}\p{N}])|\n[ \t]*\n\s*|\n(?=[ \t]*(?:[-*•#>]|\d+[.)])\s)/gu;
  let from = 0;
  const push = (start: number, end: number) => {
    const raw = text.slice(start, end);
    const lead = raw.length - raw.trimStart().length;
    const trimmed = raw.trim();
    if (trimmed) spans.push({ start: start + lead, end: start + lead + trimmed.length, text: trimmed });
  };
  for (const m of text.matchAll(boundary)) {
    // Initials and abbreviations do not end a sentence: "J. Corwin Halvard", "Dr. Smith".
    if (text[m.index! - 1] === '.' && abbreviationBefore(text, from, m.index! - 1)) continue;
    push(from, m.index!);
    from = m.index! + m[0].length;
  }
  push(from, text.length);
  return spans;
}

/** Where a text's sentences (and lines) start and end: what snippets and listing entries are cut from. */
const SENTENCE_BREAK = /[.!?]\s+|\n+/g;

const NON_SPACE = /\S/g;

/** Whether text[start, end) holds anything but white space (no slice made). */
function blank(text: string, start: number, end: number): boolean {
  NON_SPACE.lastIndex = start;
  const m = NON_SPACE.exec(text);
  return m === null || m.index >= end;
}

/** The text's sentences as [start, end) offsets, blank ones left out. */
export function sentenceRanges(text: string): Array<[number, number]> {
  const spans: Array<[number, number]> = [];
  let start = 0;
  SENTENCE_BREAK.lastIndex = 0;
  for (let m = SENTENCE_BREAK.exec(text); m; m = SENTENCE_BREAK.exec(text)) {
    // A sentence keeps its closing mark; the white space after it is left out.
    const end = text.charCodeAt(m.index) === 10 ? m.index : m.index + 1;
    if (end > start && !blank(text, start, end)) spans.push([start, end]);
    start = m.index + m[0].length;
    if (m[0].length === 0) SENTENCE_BREAK.lastIndex++;
  }
  if (start < text.length && !blank(text, start, text.length)) spans.push([start, text.length]);
  return spans;
}

const ABBREVIATIONS = new Set([
  'mr',
  'mrs',
  'ms',
  'dr',
  'prof',
  'sr',
  'jr',
  'st',
  'vs',
  'etc',
  'inc',
  'ltd',
  'co',
  'corp',
  'no',
  'fig',
  'approx',
  'e.g',
  'i.e',
  'u.s',
  'cf',
  'al',
  'vol',
  'pp',
  'jan',
  'feb',
  'mar',
  'apr',
  'jun',
  'jul',
  'aug',
  'sep',
  'sept',
  'oct',
  'nov',
  'dec',
  'z.b',
  'bzw',
  'ca',
  'nr',
]);

/** The word ending at `end` (before its full stop) is an initial or a known abbreviation. */
function abbreviationBefore(text: string, from: number, end: number): boolean {
  const word = /([\p{L}.]+)$/u.exec(text.slice(Math.max(from, end - 12), end))?.[1]?.toLowerCase() ?? '';
  // An initial, a known abbreviation, or a run of initials ("R.K. Entertainment", "J.R.R. Tolkien").
  return ABBREVIATIONS.has(word) || /^(?:\p{L}\.)*\p{L}$/u.test(word);
}

/** Sentence ends: . ! ? (and CJK stops) followed by space and a capital, digit or quote; not after abbreviations or initials. */
export function sentences(p: string): string[] {
  const out: string[] = [];
  let start = 0;
  const re = /([.!?…]["'”’)\]]*)\s+(?=["'“‘([¿¡]?[\p{Lu}\p{N}])|([。！？])/gu;
  for (let m = re.exec(p); m; m = re.exec(p)) {
    const end = m.index + (m[1] ?? m[2]).length;
    if (m[1]?.startsWith('.') && abbreviationBefore(p, start, m.index)) continue;
    const s = p.slice(start, end).trim();
    if (s) out.push(s);
    start = end;
  }
  const rest = p.slice(start).trim();
  if (rest) out.push(rest);
  return out;
}
