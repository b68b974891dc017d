import { attr, type HTMLElement, isElement, isText, tagOf } from './dom';
import { HEADINGS } from './content-hints';

/** Measures the content finder takes of text and elements: lengths, commas, data tables, titles. */

/** Length of a text without its whitespace runs counted more than once. */
export function visibleLength(t: string): number {
  let n = 0;
  let space = true;
  for (let i = 0; i < t.length; i++) {
    const c = t.charCodeAt(i);
    const ws = c === 32 || c === 10 || c === 9 || c === 13 || c === 160 || c === 12;
    if (ws) {
      if (!space) n++;
      space = true;
    } else {
      n++;
      space = false;
    }
  }
  return n;
}

export const countCommas = (t: string): number => {
  let n = 0;
  for (let i = 0; i < t.length; i++) {
    const c = t.charCodeAt(i);
    if (c === 44 || c === 0xff0c || c === 0x3001 || c === 0x060c) n++;
  }
  return n;
};

/** Text length of a subtree before cleaning (script/style/template skipped). */
export function rawTextLength(el: HTMLElement): number {
  let n = 0;
  for (const c of el.childNodes) {
    if (isText(c)) n += visibleLength(c.rawText);
    else if (isElement(c)) {
      const tag = tagOf(c);
      if (tag !== 'script' && tag !== 'style' && tag !== 'template') n += rawTextLength(c);
    }
  }
  return n;
}

/** Data tables (rendered as tables) versus layout tables (rendered as their cells' content). */
export function dataTable(table: HTMLElement): boolean {
  const role = attr(table, 'role');
  if (role === 'presentation' || role === 'none') return false;
  let rows = 0;
  let maxCols = 0;
  let headers = false;
  let blocks = false;
  const visit = (el: HTMLElement) => {
    for (const c of el.children) {
      const tag = tagOf(c);
      // A nested table is judged on its own when it is rendered.
      if (tag === 'table') continue;
      if (tag === 'caption' || tag === 'thead' || tag === 'th') headers = true;
      if (tag === 'tr') {
        rows++;
        maxCols = Math.max(maxCols, c.children.filter((x) => tagOf(x) === 'td' || tagOf(x) === 'th').length);
      }
      if (
        tag === 'div' ||
        tag === 'p' ||
        tag === 'ul' ||
        tag === 'ol' ||
        tag === 'blockquote' ||
        tag === 'pre' ||
        HEADINGS.has(tag)
      )
        blocks = true;
      visit(c);
    }
  };
  visit(table);
  if (blocks && !(headers && rows > 1)) return false;
  if (headers) return true;
  return rows >= 2 && maxCols >= 2;
}

export const normTitle = (s: string): string =>
  s
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
