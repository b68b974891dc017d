/**
 * The citation grammar of research reports, shared by both research models (which write or
 * repair reports) and by the pipeline (which checks them). A citation is `[N]` or `[N, M]`; a
 * claim sentence is any sentence of the report body that is not a heading, not an explicit gap
 * note ("No source answered: …") and not in the `## Sources` list. Part of the pipeline library,
 * beside the ResearchModel port: the implementations in `@app/language` import both from here.
 */

/** `[3]`, `[1, 4]`; not `[1](url)` (a markdown link whose text is a number). */
const MARK = /\[(\d+(?:\s*,\s*\d+)*)\](?!\()/g;
/** Sentence end: punctuation, closing quotes, then the citations that belong to that sentence. */
const CLAIM_BOUNDARY = /(?<=[.!?…]["'”’)\]]*(?:\s*\[\d+(?:\s*,\s*\d+)*\])*)\s+(?=["'“‘(]?[\p{Lu}\p{N}])/gu;
const HEADING = /^#{1,6}\s/;
const SOURCES_HEADING = /^##\s+Sources\s*$/i;
export const GAP_NOTE = 'No source answered:';
const LIST_MARKER = /^(?:[-*+>]|\d+[.)])\s+/;

/** Every source index cited anywhere in the report (Sources list included), ascending, unique. */
export function citedIndexes(report: string): number[] {
  const out = new Set<number>();
  for (const m of report.matchAll(MARK)) for (const n of m[1]!.split(',')) out.add(Number(n.trim()));
  return [...out].sort((a, b) => a - b);
}

/** The report's claim sentences that carry no citation (should be none). */
export function uncitedClaims(report: string): string[] {
  const out: string[] = [];
  forEachClaimLine(report, (line) => {
    for (const s of claimSentences(line.replace(LIST_MARKER, ''))) if (!hasMark(s)) out.push(s);
  });
  return out;
}

/** Sentences of one body line (list marker already removed); citations stay with the sentence they follow. */
export function claimSentences(line: string): string[] {
  return line
    .split(CLAIM_BOUNDARY)
    .map((s) => s.trim())
    .filter(Boolean);
}

const hasMark = (s: string) => new RegExp(MARK.source).test(s);

function forEachClaimLine(report: string, visit: (line: string) => void): void {
  let inSources = false;
  for (const raw of report.split('\n')) {
    const line = raw.trim();
    if (HEADING.test(line)) {
      inSources = SOURCES_HEADING.test(line);
      continue;
    }
    if (!line || inSources || line.startsWith(GAP_NOTE)) continue;
    visit(line);
  }
}

/** Removes citation numbers that are not in `valid`; a mark left empty disappears with its space. */
export function stripInvalidCitations(report: string, valid: ReadonlySet<number>): string {
  return report.replace(/[ \t]*\[(\d+(?:\s*,\s*\d+)*)\](?!\()/g, (whole, list: string) => {
    const kept = list
      .split(',')
      .map((n) => Number(n.trim()))
      .filter((n) => valid.has(n));
    if (kept.length === 0) return '';
    const lead = /^[ \t]*/.exec(whole)![0];
    return `${lead}${kept.map((n) => `[${n}]`).join('')}`;
  });
}

/**
 * Keeps only cited claim sentences (an uncited sentence is an unsupported claim) and drops any
 * `## Sources` section (the caller appends a canonical one, so titles and URLs are never the
 * model's). Headings and gap notes stay. Blank-line runs collapse.
 */
export function keepCitedClaims(report: string): string {
  const out: string[] = [];
  let inSources = false;
  for (const raw of report.split('\n')) {
    const line = raw.trim();
    if (HEADING.test(line)) {
      inSources = SOURCES_HEADING.test(line);
      if (!inSources) out.push(line);
      continue;
    }
    if (inSources) continue;
    if (!line || line.startsWith(GAP_NOTE)) {
      out.push(line);
      continue;
    }
    const marker = LIST_MARKER.exec(line)?.[0] ?? '';
    const kept = claimSentences(line.slice(marker.length)).filter(hasMark);
    if (kept.length) out.push(marker + kept.join(' '));
  }
  return out
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

export interface CitableSource {
  index: number;
  url: string;
  title: string;
}

/** `## Sources` with `[N] title — url` for each cited source (ascending), or a note when none. */
export function sourcesSection(cited: number[], sources: readonly CitableSource[]): string {
  const byIndex = new Map(sources.map((s) => [s.index, s]));
  const lines = cited
    .map((n) => byIndex.get(n))
    .filter((s): s is CitableSource => s !== undefined)
    .map((s) => `[${s.index}] ${oneLine(s.title) || s.url} — ${s.url}`);
  return ['## Sources', '', ...(lines.length ? lines : ['No sources were cited.'])].join('\n');
}

/** Collapses whitespace so text from pages cannot break the markdown structure across lines. */
export const oneLine = (text: string): string => text.replace(/\s+/g, ' ').trim();
