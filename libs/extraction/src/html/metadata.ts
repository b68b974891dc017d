import { attr, type HTMLElement, innerText, isElement, isText, resolveUrl, squash, tagOf } from './dom';

/** Everything read from the page outside its main content, gathered in one walk of the tree. */
export interface PageMeta {
  lang: string | null;
  contentLanguage: string | null;
  titleTag: string | null;
  /** name / property / itemprop / http-equiv (lower case) -> contents, in document order. */
  metas: Map<string, string[]>;
  canonical: string | null;
  jsonLd: unknown[];
  /** h1 texts; `banner` when the h1 sits in the site header (a board or site name, not the page's). */
  h1s: Array<{ text: string; banner: boolean }>;
  times: HTMLElement[];
  /** Elements with itemprop=datePublished / author that are not <meta>. */
  itemDate: HTMLElement | null;
  itemAuthor: HTMLElement | null;
  relAuthor: HTMLElement | null;
  /** First element classed as a byline / author name outside comments (read before cleaning removes it). */
  byline: HTMLElement | null;
  body: HTMLElement | null;
  /** The document's base URL: the page URL, or <base href> resolved against it. */
  base: URL | null;
  /** Ancestors of <article>, <main>, role=main and itemprop=articleBody: never removed as furniture. */
  semanticAncestors: Set<HTMLElement>;
  semantic: HTMLElement[];
}

export function collectMeta(root: HTMLElement, base: URL | null): PageMeta {
  const meta: PageMeta = {
    lang: null,
    contentLanguage: null,
    titleTag: null,
    metas: new Map(),
    canonical: null,
    jsonLd: [],
    h1s: [],
    times: [],
    itemDate: null,
    itemAuthor: null,
    relAuthor: null,
    byline: null,
    body: null,
    base,
    semanticAncestors: new Set(),
    semantic: [],
  };
  const addMeta = (key: string, value: string) => {
    const k = key.toLowerCase().trim();
    const list = meta.metas.get(k);
    if (list) list.push(value);
    else meta.metas.set(k, [value]);
  };
  const markSemantic = (el: HTMLElement) => {
    meta.semantic.push(el);
    for (let p = el.parentNode; p && !meta.semanticAncestors.has(p); p = p.parentNode) meta.semanticAncestors.add(p);
  };

  const walk = (el: HTMLElement, inSvg: boolean) => {
    for (const c of el.childNodes) {
      if (!isElement(c)) continue;
      const tag = tagOf(c);
      switch (tag) {
        case 'html':
          meta.lang ??= attr(c, 'lang') ?? attr(c, 'xml:lang') ?? null;
          break;
        case 'body':
          meta.body ??= c;
          break;
        case 'title':
          if (!inSvg && meta.titleTag === null) meta.titleTag = squash(c.text);
          continue;
        case 'meta': {
          const content = attr(c, 'content');
          if (content === undefined) continue;
          for (const k of ['name', 'property', 'itemprop', 'http-equiv']) {
            const key = attr(c, k);
            if (key) for (const part of key.split(/\s+/)) if (part) addMeta(part, content);
          }
          continue;
        }
        case 'base': {
          const href = resolveUrl(attr(c, 'href'), meta.base);
          if (href && meta.base === base) meta.base = new URL(href);
          continue;
        }
        case 'link': {
          const rel = (attr(c, 'rel') ?? '').toLowerCase();
          if (rel.split(/\s+/).includes('canonical')) meta.canonical ??= resolveUrl(attr(c, 'href'), meta.base);
          continue;
        }
        case 'script':
          if ((attr(c, 'type') ?? '').toLowerCase().includes('ld+json')) {
            const parsed = parseJsonLd(c.childNodes.map((n) => (isText(n) ? n.rawText : '')).join(''));
            if (parsed !== undefined) meta.jsonLd.push(parsed);
          }
          continue;
        case 'h1':
          meta.h1s.push({ text: innerText(c), banner: inBanner(c) });
          break;
        case 'time':
          meta.times.push(c);
          break;
        case 'article':
        case 'main':
          markSemantic(c);
          break;
      }
      const rawAttrs = c.rawAttrs;
      if (rawAttrs) {
        if (rawAttrs.includes('itemprop')) {
          const prop = attr(c, 'itemprop') ?? '';
          if (/\barticleBody\b/.test(prop)) markSemantic(c);
          if (/\bdatePublished\b/.test(prop)) meta.itemDate ??= c;
          if (/\bauthor\b/.test(prop)) meta.itemAuthor ??= c;
        }
        if (rawAttrs.includes('role') && attr(c, 'role') === 'main' && tag !== 'main') markSemantic(c);
        if (tag === 'a' && rawAttrs.includes('rel') && /\bauthor\b/i.test(attr(c, 'rel') ?? '')) meta.relAuthor ??= c;
        if (!meta.byline && /byline|author|writer/i.test(rawAttrs)) {
          const cls = (attr(c, 'class') ?? '').toLowerCase();
          if (BYLINE_CLASS.test(cls) && !inComments(c)) meta.byline = c;
        }
      }
      walk(c, inSvg || tag === 'svg');
    }
  };
  walk(root, false);
  meta.contentLanguage = meta.metas.get('content-language')?.[0] ?? null;
  return meta;
}

