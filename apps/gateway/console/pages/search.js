import { api } from '/console/api.js';
import { curlBlock, curlCommand } from '/console/curl.js';
import { commaList, externalLink, h, lines, mount } from '/console/dom.js';
import { clearErrors, showError } from '/console/errors.js';
import { busy, field, select } from '/console/form.js';

/** The spec's search categories and freshness windows. */
const CATEGORIES = ['company', 'research_paper', 'news', 'personal_site', 'financial_report', 'people'];
const FRESHNESS = ['hour', 'day', 'week', 'month', 'year'];

export const title = 'Search';

/** Synchronous search (POST /v1/search, depth instant/fast/auto): rows, credits, timing and the curl. */
export function render(root) {
  const queries = h('textarea', {
    id: 'search-queries',
    rows: 3,
    placeholder: 'One query per line (1 to 5)',
    required: false,
  });
  const depth = select('search-depth', ['instant', 'fast', 'auto'], 'auto');
  const objective = h('input', { id: 'search-objective', type: 'text', placeholder: 'Optional: re-rank by this goal' });
  const category = select('search-category', [['', 'Any'], ...CATEGORIES.map((c) => [c, c.replace('_', ' ')])]);
  const include = h('input', {
    id: 'search-include-domains',
    type: 'text',
    placeholder: 'example.com, docs.example.org',
  });
  const exclude = h('input', { id: 'search-exclude-domains', type: 'text', placeholder: 'spam.example' });
  const freshness = select('search-freshness', [['', 'Any time'], ...FRESHNESS.map((f) => [f, `Past ${f}`])]);
  const submit = h('button', { id: 'search-submit', type: 'submit' }, 'Search');
  const general = h('div', { class: 'form-errors' });
  const output = h('section', { class: 'results', 'aria-live': 'polite' });

  const fields = {
    queries,
    depth,
    objective,
    category,
    include_domains: include,
    exclude_domains: exclude,
    freshness,
  };

  const form = h(
    'form',
    { class: 'card form', novalidate: true },
    field('Queries', queries, 'One keyword query per line; results are merged and de-duplicated.'),
    h('div', { class: 'row' }, field('Depth', depth), field('Category', category), field('Freshness', freshness)),
    field('Objective', objective),
    h('div', { class: 'row' }, field('Only these domains', include), field('Never these domains', exclude)),
    general,
    h('div', { class: 'actions' }, submit),
  );

  const body = () => {
    const request = { queries: lines(queries.value), depth: depth.value };
    if (objective.value.trim()) request.objective = objective.value.trim();
    if (category.value) request.category = category.value;
    if (commaList(include.value).length) request.include_domains = commaList(include.value);
    if (commaList(exclude.value).length) request.exclude_domains = commaList(exclude.value);
    if (freshness.value) request.freshness = freshness.value;
    return request;
  };

  const run = async () => {
    clearErrors(root);
    const request = body();
    const curl = curlBlock(curlCommand('POST', '/v1/search', request), 'search-curl');
    mount(output, h('p', { class: 'muted' }, 'Searching…'), curl);
    try {
      const { data } = await busy(submit, 'Searching…', () => api('POST', '/v1/search', { body: request }));
      mount(output, summary(data), warnings(data), resultList(data.results ?? []), curl);
    } catch (error) {
      mount(output, curl);
      showError(error, { scope: root, general, fields });
    }
  };

  form.addEventListener('submit', (event) => {
    event.preventDefault();
    run();
  });
  queries.addEventListener('keydown', (event) => {
    if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) form.requestSubmit();
  });

  mount(root, h('h1', {}, 'Search'), form, output);
  queries.focus();
}

function summary(data) {
  const count = (data.results ?? []).length;
  return h(
    'div',
    { class: 'summary' },
    h('span', {}, `${count} result${count === 1 ? '' : 's'}`),
    h('span', { 'data-testid': 'search-credits' }, `Credits: ${data.credits ?? 0}`),
    h('span', { 'data-testid': 'search-timing' }, `Time: ${Math.round(data.timing_ms?.total ?? 0)} ms`),
    data.reranked ? h('span', {}, `Re-ranked (${data.dropped_off_topic ?? 0} off-topic dropped)`) : null,
  );
}

function warnings(data) {
  if (!data.warnings?.length) return null;
  return h(
    'ul',
    { class: 'warnings' },
    data.warnings.map((w) => h('li', {}, w)),
  );
}

function resultList(results) {
  if (!results.length) return h('p', { class: 'muted' }, 'No results.');
  return h(
    'ol',
    { class: 'result-list' },
    results.map((row) =>
      h(
        'li',
        { class: 'result', 'data-testid': 'search-result' },
        h('h3', {}, externalLink(row.url, row.title || row.url)),
        h(
          'p',
          { class: 'meta' },
          h('span', { class: 'domain' }, row.domain ?? ''),
          row.date ? h('span', {}, row.date) : null,
          row.category ? h('span', { class: 'tag' }, row.category.replace('_', ' ')) : null,
          typeof row.score === 'number' ? h('span', { class: 'muted' }, `score ${row.score.toFixed(3)}`) : null,
        ),
        row.excerpts?.length
          ? h(
              'ul',
              { class: 'excerpts' },
              row.excerpts.map((e) => h('li', {}, e)),
            )
          : row.snippet
            ? h('p', { class: 'excerpt' }, row.snippet)
            : null,
      ),
    ),
  );
}
