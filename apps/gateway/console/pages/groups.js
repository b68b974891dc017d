import { api } from '/console/api.js';
import { formatTime, h, jsonDetails, mount, plural, sleep, statusBadge } from '/console/dom.js';
import { showError } from '/console/errors.js';

export const title = 'Task groups';
const STATUSES = ['queued', 'running', 'completed', 'failed', 'cancelled'];
const RUNS_PAGE = 50;
const POLL_MS = 1500;

/** #/groups: the team's task groups, newest first; #/groups/<id>: one group's progress and its runs. */
export function render(root, { params, signal }) {
  const [id] = params;
  if (id) return groupPage(root, id, signal);
  return listPage(root, signal);
}

/** The counts as a bar (one segment per status, its width its share) and as words. */
function progress(status) {
  const counts = status.task_run_status_counts;
  const total = Math.max(1, status.num_task_runs);
  return h(
    'div',
    { class: 'group-progress', 'data-testid': 'group-progress' },
    h(
      'div',
      { class: 'progress-bar', role: 'img', 'aria-label': `${counts.completed} of ${status.num_task_runs} completed` },
      STATUSES.filter((key) => counts[key] > 0).map((key) =>
        h('span', { class: `segment status-${key}`, style: `width: ${(100 * counts[key]) / total}%` }),
      ),
    ),
    h(
      'p',
      { class: 'muted' },
      `${plural(status.num_task_runs, 'run')}: `,
      STATUSES.map((key) => h('span', { 'data-testid': `count-${key}`, class: 'count' }, `${key} ${counts[key]} `)),
      status.is_active ? '· active' : '· not active',
    ),
  );
}

function listPage(root, signal) {
  const list = h('ul', { class: 'run-list', 'aria-label': 'Task groups' });
  const general = h('div', { class: 'form-errors' });
  mount(root, h('h1', {}, 'Task groups'), general, h('section', { class: 'card' }, list));
  api('GET', '/v1/tasks/groups', { query: { limit: 50 }, signal })
    .then(({ data }) =>
      mount(
        list,
        data.items.length
          ? data.items.map((group) =>
              h(
                'li',
                { class: 'run-row', 'data-testid': 'group-row', 'data-id': group.taskgroup_id },
                h(
                  'a',
                  { href: `#/groups/${encodeURIComponent(group.taskgroup_id)}`, class: 'run-link' },
                  group.taskgroup_id,
                ),
                h(
                  'span',
                  { class: 'run-meta' },
                  statusBadge(group.status.is_active ? 'running' : group.cancelled ? 'cancelled' : 'completed'),
                  h('time', { datetime: group.created_at }, formatTime(group.created_at)),
                  h('span', {}, plural(group.status.num_task_runs, 'run')),
                ),
              ),
            )
          : h('li', { class: 'muted' }, 'No task groups yet.'),
      ),
    )
    .catch((error) => {
      if (!signal.aborted) showError(error, { general });
    });
}

/** The group's progress, read again while it is active, and the first page of its runs (with their outputs). */
function groupPage(root, id, signal) {
  const general = h('div', { class: 'form-errors' });
  const head = h('section', { class: 'card' }, h('p', { class: 'muted' }, 'Loading…'));
  const runs = h('ul', { class: 'run-list', 'aria-label': 'Runs of the group' });
  mount(
    root,
    h('h1', {}, 'Task group ', h('code', {}, id)),
    general,
    head,
    h('section', { class: 'card' }, h('h2', {}, 'Runs, in the order added'), runs),
  );
  const path = `/v1/tasks/groups/${encodeURIComponent(id)}`;
  (async () => {
    for (;;) {
      const [{ data: group }, { data: page }] = await Promise.all([
        api('GET', path, { signal }),
        api('GET', `${path}/runs`, { query: { limit: RUNS_PAGE, include_input: true, include_output: true }, signal }),
      ]);
      mount(
        head,
        progress(group.status),
        group.metadata ? jsonDetails('Metadata', group.metadata) : null,
        group.cancelled ? h('p', {}, statusBadge('cancelled')) : null,
      );
      mount(
        runs,
        page.runs.length
          ? page.runs.map((run) =>
              h(
                'li',
                { class: 'run-row', 'data-testid': 'group-run', 'data-id': run.run_id },
                h(
                  'a',
                  { href: `#/runs/task/${encodeURIComponent(run.run_id)}`, class: 'run-link' },
                  run.input || run.run_id,
                ),
                h(
                  'span',
                  { class: 'run-meta' },
                  statusBadge(run.status),
                  run.output === undefined || run.output === null
                    ? null
                    : h('code', { class: 'group-output' }, JSON.stringify(run.output).slice(0, 200)),
                ),
              ),
            )
          : h('li', { class: 'muted' }, 'No runs yet.'),
        page.next_cursor ? h('li', { class: 'muted' }, `The first ${RUNS_PAGE} runs are shown.`) : null,
      );
      if (!group.status.is_active || signal.aborted) return;
      await sleep(POLL_MS, signal);
      if (signal.aborted) return;
    }
  })().catch((error) => {
    if (!signal.aborted) showError(error, { general });
  });
}
