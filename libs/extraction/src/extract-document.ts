import { type Node, parse } from 'node-html-parser';
import type { ExtractedDocument, ExtractOptions } from './extraction.port';
import { ContentFinder } from './html/content';
import { attr, type HTMLElement, innerText, isElement, resolveUrl, squash, tagOf } from './html/dom';
import {
  collectMeta,
  dateFromUrl,
  jsonLdFind,
  jsonLdName,
  normalizeDate,
  type PageMeta,
  schemaTypes,
} from './html/metadata';
import { toHtml } from './html/clean-html';
import { type RenderContext, toMarkdown, toText } from './html/render';
import { detectLanguage, normalizeLangTag, STOPWORDS } from './language';
import { looksLikeHtml, stripComments, stripTags, tagPastLimit, treeTagsFor } from './markup';
import { markdownToHtml, markdownToText, normalizeText, plainToHtml, textTitle } from './plain';

/**
 * The main content of a fetched page and its metadata. Synchronous and self-contained: it runs
 * on every fetched page and over thousands of pages when the local index is built. Never throws:
 * a page it cannot read yields its visible text, or an empty document.
 */
export function extractDocument(body: string, options: ExtractOptions): ExtractedDocument {
  const contentType = (options.contentType ?? 'text/html').toLowerCase();
  const text = typeof body === 'string' ? body : '';
  if (contentType.includes('markdown')) return passThrough(text, options.url, true);
  if (
    contentType.startsWith('text/plain') ||
    (!contentType.includes('html') && !contentType.includes('xml') && !looksLikeHtml(text))
  ) {
    return passThrough(text, options.url, false);
  }
  try {
    return extractHtml(text, options.url, treeTagsFor(options.heapMb));
  } catch {
    // Pathological markup (nesting deep enough to exhaust the stack): keep the words at least.
    return wordsOnly(text, options.url);
  }
}

/**
 * A page read as its words, with no tree: markup too large (more tags than a tree may have) or
 * too deep to parse. Its title, and its visible text whole, boilerplate included.
 */
function wordsOnly(html: string, url: string): ExtractedDocument {
  const document = passThrough(squash(stripTags(html)), url, false);
  return { ...document, title: titleElement(html) ?? document.title };
}

/** The text of the page's `<title>`, looked for in its first 64 KB, or null. */
function titleElement(html: string): string | null {
  const head = html.slice(0, 65_536);
  const open = /<title[\s>]/i.exec(head);
  if (!open) return null;
  const start = head.indexOf('>', open.index);
  const end = start < 0 ? -1 : head.slice(start).search(/<\/title/i);
  const title = end < 0 ? '' : squash(head.slice(start + 1, start + end));
  return title && title.length <= 500 ? title : null;
}

const PARSE_OPTIONS = {
  comment: false,
  // script bodies are kept for JSON-LD; style and noscript bodies are skipped by the parser;
  // <pre> is parsed (its <code class="language-x"> names the language).
  blockTextElements: { script: true, style: false, noscript: false },
  // Leave elements still open at the end nested, as browsers do; the parser's default repair
  // re-parents their children one by one and is quadratic on truncated or sloppy pages.
  parseNoneClosedTags: true,
};

function extractHtml(html: string, url: string, maxTags: number): ExtractedDocument {
  const base = parseBase(url);
  // Comments go before the parser sees the page: it rescans the rest of the page from every
  // comment that never closes (quadratic), and it drops them anyway.
  const markup = stripComments(html);
  // A tree's heap grows with its tags: past the bound the page is read as its words.
  if (tagPastLimit(markup, maxTags) >= 0) return wordsOnly(html, url);
  const root = parse(markup, PARSE_OPTIONS);
  const meta = collectMeta(root, base);
  const title = chooseTitle(meta);
  const body = meta.body ?? root;
  // Read before cleaning prunes the tree (a byline's hidden itemprop=name, a removed <time>).
  const author = authorOf(meta);
  const declaredDate = dateFromMarkup(meta);

  // Cleaning prunes the tree by replacing children lists; the first pass notes what it replaced.
  const replaced = new Map<HTMLElement, Node[]>();
  let result = extractContent(body, meta, title, false, replaced);
  // Reader views retry with fewer rules when the result is thin (Readability's flags); the
  // relaxed pass keeps class-named blocks and skips conditional cleaning, on the same tree
  // restored (one parse per page).
  if (result.text.length < 500) {
    for (const [el, nodes] of replaced) el.childNodes = nodes;
    const relaxed = extractContent(body, meta, title, true);
    if (
      (!result.text && relaxed.text) ||
      relaxed.text.length > Math.max(result.text.length * 1.5, result.text.length + 200)
    )
      result = relaxed;
  }

  const description =
    firstMeta(meta, 'description', 'og:description', 'twitter:description', 'dc.description') ??
    firstParagraph(result.text, title);
  return {
    title,
    markdown: result.markdown,
    text: result.text,
    html: result.html,
    publishedDate: declaredDate ?? dateFromTime(result.meta, result.nodes) ?? dateFromUrl(url),
    author,
    language: languageOf(meta, result.text),
    canonicalUrl: meta.canonical ?? resolveUrl(firstMeta(meta, 'og:url') ?? undefined, meta.base),
    description: description ? truncate(squash(description), 300) : null,
    schemaTypes: schemaTypes(meta.jsonLd),
  };
}

