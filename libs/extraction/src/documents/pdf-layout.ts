import { escapeHtml } from '../html/dom';

/** One run of text as PDF.js gives it: the string and where it is drawn. */
export interface TextRun {
  str: string;
  /** [a, b, c, d, e, f]: e, f the baseline origin; the scale of (c, d) the font size. */
  transform: number[];
  width: number;
}

interface Line {
  y: number;
  size: number;
  cells: Array<{ x: number; end: number; text: string }>;
}

/** A page's runs grouped into lines (runs sharing a baseline), top to bottom, each left to right. */
export function linesOf(runs: TextRun[]): Line[] {
  const placed = runs
    .filter((r) => typeof r.str === 'string' && r.str.trim() && Array.isArray(r.transform))
    .map((r) => ({
      x: r.transform[4]!,
      y: r.transform[5]!,
      size: Math.hypot(r.transform[2]!, r.transform[3]!) || 10,
      width: r.width || 0,
      str: r.str,
    }))
    .sort((a, b) => b.y - a.y || a.x - b.x);
  const lines: Line[] = [];
  let current: { y: number; size: number; runs: typeof placed } | null = null;
  for (const run of placed) {
    if (current && Math.abs(current.y - run.y) <= Math.max(2, Math.min(current.size, run.size) * 0.4)) {
      current.runs.push(run);
      current.size = Math.max(current.size, run.size);
      continue;
    }
    if (current) lines.push(toLine(current));
    current = { y: run.y, size: run.size, runs: [run] };
  }
  if (current) lines.push(toLine(current));
  return lines;
}

/** Runs of a line become cells where a gap wider than two spaces' worth separates them. */
function toLine(group: {
  y: number;
  size: number;
  runs: Array<{ x: number; width: number; str: string; size: number }>;
}): Line {
  const runs = group.runs.sort((a, b) => a.x - b.x);
  const cells: Line['cells'] = [];
  for (const run of runs) {
    const last = cells[cells.length - 1];
    const gap = last ? run.x - last.end : Infinity;
    if (last && gap <= run.size * 1.5) {
      last.text +=
        gap > run.size * 0.15 && !last.text.endsWith(' ') && !run.str.startsWith(' ') ? ` ${run.str}` : run.str;
      last.end = Math.max(last.end, run.x + run.width);
    } else {
      cells.push({ x: run.x, end: run.x + run.width, text: run.str });
    }
  }
  for (const c of cells) c.text = c.text.replace(/\s+/g, ' ').trim();
  return { y: group.y, size: group.size, cells: cells.filter((c) => c.text) };
}

/** The size most characters are set in across the document: body text. */
export function bodySize(pages: Line[][]): number {
  const chars = new Map<number, number>();
  for (const line of pages.flat()) {
    const size = Math.round(line.size * 2) / 2;
    chars.set(size, (chars.get(size) ?? 0) + line.cells.reduce((n, c) => n + c.text.length, 0));
  }
  let best = 10;
  let most = -1;
  for (const [size, n] of chars) if (n > most) [best, most] = [size, n];
  return best;
}

/**
 * A page's lines as HTML blocks: a short line set larger than the body is a heading (h2, or h3
 * when only a little larger); consecutive lines of two or more cells with the same count are a
 * table's rows; other lines join into paragraphs, broken where the vertical gap or the size changes.
 */
export function pageHtml(lines: Line[], body: number): string {
  const out: string[] = [];
  let para: string[] = [];
  let table: string[][] = [];
  let previous: Line | null = null;
  const flushPara = () => {
    if (para.length) out.push(`<p>${escapeHtml(para.join(' '))}</p>`);
    para = [];
  };
  const flushTable = () => {
    if (table.length >= 2) {
      const [head, ...rows] = table;
      const row = (cells: string[], tag: string) =>
        `<tr>${cells.map((c) => `<${tag}>${escapeHtml(c)}</${tag}>`).join('')}</tr>`;
      out.push(
        `<table><thead>${row(head!, 'th')}</thead><tbody>${rows.map((r) => row(r, 'td')).join('')}</tbody></table>`,
      );
    } else if (table.length === 1) {
      out.push(`<p>${escapeHtml(table[0]!.join(' '))}</p>`);
    }
    table = [];
  };
  for (const line of lines) {
    const text = line.cells.map((c) => c.text).join(' ');
    const heading = line.size >= body * 1.15 && text.length <= 150 && line.cells.length === 1;
    if (heading) {
      flushPara();
      flushTable();
      const tag = line.size >= body * 1.5 ? 'h2' : 'h3';
      out.push(`<${tag}>${escapeHtml(text)}</${tag}>`);
    } else if (line.cells.length >= 2) {
      flushPara();
      if (table.length && table[0]!.length !== line.cells.length) flushTable();
      table.push(line.cells.map((c) => c.text));
    } else {
      flushTable();
      const gap = previous ? previous.y - line.y : 0;
      if (previous && (gap > Math.max(line.size, previous.size) * 1.8 || Math.abs(previous.size - line.size) > 0.5))
        flushPara();
      para.push(text);
    }
    previous = line;
  }
  flushPara();
  flushTable();
  return out.join('\n');
}
