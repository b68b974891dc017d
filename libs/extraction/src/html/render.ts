import type { Node } from 'node-html-parser';
import { attr, collapse, type HTMLElement, isElement, isText, resolveUrl, tagOf, textOf } from './dom';
import { BLOCK, codeLanguage, imageSrc, PERMALINK } from './elements';

/** Markdown and plain text of the chosen content nodes (cleaned HTML: see clean-html.ts). */
export interface RenderContext {
  base: URL | null;
  isDataTable: (table: HTMLElement) => boolean;
}

const HEADING = /^h([1-6])$/;

class Renderer {
  private strong = 0;
  private em = 0;
  private readonly blockCache = new Map<HTMLElement, boolean>();

  constructor(
    private readonly md: boolean,
    private readonly ctx: RenderContext,
  ) {}

  render(nodes: HTMLElement[]): string {
    const blocks: string[] = [];
    for (const n of nodes)
      blocks.push(...(this.isBlock(n, tagOf(n)) ? this.block(n, tagOf(n)) : this.children(n.childNodes)));
    return blocks
      .filter((b) => b.trim())
      .join('\n\n')
      .trim();
  }

  /** A block element, or an inline one that wraps blocks (a card link around a heading and text). */
  private isBlock(el: HTMLElement, tag: string): boolean {
    if (BLOCK.has(tag)) return true;
    let v = this.blockCache.get(el);
    if (v === undefined) {
      v = el.childNodes.some((c) => isElement(c) && this.isBlock(c, tagOf(c)));
      this.blockCache.set(el, v);
    }
    return v;
  }

  /** Blocks of a container's children: runs of inline content become paragraphs. */
  private children(nodes: Node[]): string[] {
    const blocks: string[] = [];
    let run = '';
    const flush = () => {
      for (const p of this.paragraphs(run)) blocks.push(p);
      run = '';
    };
    for (const c of nodes) {
      if (isText(c)) run += this.escape(collapse(textOf(c)));
      else if (isElement(c)) {
        const tag = tagOf(c);
        if (tag === 'br') run += '\n';
        else if (this.isBlock(c, tag)) {
          flush();
          blocks.push(...this.block(c, tag));
        } else run += this.inline(c, tag);
      }
    }
    flush();
    return blocks;
  }

  /** An inline run: <br> breaks lines, two in a row break paragraphs. */
  private paragraphs(run: string): string[] {
    if (!run.trim()) return [];
    const out: string[] = [];
    let lines: string[] = [];
    for (const raw of run.split('\n')) {
      const line = raw.replace(/ {2,}/g, ' ').trim();
      if (line) lines.push(this.md ? escapeLineStart(line) : line);
      else if (lines.length) {
        out.push(lines.join(this.md ? '  \n' : '\n'));
        lines = [];
      }
    }
    if (lines.length) out.push(lines.join(this.md ? '  \n' : '\n'));
    return out;
  }

  private block(el: HTMLElement, tag: string): string[] {
    const h = HEADING.exec(tag);
    if (h) {
      const text = this.inlineChildren(el).replace(/\s+/g, ' ').trim();
      if (!text) return [];
      return [this.md ? `${'#'.repeat(+h[1])} ${text}` : text];
    }
    switch (tag) {
      case 'pre':
        return this.code(el);
      case 'blockquote': {
        const inner = this.children(el.childNodes);
        if (!inner.length) return [];
        if (!this.md) return inner;
        return [
          inner
            .join('\n\n')
            .split('\n')
            .map((l) => (l ? `> ${l}` : '>'))
            .join('\n'),
        ];
      }
      case 'ul':
      case 'ol':
        return this.list(el, tag === 'ol');
      case 'table':
        return this.ctx.isDataTable(el) ? this.table(el) : this.layoutTable(el);
      case 'hr':
        return this.md ? ['---'] : [];
      case 'dt': {
        const text = this.inlineChildren(el).replace(/\s+/g, ' ').trim();
        return text ? [this.md ? `**${text}**` : text] : [];
      }
      case 'summary': {
        const text = this.inlineChildren(el).replace(/\s+/g, ' ').trim();
        return text ? [this.md ? `**${text}**` : text] : [];
      }
      default:
        return this.children(el.childNodes);
    }
  }

