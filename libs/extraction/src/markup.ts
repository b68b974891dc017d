/**
 * Linear-time passes over raw markup, run before (or instead of) the HTML parser. Page text is
 * hostile: nothing here uses a pattern that can backtrack, and every loop moves forward, so a
 * page of any shape costs time in proportion to its length.
 */

/** Elements whose content is raw text up to their own end tag (comments inside are not comments). */
const RAW_TEXT = new Set(['script', 'style', 'textarea', 'title', 'xmp', 'iframe', 'noembed', 'noframes', 'noscript']);

const isSpace = (c: number) => c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0c || c === 0x0d;
const isAsciiLetter = (c: number) => (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a);

/** The end of a comment starting at `start` (`<!--`), past its `-->`; -1 when it never ends. */
function commentEnd(text: string, start: number): number {
  // `<!-->` and `<!--->` end at once (the HTML tokenizer's abrupt closing of an empty comment).
  if (text.startsWith('>', start + 4)) return start + 5;
  if (text.startsWith('->', start + 4)) return start + 6;
  const close = text.indexOf('-->', start + 4);
  return close < 0 ? -1 : close + 3;
}

/** The lower-cased tag name at `at` (just past `<` or `</`), and where it ends. */
function tagNameAt(text: string, at: number): { name: string; end: number } | null {
  if (!isAsciiLetter(text.charCodeAt(at))) return null;
  let end = at + 1;
  while (end < text.length && end - at < 64) {
    const c = text.charCodeAt(end);
    if (isSpace(c) || c === 0x2f || c === 0x3e) break;
    end++;
  }
  return { name: text.slice(at, end).toLowerCase(), end };
}

const OPENING_TAGS = new Set([
  '!doctype',
  'html',
  'head',
  'body',
  'div',
  'p',
  'meta',
  'title',
  'article',
  'section',
  'table',
  'span',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
]);

/**
 * Whether a body served without an HTML type reads as HTML: after optional whitespace and
 * comments, it opens with a tag a page starts with (`<!doctype`, `<html>`, `<div>`...).
 */
export function looksLikeHtml(text: string): boolean {
  let i = 0;
  for (;;) {
    while (i < text.length && isSpace(text.charCodeAt(i))) i++;
    if (!text.startsWith('<!--', i)) break;
    const end = commentEnd(text, i);
    if (end < 0) return false;
    i = end;
  }
  if (text.charCodeAt(i) !== 0x3c) return false;
  const bang = text.charCodeAt(i + 1) === 0x21;
  const named = tagNameAt(text, i + 1 + (bang ? 1 : 0));
  if (!named) return false;
  const name = bang ? `!${named.name}` : named.name;
  return OPENING_TAGS.has(name) && (named.end >= text.length || !isAsciiLetter(text.charCodeAt(named.end)));
}

/**
 * The most start tags a page's markup may hold to be parsed into a tree, per MB of heap the
 * parsing thread may hold. A tree costs up to 1.8 KB of heap per tag, rendered and scored
 * (`<li><a href>` lists and tables, measured): 200 a MB keeps a page's tree under half the heap,
 * so a thread under its limit (512 MB by default: 102,400 tags) never meets it mid-page, where
 * V8 may fail the whole process rather than the thread.
 */
export const TREE_TAGS_PER_HEAP_MB = 200;

/** The heap of a thread that reads pages, by default (MB): EXTRACT_MAX_HEAP_MB's default. */
export const DEFAULT_HEAP_MB = 512;

/** The start tags a page read by a thread of `heapMb` (default 512 MB: 102,400) may have to be parsed into a tree. */
export const treeTagsFor = (heapMb = DEFAULT_HEAP_MB): number => Math.floor(heapMb * TREE_TAGS_PER_HEAP_MB);

/**
 * Where the markup's (`max` + 1)-th start tag opens (`<` and a letter), or -1 when it holds at
 * most `max`: the point past which a parser would build more elements than the page may have.
 * Counts every `<` a letter follows, so it never counts fewer tags than the parser makes.
 */
export function tagPastLimit(html: string, max: number): number {
  let seen = 0;
  for (let lt = html.indexOf('<'); lt >= 0; lt = html.indexOf('<', lt + 1)) {
    if (isAsciiLetter(html.charCodeAt(lt + 1)) && ++seen > max) return lt;
  }
  return -1;
}

