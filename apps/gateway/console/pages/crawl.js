import { api, viewOnceEnded } from '/console/api.js';
import { curlBlock, curlCommand } from '/console/curl.js';
import { commaList, externalLink, h, mount, plural, statusBadge } from '/console/dom.js';
import { clearErrors, showError } from '/console/errors.js';
import { busy, field, select } from '/console/form.js';
import { followEvents } from '/console/sse.js';

export const title = 'Crawl';
const ENDED = new Set(['completed', 'failed', 'cancelled']);

/**
 * #/crawl: start a crawl run (or map a site); #/crawl/<id>: watch a crawl's pages arrive over its
 * server-sent events (`page.fetched`), then its counts and credits once it ends.
 */
export function render(root, { params, signal }) {
  if (params[0]) return watch(root, params[0], signal);
  const url = h('input', { id: 'crawl-url', type: 'url', placeholder: 'https://docs.example.com/' });
  const limit = h('input', { id: 'crawl-limit', type: 'number', min: 1, max: 1000, value: '50' });
  const depth = h('input', { id: 'crawl-max_depth', type: 'number', min: 0, max: 10, value: '3' });
  const include = h('input', { id: 'crawl-include_paths', placeholder: '^/docs/, ^/guide/' });
  const exclude = h('input', { id: 'crawl-exclude_paths', placeholder: '\\.pdf$' });
  const format = select('crawl-format', ['markdown', 'text', 'html'], 'markdown');
  const submit = h('button', { id: 'crawl-submit', type: 'submit' }, 'Crawl');
  const mapButton = h('button', { id: 'map-submit', type: 'button', class: 'secondary' }, 'Map the site');
  const general = h('div', { class: 'form-errors' });
  const output = h('section', { 'aria-live': 'polite' });
  const fields = { url, limit, max_depth: depth, include_paths: include, exclude_paths: exclude, format };

  const form = h(
    'form',
    { class: 'card form', novalidate: true },
    field('Start page', url),
    field('Pages at most', limit),
    field('Link hops from the start page', depth),
    field('Only paths matching', include, 'Regular expressions, comma separated (optional)'),
    field('Skip paths matching', exclude, 'Regular expressions, comma separated (optional)'),
    field('Content format', format),
    general,
    h('div', { class: 'actions' }, submit, mapButton),
  );

  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    clearErrors(root);
    const body = {
      url: url.value.trim(),
      limit: Number(limit.value),
      max_depth: Number(depth.value),
      format: format.value,
    };
    if (include.value.trim()) body.include_paths = commaList(include.value);
    if (exclude.value.trim()) body.exclude_paths = commaList(exclude.value);
    try {
      await busy(submit, 'Starting…', async () => {
        const { data } = await api('POST', '/v1/crawl', { body, signal });
        location.hash = `#/crawl/${encodeURIComponent(data.crawl_id)}`;
      });
    } catch (error) {
      if (!signal.aborted) showError(error, { scope: root, general, fields });
    }
  });

  mapButton.addEventListener('click', async () => {
    clearErrors(root);
    const body = { url: url.value.trim(), limit: 1000 };
    try {
      await busy(mapButton, 'Mapping…', async () => {
        const { data } = await api('POST', '/v1/map', { body, signal });
        mount(
          output,
          h('h2', {}, `${plural(data.links.length, 'link')} on ${data.url}`),
          h(
            'ul',
            { class: 'map-links', 'data-testid': 'map-links' },
            data.links.map((link) =>
              h(
                'li',
                {},
                externalLink(link.url, link.title || link.url),
                link.lastmod ? h('span', { class: 'muted' }, ` ${link.lastmod}`) : null,
              ),
            ),
          ),
          curlBlock(curlCommand('POST', '/v1/map', body), 'map-curl'),
        );
      });
    } catch (error) {
      if (!signal.aborted) showError(error, { scope: root, general, fields });
    }
  });

  mount(root, h('h1', {}, 'Crawl'), form, output);
}

/** One crawl: its pages as they are read (page.fetched), then its summary. */
function watch(root, id, signal) {
  const status = h('span', {}, statusBadge('queued'));
  const summary = h('p', { class: 'muted', 'data-testid': 'crawl-summary' });
  const pages = h('ol', { class: 'crawl-pages', 'data-testid': 'crawl-pages' });
  const general = h('div', { class: 'form-errors' });
  const cancel = h('button', { id: 'crawl-cancel', type: 'button', class: 'secondary' }, 'Cancel');
  const path = `/v1/crawl/${encodeURIComponent(id)}`;

  const row = (page) =>
    h(
      'li',
      { class: page.error ? 'crawl-page failed' : 'crawl-page', 'data-testid': 'crawl-page' },
      externalLink(page.url, page.title || page.url),
      h(
        'span',
        { class: 'muted' },
        ` depth ${page.depth}`,
        page.status ? ` · HTTP ${page.status}` : '',
        page.error ? ` · ${page.error}` : '',
      ),
    );
  const show = (view) => {
    mount(status, statusBadge(view.status));
    summary.textContent = `${plural(view.counts.read, 'page')} read, ${view.counts.failed} failed · ${plural(view.credits, 'credit')}${view.termination ? ` · ${view.termination.replace('_', ' ')}` : ''}`;
    cancel.hidden = ENDED.has(view.status);
  };
  const load = async () => {
    const { data } = await api('GET', path, { query: { limit: 100 }, signal });
    show(data);
    return data;
  };

  cancel.addEventListener('click', async () => {
    try {
      show((await api('POST', `${path}/cancel`, { signal })).data);
    } catch (error) {
      showError(error, { general });
    }
  });

  mount(
    root,
    h(
      'p',
      { class: 'crumbs' },
      h('a', { href: '#/crawl' }, 'Crawl'),
      ' › ',
      h('code', { class: 'id' }, id),
      ' ',
      status,
    ),
    summary,
    h('div', { class: 'actions' }, cancel),
    general,
    pages,
  );
  (async () => {
    try {
      await load();
      await followEvents(`${path}/events`, {
        signal,
        onEvent: ({ event, data }) => {
          if (event === 'page.fetched') pages.append(row(data));
          else if (event === 'run.started') mount(status, statusBadge('running'));
        },
        isEnded: async () => ENDED.has((await load()).status),
      });
      // The stream ended with the run: its view once the read model shows that too.
      if (!signal.aborted) show(await viewOnceEnded(path, { signal, query: { limit: 100 } }));
    } catch (error) {
      if (!signal.aborted) showError(error, { general });
    }
  })();
}
