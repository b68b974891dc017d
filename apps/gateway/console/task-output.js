import { externalLink, h, statusBadge } from '/console/dom.js';
import { errorElement } from '/console/errors.js';
import { reportBlock } from '/console/report.js';

const show = (value) =>
  value === null || value === undefined
    ? '—'
    : typeof value === 'object'
      ? JSON.stringify(value, null, 2)
      : String(value);

/** A task run's answer: one row per output field with its value, citations, reasoning and confidence. */
export function taskOutput(view) {
  const parts = [
    h(
      'div',
      { class: 'summary' },
      statusBadge(view.status, { 'data-testid': 'run-status' }),
      h('span', {}, `Credits: ${view.credits ?? 0}`),
      h('span', { class: 'muted' }, `Processor: ${view.processor ?? '?'}`),
    ),
  ];
  if (view.status === 'failed') parts.push(errorElement(`The task failed: ${view.error ?? 'no reason given'}`));
  if (view.status !== 'completed') return parts;

  const output = view.output;
  const structured = output !== null && typeof output === 'object' && !Array.isArray(output);
  const basis = new Map((view.basis ?? []).map((b) => [b.field, b]));
  const names = structured ? [...new Set([...(view.fields ?? []), ...Object.keys(output)])] : ['output'];
  for (const field of basis.keys()) if (!names.includes(field)) names.push(field);
  const valueOf = (name) => (structured ? output[name] : name === 'output' ? output : undefined);

  parts.push(
    h(
      'div',
      { class: 'table-wrap' },
      h(
        'table',
        { class: 'task-output stack' },
        h(
          'thead',
          {},
          h(
            'tr',
            {},
            h('th', {}, 'Field'),
            h('th', {}, 'Value'),
            h('th', {}, 'Citations'),
            h('th', {}, 'Reasoning'),
            h('th', {}, 'Confidence'),
          ),
        ),
        h(
          'tbody',
          {},
          names.map((name) => outputRow(name, valueOf(name), basis.get(name))),
        ),
      ),
    ),
  );
  if (structured && view.answer)
    parts.push(h('div', { class: 'answer' }, h('h3', {}, 'Answer as text'), h('p', {}, view.answer)));
  if (view.report) parts.push(reportBlock(view.report, view.sources_detailed ?? []));
  return parts;
}

function outputRow(name, value, basis) {
  const citations = basis?.citations ?? [];
  return h(
    'tr',
    { 'data-testid': 'task-output-row', 'data-field': name },
    h('th', { scope: 'row', 'data-label': 'Field' }, h('code', {}, name)),
    h('td', { 'data-label': 'Value' }, h('span', { class: 'value' }, show(value))),
    h(
      'td',
      { 'data-label': 'Citations' },
      citations.length
        ? h(
            'ul',
            { class: 'citations' },
            citations.map((c) =>
              h(
                'li',
                {},
                externalLink(c.url, c.title || c.url),
                (c.excerpts ?? []).map((e) => h('blockquote', {}, e)),
              ),
            ),
          )
        : h('span', { class: 'muted' }, 'none'),
    ),
    h('td', { 'data-label': 'Reasoning' }, basis?.reasoning ?? ''),
    h(
      'td',
      { 'data-label': 'Confidence' },
      basis?.confidence ? h('span', { class: `tag confidence-${basis.confidence}` }, basis.confidence) : '—',
    ),
  );
}