/**
 * The markup with its comments taken out, as a browser reads them: a comment that never closes
 * hides the rest of the page, so the page ends there. Comment-like text inside raw-text elements
 * (`<script>`, `<style>`, `<textarea>`...) is left alone; a raw-text element that never closes
 * also ends the page (its content was never visible). This spares the parser its pathological
 * cases (an unclosed `<!--` made it rescan the rest of the page from every one of them).
 */
export function stripComments(html: string): string {
  const parts: string[] = [];
  let from = 0;
  let i = 0;
  while (i < html.length) {
    const lt = html.indexOf('<', i);
    if (lt < 0) break;
    if (html.startsWith('<!--', lt)) {
      parts.push(html.slice(from, lt));
      const end = commentEnd(html, lt);
      if (end < 0) return parts.join('');
      from = i = end;
      continue;
    }
    const named = tagNameAt(html, lt + 1);
    if (named && RAW_TEXT.has(named.name)) {
      const close = findEndTag(html, named.name, named.end);
      if (close < 0) {
        parts.push(html.slice(from, lt));
        return parts.join('');
      }
      i = close;
      continue;
    }
    i = lt + 1;
  }
  parts.push(html.slice(from));
  return parts.length === 1 ? parts[0] : parts.join('');
}

/** The end tag of each raw-text element, made once (a page may hold thousands of scripts). */
const END_TAGS = new Map([...RAW_TEXT].map((name) => [name, new RegExp(`</${name}(?![A-Za-z0-9])`, 'gi')]));

/** Where `</name` (any case) starts at or after `from`, or -1. */
function findEndTag(html: string, name: string, from: number): number {
  const pattern = END_TAGS.get(name)!;
  pattern.lastIndex = from;
  return pattern.exec(html)?.index ?? -1;
}

/** Words of `stripTags` held apart before they are joined into one string. */
const JOIN_EVERY = 4096;

/**
 * The words of markup with every tag, comment and raw-text element dropped: the fall-back when a
 * page cannot be parsed into a tree. A tag that never closes drops the rest, as in a browser.
 */
export function stripTags(html: string): string {
  const source = stripComments(html);
  // The words between tags, joined a few thousand at a time: a page of a million tags would
  // otherwise hold two million small strings at once, many times its own size.
  const joined: string[] = [];
  const parts: string[] = [];
  let i = 0;
  while (i < source.length) {
    if (parts.length >= JOIN_EVERY) {
      joined.push(parts.join(''));
      parts.length = 0;
    }
    const lt = source.indexOf('<', i);
    if (lt < 0) {
      parts.push(source.slice(i));
      break;
    }
    parts.push(source.slice(i, lt), ' ');
    const gt = source.indexOf('>', lt + 1);
    if (gt < 0) break;
    const named = tagNameAt(source, lt + 1);
    if (named && RAW_TEXT.has(named.name) && named.name !== 'title' && named.name !== 'textarea') {
      const close = findEndTag(source, named.name, gt + 1);
      if (close < 0) break;
      const closeGt = source.indexOf('>', close);
      if (closeGt < 0) break;
      i = closeGt + 1;
      continue;
    }
    i = gt + 1;
  }
  joined.push(parts.join(''));
  return joined.join('');
}

const SCRIPT_TYPES =
  /^\s*(?:|text\/javascript|application\/javascript|module|text\/ecmascript|application\/ecmascript)\s*$/i;

/**
 * Whether the markup has a script a browser would run (not JSON-LD, templates or other data
 * blocks): what makes a thin page worth rendering. Looks at the first 200 `<script` tags, each
 * to its first `>` within 1,000 characters, so any page costs time in proportion to its length.
 */
export function hasRunnableScript(html: string): boolean {
  const lower = html.length > 5_000_000 ? html.slice(0, 5_000_000).toLowerCase() : html.toLowerCase();
  for (
    let at = lower.indexOf('<script'), seen = 0;
    at >= 0 && seen < 200;
    at = lower.indexOf('<script', at + 7), seen++
  ) {
    const next = lower.charCodeAt(at + 7);
    if (!(isSpace(next) || next === 0x3e || next === 0x2f)) continue;
    const window = lower.slice(at, at + 1_000);
    const end = window.indexOf('>');
    const tag = end < 0 ? window : window.slice(0, end);
    const type = /\stype\s*=\s*["']?([^"'\s>]*)/.exec(tag)?.[1] ?? '';
    if (SCRIPT_TYPES.test(type)) return true;
  }
  return false;
}
