import type { Node } from 'node-html-parser';
import { attr, hintsOf, type HTMLElement, innerText, isElement, isText, tagOf, textOf } from './dom';
import type { PageMeta } from './metadata';
import { DROP_TAGS, DROP_ROLES, HIDDEN_CLASSES, FURNITURE, LAYOUT, OUTSIDE_ONLY, FURNITURE_SUBSTR, LAYOUT_SUBSTR, POSITIVE, NEGATIVE_WEIGHT, BLOCKISH, DIVLIKE, SCORE_TAGS, CONDITIONAL, HEADINGS, BYLINE, AD_LABEL } from './content-hints';
import { countCommas, dataTable, normTitle, rawTextLength, visibleLength } from './content-measures';

/**
 * Finds the main content of a page the way reader views do (Readability, Boilerpipe-style text
 * density): drop what is never content, score paragraph containers by their text, commas and
 * class/id hints, penalise link density, take the best container plus qualifying siblings, then
 * prune furniture inside it. Semantic containers (<article>, <main>, role=main) win when the
 * extra text they hold looks like content rather than links.
 */


export interface Stats {
  text: number;
  link: number;
  commas: number;
  p: number;
  img: number;
  li: number;
  heading: number;
  /** A block-level descendant (Readability's div-to-paragraph test). */
  block: boolean;
}
const ZERO: Stats = { text: 0, link: 0, commas: 0, p: 0, img: 0, li: 0, heading: 0, block: false };

export class ContentFinder {
  readonly stats = new Map<HTMLElement, Stats>();
  private readonly weights = new Map<HTMLElement, number>();
  private readonly dataTables = new Map<HTMLElement, boolean>();
  private bodyText = 0;
  private primary = new Set<HTMLElement>();

  constructor(
    private readonly body: HTMLElement,
    private readonly meta: PageMeta,
    private readonly relaxed: boolean,
    /**
     * Cleaning prunes the tree by replacing children lists; the first list each element had is
     * kept here, so the tree can be put back for a second pass without parsing the page again.
     */
    private readonly replaced: Map<HTMLElement, Node[]> = new Map(),
  ) {}

  /** Replaces an element's children, keeping its first list in `replaced`. */
  private setChildren(el: HTMLElement, nodes: Node[]): void {
    if (!this.replaced.has(el)) this.replaced.set(el, el.childNodes);
    el.childNodes = nodes;
  }

  /** The main content as the element(s) to render, in document order. Mutates the tree. */
  find(title: string | null): HTMLElement[] {
    this.bodyText = rawTextLength(this.body);
    this.primary = this.primaryAncestors();
    this.clean(this.body, false);
    this.measure(this.body);
    const nodes = this.choose();
    for (const n of nodes) this.prep(n, false);
    if (title) this.dropTitleHeading(nodes, title);
    return nodes;
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

  // ---- 1. remove what is never content -------------------------------------------------------

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
    this.setChildren(el, kept);
  }

