import { externalLink, h } from '/console/dom.js';
import { renderMarkdown } from '/console/markdown.js';

/**
 * A cited Markdown report and its numbered sources (`<li id="source-N">`). Citations jump to their
 * source in place: the click is handled here, so the hash router never sees `#source-N`.
 */
export function reportBlock(markdown, sources) {
  const numbers = new Set(sources.map((s) => Number(s.index)));
  const article = h('article', { class: 'report card', 'data-testid': 'report' });
  article.innerHTML = renderMarkdown(markdown, { citable: (n) => numbers.has(n) });
  const list = h(
    'ol',
    { class: 'sources' },
    sources.map((s) =>
      h(
        'li',
        { id: `source-${s.index}`, 'data-testid': 'source', value: s.index },
        externalLink(s.url, s.title || s.url),
        ' ',
        h('span', { class: 'domain' }, s.domain ?? ''),
        s.quality ? h('span', { class: 'tag' }, `${s.quality} quality`) : null,
      ),
    ),
  );
  const section = h('section', { class: 'report-wrap' }, h('h2', {}, 'Report'), article, h('h2', {}, 'Sources'), list);
  section.addEventListener('click', (event) => {
    const link = event.target.closest?.('a.citation');
    if (!link) return;
    event.preventDefault();
    const target = document.getElementById(link.getAttribute('href').slice(1));
    if (!target) return;
    target.scrollIntoView({ block: 'center' });
    target.classList.remove('flash');
    void target.offsetWidth; // restarts the highlight animation
    target.classList.add('flash');
  });
  return section;
}
