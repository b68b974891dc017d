/**
 * A sitemap read with a linear scanner (a sitemap is hostile input: no backtracking regex over
 * the whole file, no DOM): `<url>` entries (a URL set) or `<sitemap>` entries (an index), each
 * with its `<loc>` and `<lastmod>`, at most `maxEntries` of them.
 */
export interface SitemapEntry {
  loc: string;
  lastmod: string | null;
}

export interface Sitemap {
  kind: 'urlset' | 'index';
  entries: SitemapEntry[];
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

const decode = (text: string) =>
  text
    .replace(/^\s*<!\[CDATA\[([^\]]*)\]\]>\s*$/, '$1')
    .replace(/&(amp|lt|gt|quot|apos|#\d{1,7}|#x[0-9a-f]{1,6});/gi, (whole, name: string) => {
      if (name[0] !== '#') return ENTITIES[name.toLowerCase()] ?? whole;
      const code = name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
      return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    })
    .trim();

/** The text of the first `<tag>` ... `</tag>` inside `block`, or null. */
function field(block: string, tag: string): string | null {
  const open = block.indexOf(`<${tag}`);
  if (open < 0) return null;
  const start = block.indexOf('>', open);
  const end = block.indexOf(`</${tag}`, start);
  if (start < 0 || end < 0) return null;
  return decode(block.slice(start + 1, end));
}

/** Entries of one element name (`url` or `sitemap`), scanned with indexOf: linear in the input. */
function scan(xml: string, tag: 'url' | 'sitemap', maxEntries: number): SitemapEntry[] {
  const entries: SitemapEntry[] = [];
  const close = `</${tag}>`;
  let at = 0;
  while (entries.length < maxEntries) {
    const open = xml.indexOf(`<${tag}`, at);
    if (open < 0) break;
    const next = xml.charCodeAt(open + tag.length + 1);
    // `<urlset` and `<sitemapindex` are containers, not entries.
    if (next !== 0x3e /* > */ && next !== 0x20 && next !== 0x09 && next !== 0x0a && next !== 0x0d) {
      at = open + tag.length + 1;
      continue;
    }
    const end = xml.indexOf(close, open);
    if (end < 0) break;
    const block = xml.slice(open, end);
    const loc = field(block, 'loc');
    if (loc) entries.push({ loc, lastmod: field(block, 'lastmod') });
    at = end + close.length;
  }
  return entries;
}

export function parseSitemap(xml: string, maxEntries = 50_000): Sitemap {
  const index =
    /<sitemapindex[\s>]/.test(xml.slice(0, 4096)) || (xml.includes('<sitemapindex') && !xml.includes('<urlset'));
  return index
    ? { kind: 'index', entries: scan(xml, 'sitemap', maxEntries) }
    : { kind: 'urlset', entries: scan(xml, 'url', maxEntries) };
}
