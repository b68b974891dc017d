import { api } from '/console/api.js';
import { h, mount } from '/console/dom.js';
import { clearErrors, showError } from '/console/errors.js';
import { busy, field } from '/console/form.js';
import { usageChart } from '/console/chart.js';

export const title = 'Usage';

/** GET /v1/usage?from=&to=: credits per day and SKU, as a chart and a table. */
export function render(root, { signal }) {
  const from = h('input', { id: 'usage-from', type: 'date' });
  const to = h('input', { id: 'usage-to', type: 'date' });
  const submit = h('button', { id: 'usage-submit', type: 'submit' }, 'Show');
  const general = h('div', { class: 'form-errors' });
  const output = h('section', { class: 'usage' });
  const form = h(
    'form',
    { class: 'card form inline', novalidate: true },
    h('div', { class: 'row' }, field('From', from), field('To', to), h('div', { class: 'field end' }, submit)),
    general,
  );

  const load = async () => {
    clearErrors(root);
    try {
      const { data } = await busy(submit, 'Loading…', () =>
        api('GET', '/v1/usage', { query: { from: from.value, to: to.value }, signal }),
      );
      from.value = data.from;
      to.value = data.to;
      mount(output, ...view(data));
    } catch (error) {
      if (!signal.aborted) showError(error, { scope: root, general, fields: { from, to } });
    }
  };
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    load();
  });

  mount(root, h('h1', {}, 'Usage'), form, output);
  load();
}

function view(data) {
  const { svg, legend } = usageChart(data.days, data.from, data.to);
  const perSku = new Map();
  for (const row of data.days) {
    const t = perSku.get(row.sku) ?? { quantity: 0, credits: 0 };
    perSku.set(row.sku, { quantity: t.quantity + row.quantity, credits: t.credits + row.credits });
  }
  const table = h(
    'table',
    { class: 'usage-table', 'data-testid': 'usage-table' },
    h('caption', {}, `${data.from} to ${data.to}`),
    h(
      'thead',
      {},
      h(
        'tr',
        {},
        h('th', {}, 'Day'),
        h('th', {}, 'SKU'),
        h('th', { class: 'num' }, 'Qty'),
        h('th', { class: 'num' }, 'Credits'),
      ),
    ),
    h(
      'tbody',
      {},
      data.days.length
        ? data.days.map((r) =>
            h(
              'tr',
              {},
              h('td', {}, r.date),
              h('td', {}, r.sku),
              h('td', { class: 'num' }, r.quantity),
              h('td', { class: 'num' }, r.credits),
            ),
          )
        : h('tr', {}, h('td', { colspan: 4, class: 'muted' }, 'Nothing charged in this period.')),
    ),
    h(
      'tfoot',
      {},
      [...perSku].map(([sku, t]) =>
        h(
          'tr',
          {},
          h('th', { scope: 'row' }, 'Total'),
          h('td', {}, sku),
          h('td', { class: 'num' }, t.quantity),
          h('td', { class: 'num' }, t.credits),
        ),
      ),
      h(
        'tr',
        { class: 'grand' },
        h('th', { scope: 'row' }, 'Total'),
        h('td', {}, 'all SKUs'),
        h('td', {}),
        h('td', { class: 'num', 'data-testid': 'usage-total' }, data.total_credits),
      ),
    ),
  );
  return [
    h('p', { class: 'summary' }, h('span', {}, `${data.total_credits} credits from ${data.from} to ${data.to}`)),
    h(
      'div',
      { class: 'usage-grid' },
      h('figure', { class: 'card chart-box' }, svg, legend),
      h('div', { class: 'card table-wrap' }, table),
    ),
  ];
}
