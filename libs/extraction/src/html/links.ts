import { parse } from 'node-html-parser';
import { absoluteUrl } from '@app/urls';
import { stripComments } from '../markup';

/** Markup read for links at most: a longer page's tail is not searched for more. */
const LINK_SCAN_CHARS = 2 * 1024 * 1024;
const MAX_LINKS = 2_000;
const TEXT_CHARS = 200;

export interface PageLink {
  /** Absolute http(s) address (fragment and click parameters dropped). */
  url: string;
  /** The anchor's text (or its title attribute), trimmed; empty when it has none. */
  text: string;
}

export interface PageLinks {
  title: string | null;
  links: PageLink[];
  /** The page's robots meta says not to follow its links (then `links` is empty). */
  nofollow: boolean;
}

/**
 * The followable links of an HTML page, in document order, resolved against its `<base>` or its
 * own address; `rel=nofollow` anchors and pages with a robots `nofollow` meta give none. Bounded:
 * the first 2 MiB of markup, the first 2,000 links.
 */
export function pageLinks(html: string, pageUrl: string): PageLinks {
  const root = parse(stripComments(html.slice(0, LINK_SCAN_CHARS)), { blockTextElements: { script: false, style: false, noscript: false } });
  const title = root.querySelector('title')?.text.replace(/\s+/g, ' ').trim() || null;
  const robots = (root.querySelector('meta[name="robots"]')?.getAttribute('content') ?? '').toLowerCase();
  if (/\b(nofollow|none)\b/.test(robots)) return { title, links: [], nofollow: true };
  const base = absoluteUrl(root.querySelector('base[href]')?.getAttribute('href') ?? '', pageUrl) ?? pageUrl;
  const links: PageLink[] = [];
  for (const anchor of root.querySelectorAll('a[href]')) {
    if (links.length >= MAX_LINKS) break;
    if (/\bnofollow\b/i.test(anchor.getAttribute('rel') ?? '')) continue;
    const url = absoluteUrl(anchor.getAttribute('href')!.trim(), base);
    if (!url) continue;
    const text = (anchor.text.replace(/\s+/g, ' ').trim() || anchor.getAttribute('title')?.trim() || '').slice(0, TEXT_CHARS);
    links.push({ url, text });
  }
  return { title, links, nofollow: false };
}
