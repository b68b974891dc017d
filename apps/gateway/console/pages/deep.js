import { api, viewOnceEnded } from '/console/api.js';
import { externalLink, h, jsonDetails, lines, mount, plural } from '/console/dom.js';
import { clearErrors, errorElement, showError } from '/console/errors.js';
import { busy, field } from '/console/form.js';
import { reportBlock } from '/console/report.js';
import { ENDED, followEvents, TERMINAL_EVENTS } from '/console/sse.js';

export const title = 'Deep research';
const ENDED_STATUSES = new Set(['completed', 'failed', 'cancelled']);

/** #/deep: the form; #/deep/<search_id>: the run, live then its report. */
export function render(root, { params, signal }) {
  if (params[0]) followRun(root, params[0], signal);
  else startForm(root);
}

/** POST /v1/search with depth "deep" (202 with search_id), then on to the run's page. */
function startForm(root) {
  const prompt = h('textarea', {
    id: 'deep-prompt',
    rows: 3,
    placeholder: 'The research question, e.g. In what year was Acme Robotics founded?',
  });
  const queries = h('textarea', {
    id: 'deep-queries',
    rows: 3,
    placeholder: 'Optional: keyword queries, one per line (the prompt is used when empty)',
  });
  const maxSubqueries = h('input', { id: 'deep-max-subqueries', type: 'number', min: 1, max: 12, placeholder: '8' });
  const maxFetches = h('input', { id: 'deep-max-fetches', type: 'number', min: 1, max: 30, placeholder: '18' });
  const submit = h('button', { id: 'deep-start', type: 'submit' }, 'Start deep run');
  const general = h('div', { class: 'form-errors' });
  const fields = { prompt, queries, max_subqueries: maxSubqueries, max_fetches: maxFetches };

  const form = h(
    'form',
    { class: 'card form', novalidate: true },
    field('Prompt', prompt),
    field('Queries', queries, 'One to five keyword queries; one credit per query when the run completes.'),
    h('div', { class: 'row' }, field('Sub-queries at most', maxSubqueries), field('Pages read at most', maxFetches)),
    general,
    h('div', { class: 'actions' }, submit),
  );
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    clearErrors(root);
    const text = prompt.value.trim();
    const list = lines(queries.value);
    const body = { queries: list.length ? list : text ? [text] : [], depth: 'deep' };
    if (text) body.prompt = text;
    if (maxSubqueries.value !== '') body.max_subqueries = maxSubqueries.value;
    if (maxFetches.value !== '') body.max_fetches = maxFetches.value;
    try {
      const { data } = await busy(submit, 'Starting…', () => api('POST', '/v1/search', { body }));
      location.hash = `#/deep/${encodeURIComponent(data.search_id)}`;
    } catch (error) {
      showError(error, { scope: root, general, fields });
    }
  });
  mount(
    root,
    h('h1', {}, 'Deep research'),
    h(
      'p',
      { class: 'muted' },
      'A deep run plans sub-queries, reads pages, grades findings and writes a cited report. It takes a few seconds to a minute; you can leave and come back from Runs.',
    ),
    form,
  );
  prompt.focus();
}

/** What one event says, in a line or a short list. */
function describe(event) {
  const d = event.data ?? {};
  switch (event.event) {
    case 'run.queued':
      return `Queued${Array.isArray(d.queries) ? `: ${d.queries.join('; ')}` : ''}`;
    case 'run.started':
      return d.resumed ? 'Resumed by a new worker' : 'Started';
    case 'plan.created':
      return [
        `Plan${d.round ? ` (round ${d.round})` : ''}: ${d.subqueries?.length ?? 0} sub-queries, ${d.pagesTarget ?? '?'} result pages`,
        h(
          'ul',
          { class: 'subqueries' },
          (d.subqueries ?? []).map((q) => h('li', {}, typeof q === 'string' ? q : JSON.stringify(q))),
        ),
      ];
    case 'serp.page':
      return `Result page ${d.page ?? '?'} for “${d.subquery ?? ''}” (${d.pagesFetched ?? '?'}/${d.pagesTarget ?? '?'})`;
    case 'page.fetched':
      return [d.ok ? 'Read ' : 'Could not read ', externalLink(d.url, d.url)];
    case 'finding.graded':
      return [
        `Finding for “${d.subquery ?? ''}” (${d.confidence ?? '?'} confidence)`,
        d.answer ? h('p', { class: 'finding' }, d.answer) : null,
      ];
    case 'results.updated':
      return `${d.count ?? 0} results${d.reranked ? ' (re-ranked)' : ''}`;
    case 'run.completed':
      return `Completed: ${plural(d.results?.length ?? 0, 'result')}, ${plural(d.credits ?? 0, 'credit')}`;
    case 'run.failed':
      return `Failed: ${d.error ?? 'no reason given'}`;
    case 'run.cancelled':
      return 'Cancelled';
    default:
      return JSON.stringify(d);
  }
}

const statusAfter = (event) =>
  ({ 'run.queued': 'queued', 'run.completed': 'completed', 'run.failed': 'failed', 'run.cancelled': 'cancelled' })[
    event.event
  ] ?? 'running';

