import { attr, type HTMLElement, resolveUrl } from './dom';

/** What source elements mean to every rendering of the content (markdown, text, cleaned HTML). */

/** Elements that start a block of their own. */
export const BLOCK = new Set([
  'address',
  'article',
  'aside',
  'blockquote',
  'center',
  'dd',
  'details',
  'div',
  'dl',
  'dt',
  'fieldset',
  'figcaption',
  'figure',
  'footer',
  'form',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'header',
  'hgroup',
  'hr',
  'li',
  'main',
  'ol',
  'p',
  'pre',
  'section',
  'summary',
  'table',
  'tbody',
  'thead',
  'tfoot',
  'tr',
  'td',
  'th',
  'caption',
  'ul',
  'body',
  'html',
  'picture',
]);
// Permalink anchors next to headings ("#", "¶") carry no text of the article.
export const PERMALINK = /^[\s#¶§🔗\u200b]*$/u;
const LANG_CLASS = /(?:^|\s)(?:language|lang)-([\w+#.-]+)|(?:^|\s)highlight-(?:source-)?([\w+#-]+)/i;

/** The language a code element names (`language-x`, `lang-x`, `highlight-x` classes, `data-lang`), lower case. */
export function codeLanguage(el: HTMLElement | undefined): string | null {
  if (!el) return null;
  const m = LANG_CLASS.exec(attr(el, 'class') ?? '');
  const lang = m ? (m[1] ?? m[2]) : (attr(el, 'data-lang') ?? attr(el, 'data-language'));
  return lang && /^[\w+#.-]{1,30}$/.test(lang) ? lang.toLowerCase() : null;
}

/** The real source of an image, lazy-loading attributes included; null for placeholders and pixels. */
export function imageSrc(el: HTMLElement, base: URL | null): string | null {
  const w = attr(el, 'width');
  const h = attr(el, 'height');
  if ((w && Number.parseInt(w, 10) <= 3) || (h && Number.parseInt(h, 10) <= 3)) return null;
  for (const name of ['data-src', 'data-lazy-src', 'data-original', 'data-srcset', 'src', 'srcset']) {
    let v = attr(el, name);
    if (!v || /^data:/i.test(v.trim())) continue;
    if (name.endsWith('srcset')) v = v.trim().split(/\s+/)[0];
    const url = resolveUrl(v, base);
    if (url) return url;
  }
  return null;
}
