/**
 * What the content finder's stages share about one page: each element's measures (text, links,
 * commas, paragraphs...), its class weight and data-table verdict, each worked out once, and the
 * first children list of every element cleaning replaced.
 */
import type { Node } from 'node-html-parser';
import { hintsOf, type HTMLElement, isElement, isText, tagOf, textOf } from './dom';
import { BLOCKISH, HEADINGS, NEGATIVE_WEIGHT, POSITIVE } from './content-hints';
import { countCommas, dataTable, visibleLength } from './content-measures';

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

export class ContentState {
  readonly stats = new Map<HTMLElement, Stats>();
  private readonly weights = new Map<HTMLElement, number>();
  private readonly dataTables = new Map<HTMLElement, boolean>();

  constructor(
    private readonly relaxed: boolean,
    /**
     * Cleaning prunes the tree by replacing children lists; the first list each element had is
     * kept here, so the tree can be put back for a second pass without parsing the page again.
     */
    private readonly replaced: Map<HTMLElement, Node[]>,
  ) {}

  /** Replaces an element's children, keeping its first list in `replaced`. */
  setChildren(el: HTMLElement, nodes: Node[]): void {
    if (!this.replaced.has(el)) this.replaced.set(el, el.childNodes);
    el.childNodes = nodes;
  }

  measure(el: HTMLElement): Stats {
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

  st = (el: HTMLElement): Stats => this.stats.get(el) ?? ZERO;
  linkDensity = (el: HTMLElement): number => {
    const s = this.st(el);
    return s.text ? s.link / s.text : 0;
  };

  classWeight(el: HTMLElement): number {
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

  isDataTable(table: HTMLElement): boolean {
    let v = this.dataTables.get(table);
    if (v === undefined) {
      v = dataTable(table);
      this.dataTables.set(table, v);
    }
    return v;
  }
}