function extractContent(
  body: HTMLElement,
  meta: PageMeta,
  title: string | null,
  relaxed: boolean,
  replaced?: Map<HTMLElement, Node[]>,
) {
  const finder = new ContentFinder(body, meta, relaxed, replaced);
  const nodes = finder.find(title);
  const ctx: RenderContext = { base: meta.base, isDataTable: (t) => finder.isDataTable(t) };
  return { meta, nodes, markdown: toMarkdown(nodes, ctx), text: toText(nodes, ctx), html: toHtml(nodes, ctx) };
}

function passThrough(body: string, url: string, markdown: boolean): ExtractedDocument {
  const normalized = normalizeText(body);
  const rendered = markdown ? renderedMarkdown(normalized) : null;
  const text = rendered?.text ?? normalized;
  return {
    title: textTitle(normalized, markdown),
    markdown: normalized,
    text,
    html: rendered?.html ?? plainToHtml(normalized),
    publishedDate: dateFromUrl(url),
    author: null,
    language: detectLanguage(text)?.lang ?? null,
    canonicalUrl: null,
    description: firstParagraph(text, textTitle(normalized, markdown)),
    schemaTypes: [],
  };
}

/** Markdown as text and as HTML; null for pathological markdown whose syntax exhausts the stack (the text is then the document as written). */
function renderedMarkdown(markdown: string): { text: string; html: string } | null {
  try {
    return { text: markdownToText(markdown), html: markdownToHtml(markdown) };
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
    return null;
  }
}

const parseBase = (url: string): URL | null => {
  try {
    return new URL(url);
  } catch {
    return null;
  }
};

const firstMeta = (meta: PageMeta, ...keys: string[]): string | null => {
  for (const k of keys) {
    const v = meta.metas.get(k)?.find((x) => x.trim());
    if (v) return squash(v);
  }
  return null;
};

// ---- title ------------------------------------------------------------------------------------

const SEPARATOR = /\s+(?:\||-|–|—|·|•|»|::|\/)\s+/;

function chooseTitle(meta: PageMeta): string | null {
  const site = firstMeta(meta, 'og:site_name', 'application-name');
  const h1s = meta.h1s.filter((h) => h.text && !h.banner).map((h) => h.text);
  const og = firstMeta(meta, 'og:title', 'twitter:title');
  // An og:title copied verbatim from <title> carries the same " | Site" suffix.
  if (og && meta.titleTag && same(og, meta.titleTag)) return cleanTitleTag(og, site, h1s);
  if (og) {
    const stripped = stripSite(og, site);
    if (stripped !== og) return stripped;
    // "Headline | Site" in og:title too: the page's own h1 tells which part is the headline.
    const parts = og.split(SEPARATOR);
    const h1 = parts.length > 1 ? h1s.find((h) => parts.some((p) => same(p, h))) : undefined;
    return h1 ?? og;
  }
  if (meta.titleTag) return cleanTitleTag(meta.titleTag, site, h1s);
  return h1s[0] ?? meta.h1s.find((h) => h.text)?.text ?? null;
}

const same = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();
const words = (s: string) => s.split(/\s+/).filter(Boolean).length;
const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

