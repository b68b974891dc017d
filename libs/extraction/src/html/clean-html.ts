import {
  attr,
  collapse,
  escapeAttr,
  escapeHtml,
  type HTMLElement,
  isElement,
  isText,
  resolveUrl,
  tagOf,
  textOf,
} from './dom';
import { BLOCK, codeLanguage, imageSrc, PERMALINK } from './elements';
import type { RenderContext } from './render';

/** Cleaned HTML of the chosen content nodes: the kept elements and attributes, links and images resolved. */

const KEEP = new Set([
  'p',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'ul',
  'ol',
  'li',
  'blockquote',
  'pre',
  'code',
  'em',
  'strong',
  'b',
  'i',
  'a',
  'img',
  'figure',
  'figcaption',
  'table',
  'thead',
  'tbody',
  'tfoot',
  'tr',
  'th',
  'td',
  'caption',
  'br',
  'hr',
  'dl',
  'dt',
  'dd',
  'sup',
  'sub',
  'del',
  's',
  'ins',
  'mark',
  'kbd',
  'samp',
  'abbr',
  'q',
  'cite',
  'small',
  'div',
  'section',
  'article',
  'details',
  'summary',
  'time',
  'u',
]);
const VOID = new Set(['br', 'hr', 'img']);
const KEEP_EMPTY = new Set(['td', 'th', 'tr']);

export function toHtml(nodes: HTMLElement[], ctx: RenderContext): string {
  const out = nodes.map((n) => serialize(n, ctx, false)).join('\n');
  // Tidy the whitespace between blocks, leaving <pre> as written.
  return out
    .split(/(<pre[\s\S]*?<\/pre>)/)
    .map((part, i) => (i % 2 ? part : part.replace(/[ \t]*\n\s*/g, '\n').replace(/>[ \t]+</g, '> <')))
    .join('')
    .trim();
}

function serialize(el: HTMLElement, ctx: RenderContext, inPre: boolean): string {
  const tag = tagOf(el);
  const pre = inPre || tag === 'pre';
  let inner = '';
  for (const c of el.childNodes) {
    if (isText(c)) inner += escapeHtml(pre ? textOf(c) : collapse(textOf(c)));
    else if (isElement(c)) inner += serialize(c, ctx, pre);
  }
  if (!KEEP.has(tag)) return BLOCK.has(tag) && inner.trim() ? `\n${inner}\n` : inner;
  let attrs = '';
  if (tag === 'a') {
    const href = resolveUrl(attr(el, 'href'), ctx.base);
    if (!href) return inner;
    if (PERMALINK.test(inner) && !inner.includes('<img')) return '';
    attrs = ` href="${escapeAttr(href)}"`;
  } else if (tag === 'img') {
    const src = imageSrc(el, ctx.base);
    if (!src) return '';
    return `<img src="${escapeAttr(src)}" alt="${escapeAttr(attr(el, 'alt') ?? '')}">`;
  } else if (tag === 'td' || tag === 'th') {
    for (const name of ['colspan', 'rowspan']) {
      const v = attr(el, name);
      if (v && /^\d+$/.test(v)) attrs += ` ${name}="${v}"`;
    }
  } else if (tag === 'ol') {
    const start = attr(el, 'start');
    if (start && /^\d+$/.test(start)) attrs = ` start="${start}"`;
  } else if (tag === 'code' || tag === 'pre') {
    const lang = codeLanguage(el);
    if (lang) attrs = ` class="language-${escapeAttr(lang)}"`;
  } else if (tag === 'time') {
    const dt = attr(el, 'datetime');
    if (dt) attrs = ` datetime="${escapeAttr(dt)}"`;
  }
  if (VOID.has(tag)) return `<${tag}${attrs}>`;
  if (!inner.trim() && !KEEP_EMPTY.has(tag) && !inner.includes('<img')) return '';
  const open = `<${tag}${attrs}>`;
  return BLOCK.has(tag) ? `\n${open}${inner}</${tag}>\n` : `${open}${inner}</${tag}>`;
}