  private list(el: HTMLElement, ordered: boolean): string[] {
    let n = Number.parseInt(attr(el, 'start') ?? '1', 10);
    if (!Number.isFinite(n)) n = 1;
    const items: string[] = [];
    for (const c of el.childNodes) {
      if (!isElement(c)) continue;
      const tag = tagOf(c);
      if (tag === 'ul' || tag === 'ol') {
        // A list nested straight in a list (invalid, common): it belongs to the previous item.
        const nested = this.list(c, tag === 'ol').join('\n');
        if (!nested) continue;
        const indented = indent(nested, this.md ? (ordered ? 3 : 2) : 2);
        if (items.length) items[items.length - 1] += `\n${indented}`;
        else items.push(indented);
        continue;
      }
      const blocks =
        tag === 'li'
          ? this.children(c.childNodes)
          : this.isBlock(c, tag)
            ? this.block(c, tag)
            : this.paragraphs(this.inline(c, tag));
      if (!blocks.length) continue;
      const marker = this.md ? (ordered ? `${n}. ` : '- ') : '';
      n++;
      let body = blocks[0];
      for (let i = 1; i < blocks.length; i++)
        body += (isListBlock(blocks[i], this.md) || !this.md ? '\n' : '\n\n') + blocks[i];
      const lines = body.split('\n');
      const pad = this.md ? marker.length : 2;
      items.push([marker + lines[0], ...lines.slice(1).map((l) => (l ? ' '.repeat(pad) + l : l))].join('\n'));
    }
    return items.length ? [items.join('\n')] : [];
  }

  private code(pre: HTMLElement): string[] {
    let text = '';
    const walk = (el: HTMLElement) => {
      for (const c of el.childNodes) {
        if (isText(c)) text += textOf(c);
        else if (isElement(c)) {
          if (tagOf(c) === 'br') text += '\n';
          else walk(c);
        }
      }
    };
    walk(pre);
    text = text.replace(/^\n/, '').replace(/\s+$/, '');
    if (!text.trim()) return [];
    if (!this.md) return [text];
    const codeEl = pre.childNodes.find((c): c is HTMLElement => isElement(c) && tagOf(c) === 'code');
    const lang = codeLanguage(codeEl) ?? codeLanguage(pre) ?? '';
    let fence = '```';
    while (text.includes(fence)) fence += '`';
    return [`${fence}${lang}\n${text}\n${fence}`];
  }

  private rows(table: HTMLElement): HTMLElement[] {
    const rows: HTMLElement[] = [];
    for (const c of table.children) {
      const tag = tagOf(c);
      if (tag === 'tr') rows.push(c);
      else if (tag === 'thead' || tag === 'tbody' || tag === 'tfoot')
        for (const r of c.children) if (tagOf(r) === 'tr') rows.push(r);
    }
    return rows;
  }

  private table(table: HTMLElement): string[] {
    const out: string[] = [];
    const caption = table.children.find((c) => tagOf(c) === 'caption');
    if (caption) out.push(...this.children(caption.childNodes));
    const grid: string[][] = [];
    for (const row of this.rows(table)) {
      const cells: string[] = [];
      for (const cell of row.children) {
        const tag = tagOf(cell);
        if (tag !== 'td' && tag !== 'th') continue;
        let text = this.children(cell.childNodes)
          .join(this.md ? '<br>' : ' ')
          .replace(/\s*\n\s*/g, ' ')
          .trim();
        if (this.md) text = text.replace(/\|/g, '\\|');
        cells.push(text);
        const span = Math.min(Number.parseInt(attr(cell, 'colspan') ?? '1', 10) || 1, 50);
        for (let i = 1; i < span; i++) cells.push('');
      }
      if (cells.some((c) => c)) grid.push(cells);
    }
    if (!grid.length) return out;
    const cols = Math.max(...grid.map((r) => r.length));
    if (!this.md) {
      out.push(grid.map((r) => r.join('\t').trimEnd()).join('\n'));
      return out;
    }
    const line = (r: string[]) => `| ${Array.from({ length: cols }, (_, i) => r[i] ?? '').join(' | ')} |`;
    const lines = [line(grid[0]), `|${' --- |'.repeat(cols)}`, ...grid.slice(1).map(line)];
    out.push(lines.join('\n'));
    return out;
  }

  private layoutTable(table: HTMLElement): string[] {
    const out: string[] = [];
    for (const row of this.rows(table)) for (const cell of row.children) out.push(...this.children(cell.childNodes));
    return out;
  }

  private inlineChildren(el: HTMLElement): string {
    let out = '';
    for (const c of el.childNodes) {
      if (isText(c)) out += this.escape(collapse(textOf(c)));
      else if (isElement(c)) {
        const tag = tagOf(c);
        if (tag === 'br') out += '\n';
        else if (this.isBlock(c, tag)) out += ` ${this.children(c.childNodes).join(' ')} `;
        else out += this.inline(c, tag);
      }
    }
    return out;
  }