function stripSite(title: string, site: string | null): string {
  if (!site || same(title, site)) return title;
  const s = escapeRe(site);
  const m =
    new RegExp(`^(.+?)\\s*(?:\\||-|–|—|·|•|»|:|::)\\s*${s}\\s*$`, 'i').exec(title) ??
    new RegExp(`^\\s*${s}\\s*(?:\\||-|–|—|·|•|»|:|::)\\s*(.+)$`, 'i').exec(title);
  return m ? m[1].trim() : title;
}

/** "Headline | Site", "Site - Headline": drop the site part when the split reads sensibly. */
function cleanTitleTag(raw: string, site: string | null, h1s: string[]): string | null {
  const title = squash(raw);
  if (!title) return h1s[0] ?? null;
  const stripped = stripSite(title, site);
  if (stripped !== title) return stripped;
  const parts = title.split(SEPARATOR);
  if (parts.length < 2) return title;
  const h1 = h1s.find(
    (h) => parts.some((p) => same(p, h)) || (h.length >= 15 && title.toLowerCase().startsWith(h.toLowerCase())),
  );
  if (h1) return h1;
  const sep = [...title.matchAll(new RegExp(SEPARATOR.source, 'g'))];
  const lastSep = sep[sep.length - 1];
  const head = title.slice(0, lastSep.index).trim();
  const tail = title.slice(lastSep.index! + lastSep[0].length).trim();
  if (words(head) >= 2 && words(tail) <= 5) return head;
  const firstSep = sep[0];
  const lead = title.slice(0, firstSep.index).trim();
  const rest = title.slice(firstSep.index! + firstSep[0].length).trim();
  if (words(lead) <= 4 && words(rest) >= 3) return rest;
  return title;
}

// ---- date, author, language -------------------------------------------------------------------

const DATE_METAS = [
  'article:published_time',
  'og:article:published_time',
  'og:published_time',
  'article.published',
  'datepublished',
  'date.published',
  'publishdate',
  'publish-date',
  'publish_date',
  'pubdate',
  'parsely-pub-date',
  'sailthru.date',
  'dc.date.issued',
  'dcterms.issued',
  'dc.date',
  'dcterms.date',
  'dcterms.created',
  'dc.date.created',
  'citation_publication_date',
  'citation_date',
  'citation_online_date',
  'date',
];

/** The date the page declares: meta tags, itemprop, JSON-LD. */
function dateFromMarkup(meta: PageMeta): string | null {
  for (const k of DATE_METAS) {
    const d = normalizeDate(meta.metas.get(k)?.[0]);
    if (d) return d;
  }
  if (meta.itemDate) {
    const el = meta.itemDate;
    const d = normalizeDate(attr(el, 'datetime') ?? attr(el, 'content') ?? innerText(el));
    if (d) return d;
  }
  for (const key of ['datePublished', 'dateCreated']) {
    const v = jsonLdFind(meta.jsonLd, [key]);
    const d = typeof v === 'string' ? normalizeDate(v) : null;
    if (d) return d;
  }
  return null;
}

function dateFromTime(meta: PageMeta, content: HTMLElement[]): string | null {
  const time = pickTime(meta, content);
  return time ? (normalizeDate(attr(time, 'datetime')) ?? normalizeDate(innerText(time))) : null;
}

/** The <time> of the article: marked as publication, else near the content, else the only one. */
function pickTime(meta: PageMeta, content: HTMLElement[]): HTMLElement | null {
  const times = meta.times;
  if (!times.length) return null;
  const marked = times.find(
    (t) =>
      t.hasAttribute('pubdate') ||
      /publish|posted|entry-date|post-date|article-date|dateline/i.test(
        `${attr(t, 'class') ?? ''} ${attr(t, 'itemprop') ?? ''} ${attr(t, 'id') ?? ''} ${attr(t.parentNode ?? t, 'class') ?? ''}`,
      ),
  );
  if (marked) return marked;
  const scopes = new Set<HTMLElement>();
  for (const n of content) {
    scopes.add(n);
    let p: HTMLElement | null = n.parentNode;
    for (let i = 0; p && i < 2 && tagOf(p) !== 'body'; i++, p = p.parentNode) scopes.add(p);
  }
  for (const s of meta.semantic) if (content.some((n) => within(s, n) || within(n, s))) scopes.add(s);
  const near = times.find((t) => [...scopes].some((s) => within(s, t)) && !/comment/i.test(ancestorHints(t)));
  if (near) return near;
  return times.length === 1 ? times[0] : null;
}

