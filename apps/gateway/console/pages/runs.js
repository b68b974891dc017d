import { api } from '/console/api.js';
import { formatTime, h, jsonDetails, mount, plural, statusBadge } from '/console/dom.js';
import { showError } from '/console/errors.js';
import { taskOutput } from '/console/task-output.js';

export const title = 'Runs';
const PAGE_SIZE = 10;
const KINDS = {
  search: { noun: 'Deep run', path: (id) => `/v1/searches/${encodeURIComponent(id)}` },
  task: { noun: 'Task run', path: (id) => `/v1/tasks/${encodeURIComponent(id)}` },
};
/** The list's page survives a visit to a run and back. */
let offset = 0;

/** #/runs: deep and task runs, newest first; #/runs/<kind>/<id>: one run and its history. */
export function render(root, { params, signal }) {
  const [kind, id] = params;
  if (kind && id && KINDS[kind]) return runPage(root, kind, id, signal);
  return listPage(root, signal);
}

function runRow(kind, id, label, status, createdAt, extra) {
  return h(
    'li',
    { class: 'run-row', 'data-testid': 'run-row', 'data-kind': kind, 'data-id': id },
    h('a', { href: `#/runs/${kind}/${encodeURIComponent(id)}`, class: 'run-link' }, label || id),
    h(
      'span',
      { class: 'run-meta' },
      statusBadge(status),
      h('time', { datetime: createdAt ?? '' }, formatTime(createdAt)),
      extra,
    ),
  );
}

/** GET /v1/searches and GET /v1/tasks with the same limit/offset; one pair of paging buttons for both. */
function listPage(root, signal) {
  const prev = h('button', { id: 'runs-prev', type: 'button', class: 'secondary', disabled: true }, '← Newer');
  const next = h('button', { id: 'runs-next', type: 'button', class: 'secondary', disabled: true }, 'Older →');
  const where = h('span', { class: 'muted' });
  const searches = h('ul', { class: 'run-list', 'aria-label': 'Deep runs' });
  const tasks = h('ul', { class: 'run-list', 'aria-label': 'Task runs' });
  const general = h('div', { class: 'form-errors' });

  const load = async () => {
    general.replaceChildren();
    prev.disabled = next.disabled = true;
    const query = { limit: PAGE_SIZE, offset };
    try {
      const [s, t] = await Promise.all([
        api('GET', '/v1/searches', { query, signal }),
        api('GET', '/v1/tasks', { query, signal }),
      ]);
      const total = Math.max(s.data.total, t.data.total);
      where.textContent = total ? `${offset + 1}–${Math.min(offset + PAGE_SIZE, total)} of ${total}` : '';
      prev.disabled = offset === 0;
      next.disabled = offset + PAGE_SIZE >= total;
      fillSearches(searches, s.data.searches, signal);
      mount(
        tasks,
        t.data.tasks.length
          ? t.data.tasks.map((task) =>
              runRow(
                'task',
                task.task_id,
                task.task,
                task.status,
                task.createdAt,
                h('span', {}, plural(task.credits ?? 0, 'credit')),
              ),
            )
          : h('li', { class: 'muted' }, offset ? 'No more task runs.' : 'No task runs yet.'),
      );
    } catch (error) {
      if (!signal.aborted) showError(error, { general });
    }
  };
  prev.addEventListener('click', () => {
    offset = Math.max(0, offset - PAGE_SIZE);
    load();
  });
  next.addEventListener('click', () => {
    offset += PAGE_SIZE;
    load();
  });

  mount(
    root,
    h('h1', {}, 'Runs'),
    general,
    h('div', { class: 'pager' }, prev, where, next),
    h('section', { class: 'card' }, h('h2', {}, 'Deep runs'), searches),
    h('section', { class: 'card' }, h('h2', {}, 'Task runs'), tasks),
  );
  load();
}