/** GET /v1/searches/<id> for the header, then GET .../events live, then the report. */
function followRun(root, id, signal) {
  const path = `/v1/searches/${encodeURIComponent(id)}`;
  const status = h('span', { 'data-testid': 'run-status', class: 'badge status-queued' }, 'queued');
  const count = h('span', { 'data-testid': 'results-count' }, '0 results');
  const pages = h('span', { class: 'muted' });
  const connection = h('span', { class: 'muted connection', 'aria-live': 'polite' });
  const cancel = h('button', { id: 'deep-cancel', type: 'button', class: 'danger' }, 'Cancel run');
  const prompt = h('p', { class: 'prompt' });
  const general = h('div', { class: 'form-errors' });
  const events = h('ol', { class: 'events', 'aria-live': 'polite' });
  const report = h('section', { class: 'report-section' });
  let ended = false;

  const setStatus = (value) => {
    status.textContent = value;
    status.className = `badge status-${value}`;
    ended = ENDED_STATUSES.has(value);
    cancel.hidden = ended;
  };
  const showHeader = (view) => {
    prompt.textContent = view.prompt ?? (view.queries ?? []).join('; ');
    count.textContent = plural(view.results?.length ?? 0, 'result');
    pages.textContent = `Result pages ${view.pagesFetched ?? 0}/${view.pagesTarget ?? '?'}`;
  };

  cancel.addEventListener('click', async () => {
    clearErrors(general);
    try {
      const { data } = await busy(cancel, 'Cancelling…', () => api('POST', `${path}/cancel`));
      setStatus(data.status);
    } catch (error) {
      showError(error, { scope: general, general });
    }
  });

  mount(
    root,
    h(
      'p',
      { class: 'crumbs' },
      h('a', { href: '#/deep' }, '← New deep run'),
      ' · ',
      h('a', { href: `#/runs/search/${encodeURIComponent(id)}` }, 'History'),
    ),
    h('h1', {}, 'Deep run ', h('code', { class: 'id' }, id)),
    prompt,
    h('div', { class: 'summary' }, status, count, pages, connection, cancel),
    general,
    report,
    h('details', { class: 'events-box', open: true }, h('summary', {}, 'Live events'), events),
  );

  const onEvent = (event) => {
    if (signal.aborted) return;
    const at = new Date();
    events.append(
      h(
        'li',
        { class: 'event', 'data-testid': 'deep-event', 'data-event': event.event },
        h('span', { class: 'event-name' }, event.event),
        h('time', { class: 'muted', datetime: at.toISOString() }, at.toLocaleTimeString()),
        h('div', { class: 'event-body' }, describe(event)),
      ),
    );
    setStatus(statusAfter(event));
    const d = event.data ?? {};
    if (event.event === 'results.updated') count.textContent = plural(d.count ?? 0, 'result');
    if (event.event === 'serp.page' || event.event === 'plan.created')
      pages.textContent = `Result pages ${d.pagesFetched ?? 0}/${d.pagesTarget ?? '?'}`;
    if (event.event === 'run.completed') showHeader(d);
  };

  const finish = async (terminal) => {
    let view = terminal?.event === 'run.completed' ? terminal.data : null;
    try {
      const read = await viewOnceEnded(path, { signal });
      // The read model may still lag the stream's terminal event: the event's own view then.
      if (!view || ENDED_STATUSES.has(read.status)) view = read;
    } catch (error) {
      if (!view) return showError(error, { scope: general, general });
    }
    if (signal.aborted) return;
    setStatus(view.status);
    showHeader(view);
    mount(report, ...outcome(view));
  };

  (async () => {
    try {
      const { data } = await api('GET', path, { signal });
      showHeader(data);
      setStatus(data.status);
      const terminal = await followEvents(`${path}/events`, {
        signal,
        onEvent,
        onConnection: (state) =>
          (connection.textContent =
            state === 'reconnecting'
              ? 'Connection lost: reconnecting…'
              : state === 'waiting'
                ? 'Service busy: retrying…'
                : ''),
        isEnded: async () => ENDED_STATUSES.has((await api('GET', path, { signal })).data.status),
      });
      if (!signal.aborted && (terminal === ENDED || TERMINAL_EVENTS.has(terminal?.event))) await finish(terminal);
    } catch (error) {
      if (!signal.aborted) showError(error, { scope: general, general });
    }
  })();
}

/** The finished run: report and sources when completed, the reason when failed, results so far when cancelled. */
function outcome(view) {
  const parts = [];
  if (view.status === 'failed') parts.push(errorElement(`The run failed: ${view.error ?? 'no reason given'}`));
  if (view.report) parts.push(reportBlock(view.report, view.sources ?? []));
  else if (view.status === 'completed') parts.push(h('p', { class: 'muted' }, 'The run completed without a report.'));
  if (view.findings?.length) parts.push(findingsBlock(view.findings));
  if (view.results?.length) parts.push(resultsBlock(view.results));
  parts.push(jsonDetails('Run JSON', view));
  return parts;
}

function findingsBlock(findings) {
  return h(
    'details',
    { class: 'findings' },
    h('summary', {}, `Findings (${findings.length})`),
    h(
      'ul',
      {},
      findings.map((f) =>
        h(
          'li',
          {},
          h('strong', {}, f.subquery ?? ''),
          ' ',
          h('span', { class: 'tag' }, `${f.confidence ?? '?'} confidence`),
          h('p', {}, f.answer ?? ''),
        ),
      ),
    ),
  );
}

function resultsBlock(results) {
  return h(
    'details',
    { class: 'run-results' },
    h('summary', {}, `Merged results (${results.length})`),
    h(
      'ol',
      { class: 'result-list' },
      results.map((r) =>
        h(
          'li',
          { class: 'result' },
          h('h3', {}, externalLink(r.url, r.title || r.url)),
          r.date ? h('p', { class: 'meta' }, r.date) : null,
          r.snippet ? h('p', { class: 'excerpt' }, r.snippet) : null,
        ),
      ),
    ),
  );
}