  private inline(el: HTMLElement, tag: string): string {
    switch (tag) {
      case 'a':
        return this.link(el);
      case 'img':
        return this.image(el);
      case 'strong':
      case 'b':
        return this.wrap(el, '**', 'strong');
      case 'em':
      case 'i':
        return this.wrap(el, '*', 'em');
      case 'del':
      case 's':
      case 'strike':
        return this.md ? wrapText(this.inlineChildren(el), '~~') : this.inlineChildren(el);
      case 'code':
      case 'kbd':
      case 'samp':
      case 'tt': {
        const text = collapse(plainText(el));
        if (!this.md || !text.trim()) return text;
        const longest = Math.max(0, ...(text.match(/`+/g) ?? []).map((s) => s.length));
        const ticks = '`'.repeat(longest + 1);
        const pad = text.startsWith('`') || text.endsWith('`') ? ' ' : '';
        return `${ticks}${pad}${text}${pad}${ticks}`;
      }
      case 'q':
        return `"${this.inlineChildren(el)}"`;
      case 'wbr':
        return '';
      default:
        return this.inlineChildren(el);
    }
  }

  private wrap(el: HTMLElement, marker: string, kind: 'strong' | 'em'): string {
    if (!this.md || this[kind] > 0) return this.inlineChildren(el);
    this[kind]++;
    try {
      return wrapText(this.inlineChildren(el), marker);
    } finally {
      this[kind]--;
    }
  }

  private link(el: HTMLElement): string {
    const inner = this.inlineChildren(el);
    if (PERMALINK.test(inner) && !el.childNodes.some((c) => isElement(c) && tagOf(c) === 'img')) return '';
    if (!this.md) return inner;
    const href = resolveUrl(attr(el, 'href'), this.ctx.base);
    const text = inner.replace(/\s*\n\s*/g, ' ').trim();
    if (!href || !text) return inner;
    const lead = /^\s/.test(inner) ? ' ' : '';
    const trail = /\s$/.test(inner) ? ' ' : '';
    return `${lead}[${text}](${mdUrl(href)})${trail}`;
  }

  private image(el: HTMLElement): string {
    if (!this.md) return '';
    const src = imageSrc(el, this.ctx.base);
    if (!src) return '';
    const alt = collapse(attr(el, 'alt') ?? '')
      .trim()
      .replace(/[[\]]/g, '\\$&');
    return `![${alt}](${mdUrl(src)})`;
  }

  private escape(text: string): string {
    if (!this.md) return text;
    return text.replace(/[\\`*_[\]]/g, '\\$&').replace(/<(?=[A-Za-z/!?])/g, '\\<');
  }
}

const isListBlock = (block: string, md: boolean) => md && /^(?:[-*+]|\d+[.)]) /.test(block);

const indent = (s: string, n: number) =>
  s
    .split('\n')
    .map((l) => (l ? ' '.repeat(n) + l : l))
    .join('\n');

function wrapText(inner: string, marker: string): string {
  const m = /^(\s*)([\s\S]*?)(\s*)$/.exec(inner)!;
  return m[2] ? `${m[1]}${marker}${m[2]}${marker}${m[3]}` : inner;
}

/** Characters that would start a markdown block at the beginning of a line of text. */
function escapeLineStart(line: string): string {
  const ordered = /^(\d+)([.)])(\s|$)/.exec(line);
  if (ordered) return `${ordered[1]}\\${line.slice(ordered[1].length)}`;
  return /^(?:#{1,6}(?:\s|$)|>|[-+*]\s|[-=]{3,}\s*$|~~~)/.test(line) ? `\\${line}` : line;
}

const mdUrl = (url: string) => url.replace(/[()\s<>]/g, (c) => encodeURIComponent(c));

function plainText(el: HTMLElement): string {
  let out = '';
  for (const c of el.childNodes) {
    if (isText(c)) out += textOf(c);
    else if (isElement(c)) out += tagOf(c) === 'br' ? '\n' : plainText(c);
  }
  return out;
}

export function toMarkdown(nodes: HTMLElement[], ctx: RenderContext): string {
  return new Renderer(true, ctx).render(nodes);
}

export function toText(nodes: HTMLElement[], ctx: RenderContext): string {
  return new Renderer(false, ctx).render(nodes);
}
