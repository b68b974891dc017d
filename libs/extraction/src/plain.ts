import { escapeHtml } from './html/dom';

/**
 * text/plain and text/markdown pass through: the body is already the content. Markdown gets a
 * plain-text and an HTML rendering of its common block and inline syntax; nothing is dropped.
 */
export function normalizeText(body: string): string {
  const lines = body
    .replace(/^\uFEFF/, '')
    .replace(/\r\n?/g, '\n')
    .split('\n');
  return lines
    .map(withoutTrailingBlanks)
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/**
 * A line without the spaces and tabs it ends with. (Not /[ \t]+$/: tried from every position of a
 * run of blanks that something follows, it is quadratic, minutes on a line of 300,000 spaces.)
 */
function withoutTrailingBlanks(line: string): string {
  let end = line.length;
  while (end > 0 && (line.charCodeAt(end - 1) === 32 || line.charCodeAt(end - 1) === 9)) end--;
  return end === line.length ? line : line.slice(0, end);
}

/** Title of a text document: its first heading (markdown), else its first line if short enough. */
export function textTitle(text: string, markdown: boolean): string | null {
  if (markdown) {
    const atx = /^#{1,6}[ \t]+(.+?)[ \t#]*$/m.exec(text);
    const setext = /^(\S[^\n]*)\n(?:=+|-+)[ \t]*$/m.exec(text);
    const pick = atx && setext ? (atx.index < setext.index ? atx[1] : setext[1]) : (atx?.[1] ?? setext?.[1]);
    if (pick) return stripInline(pick).trim() || null;
  }
  const first = text.split('\n').find((l) => l.trim());
  if (!first) return null;
  const line = (markdown ? stripInline(first.replace(/^[#>\s*-]+/, '')) : first).trim();
  return line.length > 0 && line.length <= 200 ? line : null;
}

const stripInline = (s: string): string =>
  s
    .replace(/!\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/(\*\*|__|~~)(.+?)\1/g, '$2')
    .replace(/(^|[^\w*])[*_](\S(?:.*?\S)?)[*_](?![\w*])/g, '$1$2')
    .replace(/`([^`]+)`/g, '$1')
    .replace(/\\([\\`*_[\]#>+\-.!<])/g, '$1');

/** Markdown without its syntax. */
export function markdownToText(md: string): string {
  const out: string[] = [];
  let fence: string | null = null;
  for (const line of md.split('\n')) {
    const f = /^\s*(`{3,}|~{3,})/.exec(line);
    if (f && (!fence || f[1].startsWith(fence))) {
      fence = fence ? null : f[1];
      continue;
    }
    if (fence) {
      out.push(line);
      continue;
    }
    if (/^\s*\|?\s*:?-{3,}:?\s*(\|\s*:?-{3,}:?\s*)*\|?\s*$/.test(line) && line.includes('-')) continue; // table rule
    // (Character classes only: a repeated group backtracks a frame a repetition, and a line of
    // five million "*" or ">" exhausts the stack.)
    if ((/^[\s*_-]+$/.test(line) && line.replace(/\s+/g, '').length >= 3) || /^\s*(?:=+|-+)\s*$/.test(line)) continue;
    let l = line.replace(/^\s{0,3}#{1,6}\s+/, '').replace(/\s+#+\s*$/, '');
    l = l.replace(/^[ \t]*>[ \t>]*/, '').replace(/^(\s*)(?:[-*+]|\d+[.)])\s+/, '$1');
    if (/^\s*\|.*\|\s*$/.test(l))
      l = l
        .trim()
        .replace(/^\||\|$/g, '')
        .split(/(?<!\\)\|/)
        .map((c) => c.trim())
        .join('\t');
    out.push(stripInline(l));
  }
  return normalizeText(out.join('\n'));
}

/** A small markdown-to-HTML for the block and inline syntax documents commonly use. */
export function markdownToHtml(md: string): string {
  const html: string[] = [];
  const lines = md.split('\n');
  let para: string[] = [];
  let list: { tag: 'ul' | 'ol'; items: string[] } | null = null;
  const flushPara = () => {
    if (para.length) html.push(`<p>${inline(para.join(' '))}</p>`);
    para = [];
  };
  const flushList = () => {
    if (list) html.push(`<${list.tag}>${list.items.map((i) => `<li>${inline(i)}</li>`).join('')}</${list.tag}>`);
    list = null;
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const fence = /^\s*(`{3,}|~{3,})\s*([\w+#.-]*)/.exec(line);
    if (fence) {
      flushPara();
      flushList();
      const code: string[] = [];
      while (++i < lines.length && !lines[i].trim().startsWith(fence[1])) code.push(lines[i]);
      const cls = fence[2] ? ` class="language-${escapeHtml(fence[2].toLowerCase())}"` : '';
      html.push(`<pre><code${cls}>${escapeHtml(code.join('\n'))}</code></pre>`);
      continue;
    }
    const heading = /^\s{0,3}(#{1,6})\s+(.*?)\s*#*\s*$/.exec(line);
    const item = /^\s*([-*+]|\d+[.)])\s+(.*)$/.exec(line);
    if (!line.trim()) {
      flushPara();
      flushList();
    } else if (heading) {
      flushPara();
      flushList();
      html.push(`<h${heading[1].length}>${inline(heading[2])}</h${heading[1].length}>`);
    } else if (item) {
      flushPara();
      const tag = /\d/.test(item[1]) ? 'ol' : 'ul';
      if (list && list.tag !== tag) flushList();
      list ??= { tag, items: [] };
      list.items.push(item[2]);
    } else if (/^\s*>/.test(line)) {
      flushPara();
      flushList();
      html.push(`<blockquote><p>${inline(line.replace(/^\s*>\s?/, ''))}</p></blockquote>`);
    } else if (list && /^\s+\S/.test(line)) {
      list.items[list.items.length - 1] += ` ${line.trim()}`;
    } else {
      flushList();
      para.push(line.trim());
    }
  }
  flushPara();
  flushList();
  return html.join('\n');
}

function inline(s: string): string {
  // Code spans first, so their contents are not read as other syntax.
  const codes: string[] = [];
  let out = s.replace(/`([^`]+)`/g, (_, c: string) => `\u0000${codes.push(c) - 1}\u0000`);
  out = escapeHtml(out)
    .replace(
      /!\[([^\]]*)\]\(([^)\s]+)[^)]*\)/g,
      (_, alt: string, src: string) =>
        `<img src="${src.replace(/"/g, '&quot;')}" alt="${alt.replace(/"/g, '&quot;')}">`,
    )
    .replace(
      /\[([^\]]+)\]\(([^)\s]+)[^)]*\)/g,
      (_, text: string, href: string) => `<a href="${href.replace(/"/g, '&quot;')}">${text}</a>`,
    )
    .replace(/(\*\*|__)(.+?)\1/g, '<strong>$2</strong>')
    .replace(/(^|[^\w*])[*_](\S(?:.*?\S)?)[*_](?![\w*])/g, '$1<em>$2</em>');
  return out.replace(/\u0000(\d+)\u0000/g, (_, i: string) => `<code>${escapeHtml(codes[+i])}</code>`);
}

export function plainToHtml(text: string): string {
  return text
    .split(/\n{2,}/)
    .filter((p) => p.trim())
    .map((p) => `<p>${escapeHtml(p).replace(/\n/g, '<br>')}</p>`)
    .join('\n');
}