const BYLINE_CLASS =
  /(?:^|[\s_-])(?:byline|author|author-name|authorname|post-author|entry-author|article-author|writer)(?:$|[\s_-])/;

/** Inside comments or a list of reviews: bylines there name their writers, not the page's author. */
function inComments(el: HTMLElement): boolean {
  for (let p: HTMLElement | null = el, i = 0; p && i < 8; p = p.parentNode, i++) {
    if (/comment|repl(?:y|ies)|respon|reviews|testimonial/i.test(`${attr(p, 'class') ?? ''} ${attr(p, 'id') ?? ''}`))
      return true;
  }
  return false;
}

function inBanner(el: HTMLElement): boolean {
  let banner = false;
  for (let p = el.parentNode; p; p = p.parentNode) {
    const tag = tagOf(p);
    if (tag === 'article' || tag === 'main' || attr(p, 'role') === 'main') return false; // an entry header
    if (
      tag === 'header' ||
      attr(p, 'role') === 'banner' ||
      /(?:^|[\s_-])(?:masthead|site-header|headerbar|site-branding|logo)(?:$|[\s_-])/i.test(attr(p, 'class') ?? '')
    )
      banner = true;
  }
  return banner;
}

/** JSON-LD as sites write it: wrapped in comments or CDATA, with raw newlines inside strings. */
export function parseJsonLd(raw: string): unknown {
  const text = raw.trim();
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    const cleaned = text
      .replace(/^\s*(?:<!--|\/\/\s*<!\[CDATA\[|<!\[CDATA\[)/, '')
      .replace(/(?:-->|\/\/\s*\]\]>|\]\]>)\s*$/, '')
      .replace(/[\u0000-\u001f]+/g, ' ')
      .replace(/;\s*$/, '');
    try {
      return JSON.parse(cleaned);
    } catch {
      return undefined;
    }
  }
}