  private isHidden(el: HTMLElement): boolean {
    const raw = el.rawAttrs;
    if (!raw) return false;
    if (raw.includes('hidden')) {
      if (el.hasAttribute('hidden') || attr(el, 'aria-hidden') === 'true') return true;
      if (HIDDEN_CLASSES.test((attr(el, 'class') ?? '').toLowerCase())) return true;
    } else if (raw.includes('sr-only') || raw.includes('screen-reader') || raw.includes('d-none') || raw.includes('hide')) {
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

  // ---- 2. measure -----------------------------------------------------------------------------

  private measure(el: HTMLElement): Stats {
    const s: Stats = { text: 0, link: 0, commas: 0, p: 0, img: 0, li: 0, heading: 0, block: false };
    const tag = tagOf(el);
    let br = false;
    for (const c of el.childNodes) {
      if (isText(c)) {
        const t = textOf(c);
        const len = visibleLength(t);
        if (len === 0) continue;
        if (len > 1) br = false;
        s.text += len;
        s.commas += countCommas(t);
      } else if (isElement(c)) {
        const cs = this.measure(c);
        const ctag = tagOf(c);
        s.text += cs.text;
        s.link += ctag === 'a' ? cs.text : cs.link;
        s.commas += cs.commas;
        s.p += cs.p + (ctag === 'p' ? 1 : 0);
        s.img += cs.img + (ctag === 'img' ? 1 : 0);
        s.li += cs.li + (ctag === 'li' ? 1 : 0);
        s.heading += HEADINGS.has(ctag) ? cs.text : cs.heading;
        if (cs.block || BLOCKISH.has(ctag)) s.block = true;
        // <br><br> separates paragraphs (Readability rewrites them into <p>s): a block boundary too.
        if (ctag === 'br') {
          if (br) s.block = true;
          br = true;
        } else br = false;
      }
    }
    if (tag === 'a' && s.link > s.text) s.link = s.text;
    this.stats.set(el, s);
    return s;
  }

  private st = (el: HTMLElement): Stats => this.stats.get(el) ?? ZERO;
  private linkDensity = (el: HTMLElement): number => {
    const s = this.st(el);
    return s.text ? s.link / s.text : 0;
  };

  private classWeight(el: HTMLElement): number {
    if (this.relaxed) return 0;
    let w = this.weights.get(el);
    if (w === undefined) {
      const hints = hintsOf(el);
      w = 0;
      if (hints) {
        if (NEGATIVE_WEIGHT.test(hints)) w -= 25;
        if (POSITIVE.test(hints)) w += 25;
      }
      this.weights.set(el, w);
    }
    return w;
  }

  // ---- 3. score and choose --------------------------------------------------------------------

  private choose(): HTMLElement[] {
    const scores = new Map<HTMLElement, number>();
    const init = (el: HTMLElement): number => {
      let s = scores.get(el);
      if (s === undefined) {
        s = tagBase(tagOf(el)) + this.classWeight(el);
        scores.set(el, s);
      }
      return s;
    };
    const credit = (start: HTMLElement | null, unitScore: number) => {
      let level = 0;
      for (let a = start; a && level < 5; a = a.parentNode, level++) {
        if (!a.rawTagName || tagOf(a) === 'html') break;
        const divider = level === 0 ? 1 : level === 1 ? 2 : level * 3;
        scores.set(a, init(a) + unitScore / divider);
      }
    };
    const unitScore = (len: number, commas: number) => 1 + commas + Math.min(Math.floor(len / 100), 3);

    const visit = (el: HTMLElement) => {
      for (const c of el.children) {
        const tag = tagOf(c);
        const s = this.st(c);
        if (tag === 'a') continue; // a link is never a paragraph of the article
        const leaf = !s.block && (SCORE_TAGS.has(tag) || DIVLIKE.has(tag));
        if (leaf) {
          if (s.text >= 25 && (tag !== 'li' || s.link / s.text < 0.5)) credit(c.parentNode, unitScore(s.text, s.commas));
          continue;
        }
        // A paragraph holding an image is still a paragraph; a table cell or quote holding blocks is a container.
        if ((tag === 'p' || tag === 'pre') && s.text >= 25) credit(c.parentNode, unitScore(s.text, s.commas));
        if (DIVLIKE.has(tag)) {
          // Text written straight into a container (div soup, <br><br> between paragraphs): each run
          // between blocks or double breaks is a paragraph of it, as Readability's <br> rewriting makes.
          let len = 0;
          let commas = 0;
          let br = false;
          const flush = () => {
            if (len >= 25) credit(c, unitScore(len, commas));
            len = commas = 0;
          };
          for (const n of c.childNodes) {
            if (isText(n)) {
              const t = textOf(n);
              const l = visibleLength(t);
              if (l > 1) br = false;
              len += l;
              commas += countCommas(t);
            } else if (isElement(n)) {
              const ntag = tagOf(n);
              const ns = this.st(n);
              if (ntag === 'br') {
                if (br) flush();
                br = true;
              } else if (INLINE_RUN.has(ntag) && !ns.block) {
                if (ntag !== 'a') len += ns.text;
                commas += ns.commas;
                br = false;
              } else flush();
            }
          }
          flush();
        }
        visit(c);
      }
    };
    visit(this.body);

    const ranked: Array<[HTMLElement, number]> = [];
    for (const [el, s] of scores) ranked.push([el, s * (1 - this.linkDensity(el))]);
    if (ranked.length === 0) return [this.body];
    ranked.sort((a, b) => b[1] - a[1]);
    const final = new Map(ranked);
    let top = ranked[0][0];
    const topScore = ranked[0][1];

    // Several near-best candidates under one ancestor: the content is split, take the ancestor.
    const alternatives = ranked.slice(1, 5).filter(([, s]) => s >= topScore * 0.75).map(([el]) => el);
    if (alternatives.length >= 3) {
      for (let p = top.parentNode; p && p !== this.body && p.rawTagName; p = p.parentNode) {
        if (alternatives.filter((a) => contains(p!, a)).length >= 3) {
          top = p;
          break;
        }
      }
    }
    // Climb while the parent scores better (the article body split across sub-containers).
    let lastScore = final.get(top) ?? 0;
    const threshold = lastScore / 3;
    for (let p = top.parentNode; p && p !== this.body && p.rawTagName; p = p.parentNode) {
      const ps = final.get(p);
      if (ps === undefined) continue;
      if (ps < threshold) break;
      if (ps > lastScore) {
        top = p;
        break;
      }
      lastScore = ps;
    }
    while (top.parentNode && top.parentNode !== this.body && top.parentNode.rawTagName && top.parentNode.children.length === 1) top = top.parentNode;

    let nodes = this.withSiblings(top, final);
    nodes = this.preferSemantic(top, nodes);
    return nodes;
  }

  private withSiblings(top: HTMLElement, final: Map<HTMLElement, number>): HTMLElement[] {
    const parent = top.parentNode;
    if (!parent || top === this.body || !parent.rawTagName) return [top];
    const topScore = final.get(top) ?? 0;
    const threshold = Math.max(10, topScore * 0.2);
    const topClass = attr(top, 'class') ?? '';
    const out: HTMLElement[] = [];
    for (const sib of parent.children) {
      if (sib === top) {
        out.push(sib);
        continue;
      }
      const bonus = topClass && attr(sib, 'class') === topClass ? topScore * 0.2 : 0;
      const s = final.get(sib);
      if (s !== undefined && s + bonus >= threshold) {
        out.push(sib);
        continue;
      }
      const tag = tagOf(sib);
      const st = this.st(sib);
      if (tag === 'p' || (DIVLIKE.has(tag) && !st.block)) {
        const ld = this.linkDensity(sib);
        if (st.text > 80 && ld < 0.25) out.push(sib);
        else if (st.text > 0 && st.text <= 80 && ld === 0 && /[.!?。](?:\s|$)/.test(innerText(sib))) out.push(sib);
      }
    }
    return out;
  }

  /** <article>/<main>/role=main around or inside the choice, when what that changes looks like content. */
  private preferSemantic(top: HTMLElement, nodes: HTMLElement[]): HTMLElement[] {
    const chosenText = nodes.reduce((n, el) => n + this.st(el).text, 0);
    const chosenLink = nodes.reduce((n, el) => n + this.st(el).link, 0);
    const articles = this.meta.semantic.filter((el) => tagOf(el) === 'article' && this.stats.has(el));
    // Many <article>s side by side are teasers of a listing, not the article.
    const candidates = this.meta.semantic.filter((el) => this.stats.has(el) && (tagOf(el) !== 'article' || articles.length === 1 || contains(el, top)));
    // Most specific first: itemprop=articleBody, then article, then main / role=main.
    candidates.sort((a, b) => rank(a) - rank(b));
    for (const s of candidates) {
      const st = this.st(s);
      if (st.text === 0) continue;
      if (s === top) return nodes;
      if (contains(s, top)) {
        const extra = st.text - chosenText;
        const extraLink = st.link - chosenLink;
        if (extra <= 0) return [s];
        // The extra text a wider container adds must read like content (few links) and not dwarf the choice.
        if (extraLink / extra < 0.25 && extra <= chosenText) return [s];
      } else if (contains(top, s)) {
        // Narrow to it only when what it leaves out reads like furniture (links), not a standfirst.
        const rest = chosenText - st.text;
        const restLink = chosenLink - st.link;
        if (st.text >= chosenText * 0.75 && (rest < 150 || restLink / rest >= 0.5)) return [s];
      }
    }
    return nodes;
  }

  // ---- 4. prune inside the content ------------------------------------------------------------

  private prep(el: HTMLElement, inDataTable: boolean): void {
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
        if (tag === 'table' && this.isDataTable(c)) dataTable = true;
        else if (!this.relaxed && CONDITIONAL.has(tag) && this.shouldDrop(c, tag)) continue;
        if (HEADINGS.has(tag) && this.classWeight(c) < 0) continue;
        if (this.isByline(c, tag) || this.isAdLabel(c)) continue;
      }
      this.prep(c, dataTable);
      kept.push(c);
    }
    this.setChildren(el, kept);
  }

