/**
 * The content finder's last stage: prunes inside the chosen content what a reader view leaves
 * out (Readability's conditional cleaning of link lists and galleries, negatively weighted
 * headings, bylines, ad labels) and the headline repeated at its top.
 */
import type { Node } from 'node-html-parser';
import { attr, hintsOf, type HTMLElement, innerText, isElement, isText, tagOf, textOf } from './dom';
import { CONDITIONAL, HEADINGS, BYLINE, AD_LABEL } from './content-hints';
import { normTitle, visibleLength } from './content-measures';
import type { ContentState } from './content-state';

/** Prunes furniture inside the chosen content (see the file comment). */
export class ContentPruner {
  constructor(
    private readonly relaxed: boolean,
    private readonly state: ContentState,
  ) {}

  prep(el: HTMLElement, inDataTable: boolean): void {
    const kept: Node[] = [];
    for (const c of el.childNodes) {
      if (!isElement(c)) {
        kept.push(c);
        continue;
      }
      const tag = tagOf(c);
      if (tag === 'pre' || tag === 'code') {
        kept.push(c);
        continue;
      }
      let dataTable = inDataTable;
      if (!inDataTable) {
        if (tag === 'table' && this.state.isDataTable(c)) dataTable = true;
        else if (!this.relaxed && CONDITIONAL.has(tag) && this.shouldDrop(c, tag)) continue;
        if (HEADINGS.has(tag) && this.state.classWeight(c) < 0) continue;
        if (this.isByline(c, tag) || this.isAdLabel(c)) continue;
      }
      this.prep(c, dataTable);
      kept.push(c);
    }
    this.state.setChildren(el, kept);
  }

  /** Readability's conditional cleaning: lists of links, image galleries, near-empty boxes. */
  private shouldDrop(el: HTMLElement, tag: string): boolean {
    const weight = this.state.classWeight(el);
    if (weight < 0) return true;
    const s = this.state.st(el);
    if (s.commas >= 10) return false;
    const ld = s.text ? s.link / s.text : 0;
    let isList = tag === 'ul' || tag === 'ol' || tag === 'dl';
    if (!isList && s.li > 0 && s.text > 0) {
      let listText = 0;
      for (const c of el.children) if (['ul', 'ol'].includes(tagOf(c))) listText += this.state.st(c).text;
      isList = listText / s.text > 0.9;
    }
    const headingDensity = s.text ? s.heading / s.text : 0;
    if (s.img > 1 && s.p / s.img < 0.5 && !hasAncestor(el, 'figure')) return true;
    if (!isList && s.li - 100 > s.p) return true;
    if (!isList && headingDensity < 0.9 && s.text < 25 && (s.img === 0 || s.img > 2) && ld > 0) return true;
    if (!isList && weight < 25 && ld > 0.2) return true;
    if (weight >= 25 && ld > 0.5) return true;
    // A list that is nearly all links is navigation (tag lists, "related", tables of contents).
    if (isList && ld > 0.7) return true;
    return false;
  }

  private isByline(el: HTMLElement, tag: string): boolean {
    if (HEADINGS.has(tag) || tag === 'a' || tag === 'figure' || tag === 'img' || tag === 'table') return false;
    const s = this.state.st(el);
    if (s.text > 200) return false;
    const raw = el.rawAttrs;
    if (!raw) return false;
    const hints = `${hintsOf(el)} ${attr(el, 'rel') ?? ''} ${attr(el, 'itemprop') ?? ''}`.toLowerCase();
    return BYLINE.test(hints);
  }

  private isAdLabel(el: HTMLElement): boolean {
    const s = this.state.st(el);
    if (s.text === 0 || s.text > 60 || s.img) return false;
    // A wrapper around a single element is judged at that element (keeps deep nesting linear).
    if (el.childNodes.length === 1 && isElement(el.childNodes[0])) return false;
    return AD_LABEL.test(
      innerText(el)
        .replace(/[^\p{L}\s]/gu, '')
        .trim(),
    );
  }

  /** The headline repeated at the top of the content (the title is returned on its own). */
  dropTitleHeading(nodes: HTMLElement[], title: string): void {
    const want = normTitle(title);
    if (!want) return;
    let seen = 0;
    const walk = (el: HTMLElement): boolean => {
      for (const c of el.childNodes) {
        if (isText(c)) {
          seen += visibleLength(textOf(c));
          if (seen > 150) return true;
        } else if (isElement(c)) {
          const tag = tagOf(c);
          if (tag === 'h1' || tag === 'h2') {
            const got = normTitle(innerText(c));
            if (
              got &&
              (got === want ||
                (want.includes(got) && got.length >= want.length * 0.6) ||
                (got.includes(want) && want.length >= got.length * 0.6))
            ) {
              this.state.setChildren(
                el,
                el.childNodes.filter((n) => n !== c),
              );
              return true;
            }
            seen += visibleLength(innerText(c));
            if (seen > 150) return true;
            continue;
          }
          if (walk(c)) return true;
        }
      }
      return false;
    };
    for (const n of nodes) {
      if (HEADINGS.has(tagOf(n))) continue;
      if (walk(n)) return;
    }
    // The heading itself may be one of the chosen nodes (a sibling of the article body).
    const i = nodes.findIndex((n) => HEADINGS.has(tagOf(n)) && normTitle(innerText(n)) === want);
    if (i >= 0 && i < 2) nodes.splice(i, 1);
  }
}

function hasAncestor(el: HTMLElement, tag: string): boolean {
  for (let p = el.parentNode; p; p = p.parentNode) if (tagOf(p) === tag) return true;
  return false;
}