type Json = Record<string, unknown>;
const isObj = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Every `@type` in the JSON-LD blocks (through @graph, arrays and nested objects), in order. */
export function schemaTypes(blocks: unknown[]): string[] {
  const out = new Set<string>();
  let budget = 5000; // bounds pathological documents
  const visit = (v: unknown, depth: number) => {
    if (depth > 12 || --budget < 0) return;
    if (Array.isArray(v)) for (const x of v) visit(x, depth + 1);
    else if (isObj(v)) {
      const t = v['@type'];
      for (const x of Array.isArray(t) ? t : [t]) {
        if (typeof x === 'string' && x.trim()) out.add(x.trim().replace(/^https?:\/\/schema\.org\//, ''));
      }
      for (const [k, x] of Object.entries(v)) if (k !== '@context' && typeof x === 'object') visit(x, depth + 1);
    }
  };
  for (const b of blocks) visit(b, 0);
  return [...out];
}

// Nested things that carry their own dates and authors (reviews, comments, answers) are not the page's.
const FOREIGN_TYPES =
  /^(Review|Comment|Answer|Rating|AggregateRating|Offer|AggregateOffer|ImageObject|VideoObject|Question|ListItem|Event)$/;

/** First value of `key` in a breadth-first walk, so the page's own item wins over nested ones. */
export function jsonLdFind(blocks: unknown[], keys: string[]): unknown {
  const queue: unknown[] = [...blocks];
  let budget = 5000;
  for (let i = 0; i < queue.length && --budget > 0; i++) {
    const v = queue[i];
    if (Array.isArray(v)) {
      queue.push(...v);
      continue;
    }
    if (!isObj(v)) continue;
    const types = ([] as unknown[]).concat(v['@type'] ?? []);
    if (i >= blocks.length && types.some((t) => typeof t === 'string' && FOREIGN_TYPES.test(t))) continue;
    for (const k of keys) if (v[k] !== undefined && v[k] !== null && v[k] !== '') return v[k];
    for (const [k, x] of Object.entries(v)) if (k !== '@context' && typeof x === 'object') queue.push(x);
  }
  return undefined;
}

/** A person's name from the shapes JSON-LD uses: "Jane", {name}, [{name}, ...]. */
export function jsonLdName(v: unknown): string | null {
  if (typeof v === 'string') return squash(v) || null;
  if (Array.isArray(v)) {
    const names = v.map(jsonLdName).filter((x): x is string => !!x);
    return names.length ? names.slice(0, 3).join(', ') : null;
  }
  if (isObj(v)) return typeof v.name === 'string' ? squash(v.name) || null : null;
  return null;
}

const MONTHS: Record<string, number> = {
  jan: 1,
  january: 1,
  feb: 2,
  february: 2,
  mar: 3,
  march: 3,
  apr: 4,
  april: 4,
  may: 5,
  jun: 6,
  june: 6,
  jul: 7,
  july: 7,
  aug: 8,
  august: 8,
  sep: 9,
  sept: 9,
  september: 9,
  oct: 10,
  october: 10,
  nov: 11,
  november: 11,
  dec: 12,
  december: 12,
  // a few non-English spellings seen in bylines
  januar: 1,
  februar: 2,
  märz: 3,
  maerz: 3,
  mai: 5,
  juni: 6,
  juli: 7,
  oktober: 10,
  dezember: 12,
  janvier: 1,
  février: 2,
  fevrier: 2,
  mars: 3,
  avril: 4,
  juin: 6,
  juillet: 7,
  août: 8,
  aout: 8,
  septembre: 9,
  octobre: 10,
  novembre: 11,
  décembre: 12,
  enero: 1,
  febrero: 2,
  marzo: 3,
  abril: 4,
  mayo: 5,
  junio: 6,
  julio: 7,
  agosto: 8,
  septiembre: 9,
  setiembre: 9,
  octubre: 10,
  noviembre: 11,
  diciembre: 12,
};
const MONTH_RE = Object.keys(MONTHS)
  .sort((a, b) => b.length - a.length)
  .join('|');
const DAY_MONTH_YEAR = new RegExp(
  `\\b(\\d{1,2})(?:st|nd|rd|th)?\\.?\\s+(?:de\\s+)?(${MONTH_RE})\\.?,?\\s+(?:de\\s+)?(\\d{4})\\b`,
  'i',
);
const MONTH_DAY_YEAR = new RegExp(`\\b(${MONTH_RE})\\.?\\s+(\\d{1,2})(?:st|nd|rd|th)?,?\\s+(\\d{4})\\b`, 'i');

const ymd = (y: number, m: number, d: number): string | null => {
  if (y < 1900 || y > 2100 || m < 1 || m > 12 || d < 1 || d > 31) return null;
  const date = new Date(Date.UTC(y, m - 1, d));
  if (date.getUTCMonth() !== m - 1) return null; // 31 February
  return `${y}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
};

/** `YYYY-MM-DD` from the date formats pages use; the date as written (no time-zone shift). */
export function normalizeDate(raw: string | null | undefined): string | null {
  if (!raw) return null;
  const s = raw.trim();
  let m = /^(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})(?:$|[T\s])/.exec(s) ?? /^(\d{4})(\d{2})(\d{2})(?:$|T)/.exec(s);
  if (m) return ymd(+m[1], +m[2], +m[3]);
  m = /^(\d{1,2})\.(\d{1,2})\.(\d{4})\b/.exec(s); // 15.03.2024 (European)
  if (m) return ymd(+m[3], +m[2], +m[1]);
  m = /^(\d{1,2})\/(\d{1,2})\/(\d{4})\b/.exec(s); // only when unambiguous
  if (m && (+m[1] > 12 || +m[2] > 12)) return +m[1] > 12 ? ymd(+m[3], +m[2], +m[1]) : ymd(+m[3], +m[1], +m[2]);
  m = DAY_MONTH_YEAR.exec(s);
  if (m) return ymd(+m[3], MONTHS[m[2].toLowerCase()], +m[1]);
  m = MONTH_DAY_YEAR.exec(s);
  if (m) return ymd(+m[3], MONTHS[m[1].toLowerCase()], +m[2]);
  m = /\b(\d{4})-(\d{2})-(\d{2})\b/.exec(s);
  if (m) return ymd(+m[1], +m[2], +m[3]);
  return null;
}

/** `/2024/03/15/slug` or `/news/2024-03-15-slug`: the last resort for a date. */
export function dateFromUrl(url: string): string | null {
  let path: string;
  try {
    path = new URL(url).pathname;
  } catch {
    return null;
  }
  const m =
    /\/((?:19|20)\d{2})\/(\d{1,2})\/(\d{1,2})(?:\/|$|[-_])/.exec(path) ??
    /(?:^|[/_-])((?:19|20)\d{2})-(\d{2})-(\d{2})(?:$|[/_.-])/.exec(path);
  return m ? ymd(+m[1], +m[2], +m[3]) : null;
}