function within(ancestor: HTMLElement, el: HTMLElement): boolean {
  for (let p: HTMLElement | null = el; p; p = p.parentNode) if (p === ancestor) return true;
  return false;
}

function ancestorHints(el: HTMLElement): string {
  let out = '';
  for (let p: HTMLElement | null = el.parentNode, i = 0; p && i < 6; p = p.parentNode, i++)
    out += ` ${attr(p, 'class') ?? ''} ${attr(p, 'id') ?? ''}`;
  return out;
}

function authorOf(meta: PageMeta): string | null {
  const candidates: Array<string | null | undefined> = [
    firstMeta(meta, 'author', 'dc.creator', 'dcterms.creator', 'parsely-author', 'sailthru.author', 'byl'),
    jsonLdName(jsonLdFind(meta.jsonLd, ['author', 'creator'])),
    meta.metas.get('citation_author')?.slice(0, 3).map(squash).join(', '),
    firstMeta(meta, 'article:author'),
    meta.itemAuthor ? itemName(meta.itemAuthor) : null,
    meta.relAuthor ? innerText(meta.relAuthor, true) : null,
    bylineText(meta),
  ];
  for (const c of candidates) {
    const a = cleanAuthor(c);
    if (a) return a;
  }
  return null;
}

function itemName(el: HTMLElement): string | null {
  const content = attr(el, 'content');
  if (content) return content;
  const find = (e: HTMLElement): HTMLElement | null => {
    for (const c of e.childNodes) {
      if (!isElement(c)) continue;
      if ((attr(c, 'itemprop') ?? '') === 'name') return c;
      const f = find(c);
      if (f) return f;
    }
    return null;
  };
  const name = find(el);
  return name ? (attr(name, 'content') ?? innerText(name)) : innerText(el, true);
}

function bylineText(meta: PageMeta): string | null {
  if (!meta.byline) return null;
  const text = innerText(meta.byline, true);
  return text && text.length <= 120 ? text : null;
}

function cleanAuthor(raw: string | null | undefined): string | null {
  if (!raw) return null;
  let a = squash(raw)
    .replace(/^(?:written\s+|posted\s+|published\s+)?(?:by|von|par|por|di|door)\s*:?\s+/i, '')
    .replace(/^(?:author|autor|auteur)\s*:\s*/i, '');
  a = a
    .split(
      /\s+[|•·»—–]\s+|\s+(?:on|am|le|el)\s+(?=\w+\.?\s+\d|\d)|,\s*(?:published|updated|posted)\b|\s+(?:published|updated)\s/i,
    )[0]
    .trim();
  a = a.replace(/[,;:\s]+$/, '');
  if (!a || a.length > 100 || /https?:|www\.|@\w+\.\w/.test(a) || !/\p{L}/u.test(a)) return null;
  return a;
}

function languageOf(meta: PageMeta, text: string): string | null {
  const declared = normalizeLangTag(meta.lang) ?? normalizeLangTag(meta.contentLanguage?.split(',')[0]);
  const detected = text ? detectLanguage(text) : null;
  if (!declared) return detected?.lang ?? null;
  // Templates often hard-code lang="en": overwhelming evidence for another language wins.
  if (detected && detected.lang !== declared && declared in STOPWORDS && detected.ratio >= 0.1 && words(text) >= 40)
    return detected.lang;
  return declared;
}

// ---- description ------------------------------------------------------------------------------

/** The first paragraph that reads like prose (a sentence, not the title or a heading). */
function firstParagraph(text: string, title: string | null): string | null {
  const paras = text
    .split(/\n+/)
    .map((p) => p.trim())
    .filter((p) => p && p !== title);
  const p = paras.find((x) => x.length >= 50 && /[.!?。]$/.test(x)) ?? paras.find((x) => x.length >= 80) ?? paras[0];
  return p ? truncate(p, 300) : null;
}

function truncate(s: string, max: number): string {
  if (s.length <= max) return s;
  const cut = s.slice(0, max - 1);
  const space = cut.lastIndexOf(' ');
  return `${(space > max * 0.6 ? cut.slice(0, space) : cut).replace(/[\s,;:.-]+$/, '')}…`;
}
