import { type Node, parse } from 'node-html-parser';
import { absoluteUrl } from '@app/urls';
import { stripComments, tagPastLimit, treeTagsFor } from '../markup';
import { attr, type HTMLElement, isElement, isText, tagOf, textOf } from './dom';

/** Markup read for links at most: a longer page's tail is not searched for more. */
const LINK_SCAN_CHARS = 2 * 1024 * 1024;
/** Links kept per page, and the characters of their addresses and texts together. */
export const LINK_BOUNDS = { links: 2_000, chars: 1024 * 1024, textChars: 200 } as const;

export interface PageLink {
  /** Absolute http(s) address (fragment and click parameters dropped), at most MAX_URL_CHARS. */
  url: string;
  /** The anchor's text (or its title attribute), trimmed; empty when it has none. */
  text: string;
}

export interface PageLinks {
  title: string | null;
  links: PageLink[];
  /** The page's robots meta says not to follow its links (then `links` is empty). */
  nofollow: boolean;
  /** The page's robots meta says not to index it. */
  noindex: boolean;
}

const PARSE_OPTIONS = {
  comment: false,
  blockTextElements: { script: false, style: false, noscript: false },
  // Elements still open at the end stay nested, as browsers leave them: the parser's default
  // repair re-parents their children one by one, quadratic on a page of unclosed tags.
  parseNoneClosedTags: true,
};

/** The text under `el` in document order, read without recursion (a link may wrap thousands of nested tags), at most `max` characters. */
function textUnder(el: HTMLElement, max: number): string {
  let out = '';
  const stack: Node[] = [...el.childNodes].reverse();
  while (stack.length > 0 && out.length < max * 2) {
    const node = stack.pop()!;
    if (isText(node)) out += `${textOf(node)} `;
    else if (isElement(node)) for (let i = node.childNodes.length - 1; i >= 0; i--) stack.push(node.childNodes[i]!);
  }
  return out.replace(/\s+/g, ' ').trim().slice(0, max);
}

/**
 * The followable links of an HTML page, in document order, resolved against its `<base>` or its
 * own address; `rel=nofollow` anchors and pages with a robots `nofollow` meta give none. Bounded:
 * the first 2 MiB of markup, and of it what holds the first `maxTags` start tags (a tree's heap
 * grows with them), LINK_BOUNDS (2,000 links, 1 MiB of addresses and texts), addresses of at
 * most MAX_URL_CHARS (a longer `<base>` is ignored); the tree is walked without recursion, so
 * nesting of any depth reads.
 */
export function pageLinks(html: string, pageUrl: string, maxTags = treeTagsFor()): PageLinks {
  const markup = stripComments(html.slice(0, LINK_SCAN_CHARS));
  const past = tagPastLimit(markup, maxTags);
  const root = parse(past < 0 ? markup : markup.slice(0, past), PARSE_OPTIONS);
  let title: string | null = null;
  let base: string | null = null;
  let nofollow = false;
  let noindex = false;
  const anchors: HTMLElement[] = [];
  // Document order, without recursion.
  const stack: HTMLElement[] = [root];
  while (stack.length > 0) {
    const el = stack.pop()!;
    const tag = tagOf(el);
    if (tag === 'title' && title === null) title = textUnder(el, 500) || null;
    else if (tag === 'base' && base === null && attr(el, 'href') !== undefined)
      base = absoluteUrl(attr(el, 'href')!.trim(), pageUrl) ?? pageUrl;
    else if (tag === 'meta' && (attr(el, 'name') ?? '').toLowerCase() === 'robots') {
      const content = attr(el, 'content') ?? '';
      if (/\b(nofollow|none)\b/i.test(content)) nofollow = true;
      if (/\b(noindex|none)\b/i.test(content)) noindex = true;
    } else if (tag === 'a' && attr(el, 'href') !== undefined && anchors.length < LINK_BOUNDS.links * 4)
      anchors.push(el);
    for (let i = el.childNodes.length - 1; i >= 0; i--) {
      const child = el.childNodes[i]!;
      if (isElement(child)) stack.push(child);
    }
  }
  if (nofollow) return { title, links: [], nofollow: true, noindex };
  const against = base ?? pageUrl;
  const links: PageLink[] = [];
  let chars = 0;
  for (const anchor of anchors) {
    if (links.length >= LINK_BOUNDS.links) break;
    if (/\bnofollow\b/i.test(attr(anchor, 'rel') ?? '')) continue;
    const url = absoluteUrl(attr(anchor, 'href')!.trim(), against);
    if (!url) continue;
    const text =
      textUnder(anchor, LINK_BOUNDS.textChars) || (attr(anchor, 'title')?.trim() ?? '').slice(0, LINK_BOUNDS.textChars);
    chars += url.length + text.length;
    if (chars > LINK_BOUNDS.chars) break;
    links.push({ url, text });
  }
  return { title, links, nofollow: false, noindex };
}
