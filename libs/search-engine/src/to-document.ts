import type { ExtractedDocument, ExtractOptions } from '@app/extraction';
import type { Category } from '@app/providers';
import { categorize } from './categorize';
import { PAGE_BREAK } from './query-evaluation';
import type { IndexedDocument } from './document';
import { absoluteUrl, hostOf, siteKey } from '@app/urls';

/** `extractAny` (or `extractDocument`) from `@app/extraction`, or a stand-in with its signature. */
export type Extractor = (body: string, options: ExtractOptions) => ExtractedDocument | Promise<ExtractedDocument>;

/** What a source knows better than the page (a markdown file's front matter). */
export interface DocumentOverrides {
  title?: string;
  date?: string;
  category?: Category;
  language?: string;
}

export interface RawPage {
  /**
   * Where the page was read from (after redirects; for a mirror seed, the public address it stands
   * for): resolves relative URLs; its identity unless it names a canonical one it may take.
   */
  url: string;
  body: string;
  contentType: string;
  /** `base64`: a PDF's or Word file's bytes. */
  encoding?: 'base64';
  source: string;
  overrides?: DocumentOverrides;
  /**
   * Which declared address (canonical link, else `og:url`) the page may take as its identity:
   * `same-site` (the default) one on its own host only, `any` wherever it points (the operator's
   * own folder files).
   */
  canonical?: 'same-site' | 'any';
}

/**
 * Extracts a page and describes it for the index, or null when it has no text. A page is known by
 * its canonical URL (`<link rel=canonical>`, else `og:url`), as search engines do, so `www.` twins,
 * trailing-slash and tracking-parameter variants collapse into one document. A crawled page's
 * canonical counts only on its own site (`siteKey`: `www.` folded, http and https alike): one on
 * another host would let any page pass that host's domain filters or replace that host's
 * documents, so such a page is known by its own address. A folder page may declare any address.
 */
export async function toIndexedDocument(page: RawPage, extract: Extractor): Promise<IndexedDocument | null> {
  const extracted = await extract(page.body, {
    url: page.url,
    contentType: page.contentType,
    ...(page.encoding && { encoding: page.encoding }),
  });
  const text = pagedText(extracted).trim();
  if (!text) return null;
  const html = page.contentType.includes('html');
  const meta = html ? readMeta(page.body) : new Map<string, string>();
  const own = absoluteUrl(page.url);
  const declared = extracted.canonicalUrl ? absoluteUrl(extracted.canonicalUrl, page.url) : null;
  const trusted =
    declared !== null && (page.canonical === 'any' || (own !== null && siteKey(declared) === siteKey(own)));
  const url = trusted ? declared : own;
  if (!url) return null;
  const overrides = page.overrides ?? {};
  const title = (overrides.title ?? extracted.title ?? '').trim() || url;
  return {
    url,
    title,
    text,
    description: extracted.description,
    date: overrides.date ?? extracted.publishedDate,
    category:
      overrides.category ??
      categorize({
        url,
        title,
        text,
        schemaTypes: extracted.schemaTypes,
        ogType: meta.get('og:type') ?? null,
        citationMeta: [...meta.keys()].some((name) => name.startsWith('citation_')),
      }),
    language: (overrides.language ?? extracted.language)?.toLowerCase() ?? null,
    domain: hostOf(url),
    source: page.source,
  };
}

/** A PDF's text with its pages parted by PAGE_BREAK, so a hit can name the page that answers; other text as is. */
function pagedText(extracted: ExtractedDocument): string {
  const starts = extracted.pageStarts;
  if (!starts || starts.length < 2) return extracted.text;
  return starts
    .map((start, i) => extracted.text.slice(start, starts[i + 1] ?? extracted.text.length).trim())
    .join(`\n${PAGE_BREAK}\n`);
}

/** `<meta name|property=... content=...>` of the page's head, by lower-case name. */
function readMeta(body: string): Map<string, string> {
  const meta = new Map<string, string>();
  const head = body.slice(0, 65_536);
  // Tags found by position, not by a pattern over the head: a run of `<meta` with no `>` after
  // them would make `<meta[^>]*>` rescan the rest from each one.
  const lower = head.toLowerCase();
  for (let at = lower.indexOf('<meta'), end; at >= 0; at = lower.indexOf('<meta', end + 1)) {
    end = head.indexOf('>', at);
    if (end < 0) break;
    const tag = head.slice(at, end + 1);
    const name = /\b(?:name|property)\s*=\s*["']([^"']+)["']/i.exec(tag)?.[1]?.toLowerCase();
    const content = /\bcontent\s*=\s*["']([^"']*)["']/i.exec(tag)?.[1];
    if (name && content !== undefined && !meta.has(name)) meta.set(name, content.trim());
  }
  return meta;
}