  /** Readability's conditional cleaning: lists of links, image galleries, near-empty boxes. */
  private shouldDrop(el: HTMLElement, tag: string): boolean {
    const weight = this.classWeight(el);
    if (weight < 0) return true;
    const s = this.st(el);
    if (s.commas >= 10) return false;
    const ld = s.text ? s.link / s.text : 0;
    let isList = tag === 'ul' || tag === 'ol' || tag === 'dl';
    if (!isList && s.li > 0 && s.text > 0) {
      let listText = 0;
      for (const c of el.children) if (['ul', 'ol'].includes(tagOf(c))) listText += this.st(c).text;
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
    const s = this.st(el);
    if (s.text > 200) return false;
    const raw = el.rawAttrs;
    if (!raw) return false;
    const hints = `${hintsOf(el)} ${attr(el, 'rel') ?? ''} ${attr(el, 'itemprop') ?? ''}`.toLowerCase();
    return BYLINE.test(hints);
  }

  private isAdLabel(el: HTMLElement): boolean {
    const s = this.st(el);
    if (s.text === 0 || s.text > 60 || s.img) return false;
    // A wrapper around a single element is judged at that element (keeps deep nesting linear).
    if (el.childNodes.length === 1 && isElement(el.childNodes[0])) return false;
    return AD_LABEL.test(innerText(el).replace(/[^\p{L}\s]/gu, '').trim());
  }

  isDataTable(table: HTMLElement): boolean {
    let v = this.dataTables.get(table);
    if (v === undefined) {
      v = dataTable(table);
      this.dataTables.set(table, v);
    }
    return v;
  }

  /** The headline repeated at the top of the content (the title is returned on its own). */
  private dropTitleHeading(nodes: HTMLElement[], title: string): void {
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
            if (got && (got === want || (want.includes(got) && got.length >= want.length * 0.6) || (got.includes(want) && want.length >= got.length * 0.6))) {
              this.setChildren(el, el.childNodes.filter((n) => n !== c));
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

const INLINE_RUN = new Set(['a', 'b', 'strong', 'i', 'em', 'span', 'font', 'u', 'small', 'big', 'code', 'abbr', 'cite', 'q', 'sub', 'sup', 'mark', 'time']);

function tagBase(tag: string): number {
  switch (tag) {
    case 'div':
    case 'article':
    case 'section':
    case 'main':
      return 5;
    case 'pre':
    case 'td':
    case 'blockquote':
      return 3;
    case 'address':
    case 'ol':
    case 'ul':
    case 'dl':
    case 'dd':
    case 'dt':
    case 'li':
    case 'form':
      return -3;
    case 'h1':
    case 'h2':
    case 'h3':
    case 'h4':
    case 'h5':
    case 'h6':
    case 'th':
      return -5;
    default:
      return 0;
  }
}

const rank = (el: HTMLElement): number => {
  if (/\barticleBody\b/.test(attr(el, 'itemprop') ?? '')) return 0;
  return tagOf(el) === 'article' ? 1 : 2;
};

function contains(ancestor: HTMLElement, el: HTMLElement): boolean {
  for (let p: HTMLElement | null = el; p; p = p.parentNode) if (p === ancestor) return true;
  return false;
}

function hasAncestor(el: HTMLElement, tag: string): boolean {
  for (let p = el.parentNode; p; p = p.parentNode) if (tagOf(p) === tag) return true;
  return false;
}

export { rawTextLength, visibleLength } from './content-measures';
