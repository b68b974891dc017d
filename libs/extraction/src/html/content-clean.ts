/**
 * The content finder's first stage: removes what is never content (scripts, controls, hidden
 * text, navigation, footers, page furniture), sparing the ancestors of the semantic container
 * that most likely holds the article.
 */
import type { Node } from 'node-html-parser';
import { attr, hintsOf, type HTMLElement, isElement, isText, tagOf } from './dom';
import type { PageMeta } from './metadata';
import {
  DROP_TAGS,
  DROP_ROLES,
  HIDDEN_CLASSES,
  FURNITURE,
  LAYOUT,
  OUTSIDE_ONLY,
  FURNITURE_SUBSTR,
  LAYOUT_SUBSTR,
  HEADINGS,
} from './content-hints';
import { rawTextLength } from './content-measures';
import type { ContentState } from './content-state';

/** Removes what is never content from a page body (see the file comment). */
export class NonContentRemover {
  private readonly bodyText: number;
  private readonly primary: Set<HTMLElement>;

  constructor(
    private readonly body: HTMLElement,
    private readonly meta: PageMeta,
    private readonly relaxed: boolean,
    private readonly state: ContentState,
  ) {
    this.bodyText = rawTextLength(this.body);
    this.primary = this.primaryAncestors();
  }

  /** Removes it from the whole body. Mutates the tree. */
  run(): void {
    this.clean(this.body, false);
  }

  /** Ancestors of the semantic containers that most likely hold the article (never dropped as furniture). */
  private primaryAncestors(): Set<HTMLElement> {
    const out = new Set<HTMLElement>();
    const articles = this.meta.semantic.filter((el) => tagOf(el) === 'article');
    let biggest: HTMLElement | null = null;
    let biggestLen = 0;
    for (const a of articles) {
      const len = rawTextLength(a);
      if (len > biggestLen) [biggest, biggestLen] = [a, len];
    }
    for (const el of this.meta.semantic) {
      if (tagOf(el) === 'article' && el !== biggest) continue;
      for (let p: HTMLElement | null = el; p; p = p.parentNode) out.add(p);
    }
    return out;
  }

  private clean(el: HTMLElement, inContent: boolean, inHeading = false): void {
    const kept: Node[] = [];
    for (const c of el.childNodes) {
      if (isText(c)) {
        kept.push(c);
        continue;
      }
      if (!isElement(c)) continue;
      const tag = tagOf(c);
      // An accordion's question is a <button> inside a heading: text, not a control.
      if ((DROP_TAGS.has(tag) && !(tag === 'button' && inHeading)) || this.isHidden(c)) continue;
      const isPrimary = this.primary.has(c);
      if (!isPrimary) {
        const role = attr(c, 'role');
        if (role && DROP_ROLES.has(role.toLowerCase())) continue;
        if (tag === 'footer') continue;
        if (tag === 'header' && !inContent) continue;
        if (!this.relaxed && this.isFurniture(c, tag, inContent)) continue;
      }
      this.clean(c, inContent || isPrimary || tag === 'article' || tag === 'main', inHeading || HEADINGS.has(tag));
      kept.push(c);
    }
    this.state.setChildren(el, kept);
  }

  private isHidden(el: HTMLElement): boolean {
    const raw = el.rawAttrs;
    if (!raw) return false;
    if (raw.includes('hidden')) {
      if (el.hasAttribute('hidden') || attr(el, 'aria-hidden') === 'true') return true;
      if (HIDDEN_CLASSES.test((attr(el, 'class') ?? '').toLowerCase())) return true;
    } else if (
      raw.includes('sr-only') ||
      raw.includes('screen-reader') ||
      raw.includes('d-none') ||
      raw.includes('hide')
    ) {
      if (HIDDEN_CLASSES.test((attr(el, 'class') ?? '').toLowerCase())) return true;
    }
    if (raw.includes('style')) {
      const style = attr(el, 'style');
      if (style && /display\s*:\s*none|visibility\s*:\s*hidden/i.test(style)) return true;
    }
    return false;
  }

  private isFurniture(el: HTMLElement, tag: string, inContent: boolean): boolean {
    // Headings are never furniture by themselves (Docusaurus: "anchorWithStickyNavbar"); a heading
    // inside furniture goes with its container, and "widget-title"-like ones are pruned later by weight.
    if (tag === 'body' || tag === 'html' || tag === 'a' || HEADINGS.has(tag)) return false;
    const hints = hintsOf(el);
    if (tag === 'form') {
      // A form is a search box, a comment or newsletter form, unless it wraps the page (ASP.NET).
      return rawTextLength(el) < this.bodyText * 0.5;
    }
    if (!hints) return false;
    let layout = false;
    for (const token of hints.split(/[\s_-]+/)) {
      if (FURNITURE.has(token)) return true;
      if (LAYOUT.has(token) || (!inContent && OUTSIDE_ONLY.has(token))) layout = true;
    }
    if (FURNITURE_SUBSTR.test(hints)) return true;
    if (!layout && !LAYOUT_SUBSTR.test(hints)) return false;
    return rawTextLength(el) < this.bodyText * 0.5;
  }
}
