/**
 * The content finder's third stage: scores paragraph containers by their text, commas and class
 * hints (Readability's scoring), discounts links, and chooses the best container with the siblings
 * that qualify, or the semantic container (<article>, <main>, role=main) around or inside it.
 */
import { attr, type HTMLElement, innerText, isElement, isText, tagOf, textOf } from './dom';
import type { PageMeta } from './metadata';
import { DIVLIKE, SCORE_TAGS } from './content-hints';
import { countCommas, visibleLength } from './content-measures';
import type { ContentState } from './content-state';

const INLINE_RUN = new Set([
  'a',
  'b',
  'strong',
  'i',
  'em',
  'span',
  'font',
  'u',
  'small',
  'big',
  'code',
  'abbr',
  'cite',
  'q',
  'sub',
  'sup',
  'mark',
  'time',
]);

/** Chooses the main content of a measured page body (see the file comment). */
export class ContentChoice {
  constructor(
    private readonly body: HTMLElement,
    private readonly meta: PageMeta,
    private readonly state: ContentState,
  ) {}

  choose(): HTMLElement[] {
    const scores = new Map<HTMLElement, number>();
    const init = (el: HTMLElement): number => {
      let s = scores.get(el);
      if (s === undefined) {
        s = tagBase(tagOf(el)) + this.state.classWeight(el);
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
        const s = this.state.st(c);
        if (tag === 'a') continue; // a link is never a paragraph of the article
        const leaf = !s.block && (SCORE_TAGS.has(tag) || DIVLIKE.has(tag));
        if (leaf) {
          if (s.text >= 25 && (tag !== 'li' || s.link / s.text < 0.5))
            credit(c.parentNode, unitScore(s.text, s.commas));
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
              const ns = this.state.st(n);
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
    for (const [el, s] of scores) ranked.push([el, s * (1 - this.state.linkDensity(el))]);
    if (ranked.length === 0) return [this.body];
    ranked.sort((a, b) => b[1] - a[1]);
    const final = new Map(ranked);
    let top = ranked[0][0];
    const topScore = ranked[0][1];

    // Several near-best candidates under one ancestor: the content is split, take the ancestor.
    const alternatives = ranked
      .slice(1, 5)
      .filter(([, s]) => s >= topScore * 0.75)
      .map(([el]) => el);
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
    while (
      top.parentNode &&
      top.parentNode !== this.body &&
      top.parentNode.rawTagName &&
      top.parentNode.children.length === 1
    )
      top = top.parentNode;

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
      const st = this.state.st(sib);
      if (tag === 'p' || (DIVLIKE.has(tag) && !st.block)) {
        const ld = this.state.linkDensity(sib);
        if (st.text > 80 && ld < 0.25) out.push(sib);
        else if (st.text > 0 && st.text <= 80 && ld === 0 && /[.!?。](?:\s|$)/.test(innerText(sib))) out.push(sib);
      }
    }
    return out;
  }

  /** <article>/<main>/role=main around or inside the choice, when what that changes looks like content. */
  private preferSemantic(top: HTMLElement, nodes: HTMLElement[]): HTMLElement[] {
    const chosenText = nodes.reduce((n, el) => n + this.state.st(el).text, 0);
    const chosenLink = nodes.reduce((n, el) => n + this.state.st(el).link, 0);
    const articles = this.meta.semantic.filter((el) => tagOf(el) === 'article' && this.state.stats.has(el));
    // Many <article>s side by side are teasers of a listing, not the article.
    const candidates = this.meta.semantic.filter(
      (el) => this.state.stats.has(el) && (tagOf(el) !== 'article' || articles.length === 1 || contains(el, top)),
    );
    // Most specific first: itemprop=articleBody, then article, then main / role=main.
    candidates.sort((a, b) => rank(a) - rank(b));
    for (const s of candidates) {
      const st = this.state.st(s);
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
}

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
