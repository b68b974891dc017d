import { HTMLElement, type Node, type TextNode } from 'node-html-parser';

/**
 * Small helpers over node-html-parser's tree. Tag names are lower-cased here rather than with the
 * parser's `lowerCaseTagName` option, which lower-cases the whole document once per <script>.
 */
export const isElement = (n: Node): n is HTMLElement => n.nodeType === 1;
export const isText = (n: Node): n is TextNode => n.nodeType === 3;

export const tagOf = (el: HTMLElement): string => (el.rawTagName ? el.rawTagName.toLowerCase() : '');

/** Decoded text of a text node; most nodes have no entity, so skip the decoder for them. */
export const textOf = (t: TextNode): string => {
  const raw = t.rawText;
  return raw.includes('&') ? t.text : raw;
};

/** A run of whitespace (including no-break spaces). */
const SPACES = /\s+/g;
/** Characters collapsed at once (see `collapse`). */
const COLLAPSE_CHUNK = 1 << 16;

/**
 * The string `s`, made one flat string in memory. V8 builds the result of a global replace as a
 * tree of pieces, about 40 bytes a match, until something reads it whole: a 2.5 MB text of
 * 600,000 runs of spaces held 50 MB. Reading it as a number is such a read (and fails at once).
 */
export function flattened(s: string): string {
  Number(s);
  return s;
}

/**
 * Whitespace (including no-break spaces) collapsed to single spaces. A long text goes a chunk at a
 * time, each chunk ending after a run of whitespace and made flat before the next (`flattened`):
 * what a page of words holds meanwhile is a chunk's pieces, not the whole text's.
 */
export const collapse = (s: string): string => {
  if (s.length <= COLLAPSE_CHUNK) return s.replace(SPACES, ' ');
  const chunks: string[] = [];
  for (let from = 0; from < s.length;) {
    let to = from + COLLAPSE_CHUNK;
    if (to < s.length) {
      SPACES.lastIndex = to;
      const run = SPACES.exec(s);
      to = run ? run.index + run[0].length : s.length;
    }
    chunks.push(flattened(s.slice(from, to).replace(SPACES, ' ')));
    from = to;
  }
  return chunks.join('');
};
export const squash = (s: string): string => collapse(s).trim();

const SR_ONLY = /(?:^|\s)(?:sr-only|screen-reader-text|visually-hidden|visuallyhidden|hidden|d-none)(?:\s|$)/;

/**
 * Concatenated decoded text of a subtree (script/style are dropped by the parser options).
 * `visibleOnly` also skips screen-reader-only elements, for reading an uncleaned subtree.
 */
export function innerText(el: HTMLElement, visibleOnly = false): string {
  let out = '';
  const walk = (n: HTMLElement) => {
    for (const c of n.childNodes) {
      if (isText(c)) out += textOf(c);
      else if (isElement(c)) {
        const tag = tagOf(c);
        if (tag === 'script' || tag === 'style') continue;
        if (visibleOnly && c.rawAttrs && SR_ONLY.test(attr(c, 'class') ?? '')) continue;
        if (BREAKS.has(tag)) out += ' ';
        walk(c);
        if (BREAKS.has(tag)) out += ' ';
      }
    }
  };
  walk(el);
  return squash(out);
}
const BREAKS = new Set([
  'br',
  'p',
  'div',
  'li',
  'td',
  'th',
  'tr',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'dt',
  'dd',
  'section',
  'article',
  'blockquote',
  'pre',
]);

export const attr = (el: HTMLElement, name: string): string | undefined => {
  const raw = el.rawAttrs;
  // Cheap pre-check: parsing attributes is the costly part of node-html-parser's API. Old pages
  // write attributes in upper case (<A HREF=...>), hence the second probe.
  if (!raw || !(raw.includes(name) || raw.includes(name.toUpperCase()))) return undefined;
  return el.getAttribute(name);
};

/** `class` and `id` (and a few labelling attributes) as one lower-case string, for class/id hints. */
export function hintsOf(el: HTMLElement): string {
  const raw = el.rawAttrs;
  if (!raw) return '';
  const cls = attr(el, 'class') ?? '';
  const id = attr(el, 'id') ?? '';
  const label = attr(el, 'aria-label') ?? '';
  return `${cls} ${id} ${label}`.toLowerCase().trim();
}

export function resolveUrl(href: string | undefined, base: URL | null): string | null {
  if (!href) return null;
  const h = href.trim();
  if (!h || /^(javascript|data|vbscript):/i.test(h)) return null;
  try {
    return base ? new URL(h, base).href : new URL(h).href;
  } catch {
    return null;
  }
}

export const escapeHtml = (s: string): string => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
export const escapeAttr = (s: string): string => escapeHtml(s).replace(/"/g, '&quot;');

export { HTMLElement };