/** A search list item has no credits: each row's view fills them in (best effort). */
function fillSearches(list, items, signal) {
  if (!items.length)
    return mount(list, h('li', { class: 'muted' }, offset ? 'No more deep runs.' : 'No deep runs yet.'));
  mount(
    list,
    items.map((item) => {
      const credits = h('span', { class: 'credits' }, plural(item.resultCount ?? 0, 'result'));
      api('GET', KINDS.search.path(item.id), { signal })
        .then(
          ({ data }) =>
            (credits.textContent = `${plural(item.resultCount ?? 0, 'result')} · ${plural(data.credits ?? 0, 'credit')}`),
        )
        .catch(() => {});
      return runRow('search', item.id, item.query, item.status, item.createdAt, credits);
    }),
  );
}

const KEY_FIELDS = {
  search: [
    ['search_id', 'Id'],
    ['status', 'Status'],
    ['prompt', 'Prompt'],
    ['queries', 'Queries'],
    ['createdAt', 'Created'],
    ['completedAt', 'Completed'],
    ['credits', 'Credits'],
    ['pagesFetched', 'Result pages'],
    ['error', 'Error'],
  ],
  task: [
    ['task_id', 'Id'],
    ['status', 'Status'],
    ['task', 'Task'],
    ['processor', 'Processor'],
    ['createdAt', 'Created'],
    ['completedAt', 'Completed'],
    ['credits', 'Credits'],
    ['error', 'Error'],
  ],
};

function keyValue(view, key) {
  const value = view[key];
  if (key === 'createdAt' || key === 'completedAt') return formatTime(value);
  if (key === 'status') return statusBadge(value);
  if (key === 'pagesFetched') return `${value ?? 0}/${view.pagesTarget ?? '?'}`;
  if (Array.isArray(value)) return value.join('; ');
  return value === null || value === undefined || value === '' ? '—' : String(value);
}

/** GET the run's view and GET .../history: key fields, the JSON folded, and the events as a timeline. */
function runPage(root, kind, id, signal) {
  const { noun, path } = KINDS[kind];
  const view = h('section', { class: 'card', 'data-testid': 'run-view' }, h('p', { class: 'muted' }, 'Loading…'));
  const timeline = h('ol', { class: 'timeline' });
  const extra = h('section', { class: 'run-extra' });
  const historyErrors = h('div', { class: 'form-errors' });
  mount(
    root,
    h(
      'p',
      { class: 'crumbs' },
      h('a', { href: '#/runs' }, '← All runs'),
      kind === 'search' ? [' · ', h('a', { href: `#/deep/${encodeURIComponent(id)}` }, 'Live view and report')] : null,
    ),
    h('h1', {}, `${noun} `, h('code', { class: 'id' }, id)),
    view,
    extra,
    h('section', { class: 'card' }, h('h2', {}, 'History'), historyErrors, timeline),
  );

  api('GET', path(id), { signal })
    .then(({ data }) => {
      mount(
        view,
        h(
          'dl',
          { class: 'fields' },
          KEY_FIELDS[kind].map(([key, label]) => [h('dt', {}, label), h('dd', {}, keyValue(data, key))]),
        ),
        jsonDetails('Run JSON', data),
      );
      if (kind === 'task') mount(extra, h('h2', {}, 'Answer'), taskOutput(data));
    })
    .catch((error) => !signal.aborted && (mount(view), showError(error, { general: view })));

  api('GET', `${path(id)}/history`, { signal })
    .then(({ data }) =>
      mount(
        timeline,
        data.events.length
          ? data.events.map((event) =>
              h(
                'li',
                { class: 'timeline-item', 'data-testid': 'timeline-item' },
                h('span', { class: 'event-name' }, event.type),
                h('time', { datetime: event.at }, formatTime(event.at, { ms: true })),
                h('span', { class: 'muted' }, `revision ${event.revision}`),
                jsonDetails('Data and metadata', { data: event.data, metadata: event.metadata }),
              ),
            )
          : h('li', { class: 'muted' }, 'No events.'),
      ),
    )
    .catch((error) => !signal.aborted && showError(error, { general: historyErrors }));
}
