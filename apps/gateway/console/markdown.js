/**
 * A small, safe Markdown renderer for research reports. The whole text is HTML-escaped first;
 * only then are headings, paragraphs, lists, **bold**, `code`, http(s) links and citations
 * recognised, and every value put inside an attribute comes from that escaped text (which holds
 * no raw `<`, `>`, `"` or `'`), so no markup from the report can reach the page.
 *
 * Citations `[N]` and `[1, 3]` become `<a href="#source-N" data-testid="citation">[N]</a>` for each
 * N that `citable(N)` accepts (default: every N); the page handles their clicks (hash router).
 */

const ESCAPES = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
export const escapeHtml = (text) => String(text).replace(/[&<>"']/g, (c) => ESCAPES[c]);

const HEADING = /^(#{1,6})[ \t]+(.*?)[ \t#]*$/;
const BULLET = /^[ \t]*[-*+][ \t]+(.*)$/;
const ORDERED = /^[ \t]*(\d{1,9})[.)][ \t]+(.*)$/;
const RULE = /^[ \t]*(?:-[ \t]*){3,}$|^[ \t]*(?:\*[ \t]*){3,}$/;
const CITATION = /\[(\d{1,4}(?:[ \t]*,[ \t]*\d{1,4})*)\]/g;
const LINK = /\[([^\]\n]+)\]\((https?:\/\/[^\s)]+)\)/g;
// Escaped text: a URL stops at whitespace or at an escaped quote or angle bracket.
const BARE_URL = /https?:\/\/(?:(?!&quot;|&#39;|&lt;|&gt;)\S)+/g;
const TRAILING_PUNCTUATION = /[.,;:!?)\]]+$/;

const anchor = (href, text) => `<a href="${href}" target="_blank" rel="noopener noreferrer">${text}</a>`;

/** Inline markup of one escaped block of text. */
function inline(escaped, citable) {
  const held = [];
  const hold = (html) => `\u0000${held.push(html) - 1}\u0000`;
  let text = escaped.replace(/`([^`\n]+)`/g, (_, code) => hold(`<code>${code}</code>`));
  text = text.replace(LINK, (_, label, href) => hold(anchor(href, label)));
  text = text.replace(BARE_URL, (url) => {
    const tail = url.match(TRAILING_PUNCTUATION)?.[0] ?? '';
    const href = url.slice(0, url.length - tail.length);
    return hold(anchor(href, href)) + tail;
  });
  text = text.replace(CITATION, (whole, list) => {
    const numbers = list.split(',').map((n) => Number(n.trim()));
    if (!numbers.every((n) => citable(n))) return whole;
    return hold(
      numbers.map((n) => `<a href="#source-${n}" class="citation" data-testid="citation">[${n}]</a>`).join(''),
    );
  });
  text = text.replace(/\*\*([^*\n]+?)\*\*/g, '<strong>$1</strong>');
  return text.replace(/\u0000(\d+)\u0000/g, (_, i) => held[Number(i)]);
}

/** The report as HTML (a string that is safe to assign to innerHTML). */
export function renderMarkdown(markdown, { citable = () => true } = {}) {
  const source = escapeHtml(String(markdown ?? '').replace(/\u0000/g, ''));
  const out = [];
  let paragraph = [];
  let list = null; // {tag, items: [string]}

  const flushParagraph = () => {
    if (!paragraph.length) return;
    // A line that starts with a citation ("[2] Title — url", as in a Sources section) keeps its own line.
    const html = paragraph
      .map((line, i) =>
        i > 0 && /^\[\d/.test(line) ? `<br>${inline(line, citable)}` : (i > 0 ? ' ' : '') + inline(line, citable),
      )
      .join('');
    out.push(`<p>${html}</p>`);
    paragraph = [];
  };
  const flushList = () => {
    if (!list) return;
    out.push(`<${list.tag}>${list.items.map((item) => `<li>${inline(item, citable)}</li>`).join('')}</${list.tag}>`);
    list = null;
  };
  const flush = () => (flushParagraph(), flushList());

  for (const line of source.split(/\r\n|\r|\n/)) {
    if (line.trim() === '') {
      flush();
      continue;
    }
    const heading = HEADING.exec(line);
    if (heading) {
      flush();
      const level = Math.min(6, heading[1].length + 1);
      out.push(`<h${level}>${inline(heading[2], citable)}</h${level}>`);
      continue;
    }
    if (RULE.test(line)) {
      flush();
      out.push('<hr>');
      continue;
    }
    const bullet = BULLET.exec(line);
    const ordered = bullet ? null : ORDERED.exec(line);
    if (bullet || ordered) {
      flushParagraph();
      const tag = bullet ? 'ul' : 'ol';
      if (list?.tag !== tag) {
        flushList();
        list = { tag, items: [] };
      }
      list.items.push(bullet ? bullet[1] : ordered[2]);
      continue;
    }
    if (list && /^[ \t]+/.test(line)) {
      list.items[list.items.length - 1] += ` ${line.trim()}`;
      continue;
    }
    flushList();
    paragraph.push(line.trim());
  }
  flush();
  return out.join('\n');
}
