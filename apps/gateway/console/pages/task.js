import { api } from '/console/api.js';
import { curlBlock, curlCommand } from '/console/curl.js';
import { h, mount, sleep } from '/console/dom.js';
import { clearErrors, showError } from '/console/errors.js';
import { busy, field, select } from '/console/form.js';
import { schemaEditor } from '/console/schema-editor.js';
import { taskOutput } from '/console/task-output.js';

export const title = 'Task';
/** The spec's processors (Task run: processor). */
const PROCESSORS = [
  ['base', 'base: up to 4 steps'],
  ['core', 'core: up to 12 steps'],
  ['ultra', 'ultra: up to 30 steps, with a report'],
];
const WAIT_SECONDS = 60;
const POLL_MS = 1500;
const ENDED = new Set(['completed', 'failed', 'cancelled']);

/** output_schema as the API takes it: a pasted {type: json|text|auto} spec as is, else a JSON Schema wrapped as json. */
const outputSpec = (schema) =>
  ['json', 'text', 'auto'].includes(schema?.type) ? schema : { type: 'json', json_schema: schema };

/** A task run from an objective and an output schema: POST /v1/tasks (waits), then polls GET /v1/tasks/<id> if still running. */
export function render(root, { signal }) {
  const task = h('textarea', {
    id: 'task-input',
    rows: 3,
    placeholder: 'The objective, e.g. Company profile of Acme Robotics',
  });
  const processor = select('task-processor', PROCESSORS, 'core');
  const editor = schemaEditor();
  const submit = h('button', { id: 'task-submit', type: 'submit' }, 'Run task');
  const general = h('div', { class: 'form-errors' });
  const output = h('section', { class: 'task-result', 'aria-live': 'polite' });
  const fields = { task, query: task, processor, output_schema: editor.target, json_schema: editor.target };

  const form = h(
    'form',
    { class: 'card form', novalidate: true },
    field('Task', task),
    field('Processor', processor),
    h(
      'fieldset',
      { class: 'field' },
      h('legend', {}, 'Output fields'),
      h('p', { class: 'hint' }, 'One row per field of the answer; leave them all empty for a free-text answer.'),
      editor.element,
    ),
    general,
    h('div', { class: 'actions' }, submit),
  );

  const poll = async (id, curl) => {
    while (!signal.aborted) {
      await sleep(POLL_MS, signal);
      if (signal.aborted) return;
      const { data } = await api('GET', `/v1/tasks/${encodeURIComponent(id)}`, { signal });
      mount(output, resultHeader(data), taskOutput(data), curl);
      if (ENDED.has(data.status)) return;
    }
  };

  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    clearErrors(root);
    const chosen = editor.schema();
    if (!chosen.ok) {
      editor.showRawError(chosen.message);
      return;
    }
    const body = { task: task.value.trim(), processor: processor.value, wait_seconds: WAIT_SECONDS };
    if (chosen.schema) body.output_schema = outputSpec(chosen.schema);
    const curl = curlBlock(curlCommand('POST', '/v1/tasks', body), 'task-curl');
    mount(output, h('p', { class: 'muted' }, `Running (waiting up to ${WAIT_SECONDS} s)…`), curl);
    try {
      await busy(submit, 'Running…', async () => {
        const { status, data } = await api('POST', '/v1/tasks', { body, signal });
        mount(output, resultHeader(data), taskOutput(data), curl);
        if (status === 202 && !ENDED.has(data.status)) await poll(data.task_id, curl);
      });
    } catch (error) {
      if (!signal.aborted) showError(error, { scope: root, general, fields });
    }
  });

  mount(root, h('h1', {}, 'Task'), form, output);
}

const resultHeader = (view) =>
  h(
    'p',
    { class: 'crumbs' },
    'Task run ',
    h('a', { href: `#/runs/task/${encodeURIComponent(view.task_id)}` }, h('code', { class: 'id' }, view.task_id)),
  );
