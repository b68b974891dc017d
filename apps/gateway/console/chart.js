import { h } from '/console/dom.js';

/** The SKUs API.md prices, in a fixed order so each keeps its colour from one visit to the next. */
const KNOWN_SKUS = [
  'sku_search',
  'sku_objective_rerank',
  'sku_contents_text',
  'sku_deep_search',
  'sku_extract',
  'sku_task_step',
  'sku_findall_query',
  'sku_findall_match',
  'sku_findall_enrich',
  'sku_monitor_run',
  'sku_chat_step',
];
const PALETTE = [
  '#2563eb',
  '#f59e0b',
  '#10b981',
  '#8b5cf6',
  '#ef4444',
  '#0891b2',
  '#d946ef',
  '#65a30d',
  '#ea580c',
  '#475569',
  '#db2777',
  '#0d9488',
];

export function skuColour(sku) {
  const known = KNOWN_SKUS.indexOf(sku);
  if (known !== -1) return PALETTE[known];
  let hash = 0;
  for (const c of sku) hash = (hash * 31 + c.charCodeAt(0)) >>> 0;
  return PALETTE[hash % PALETTE.length];
}

/** Every UTC day from `from` to `to` (YYYY-MM-DD, inclusive). */
export function daysBetween(from, to) {
  const out = [];
  const end = Date.parse(`${to}T00:00:00Z`);
  for (let t = Date.parse(`${from}T00:00:00Z`); t <= end && out.length < 1000; t += 86_400_000)
    out.push(new Date(t).toISOString().slice(0, 10));
  return out;
}

/** A round axis maximum at or above `value`: 1, 2, 5 times a power of ten. */
function niceMax(value) {
  if (value <= 5) return Math.max(1, Math.ceil(value));
  const power = 10 ** Math.floor(Math.log10(value));
  return [1, 2, 5, 10].map((m) => m * power).find((m) => m >= value);
}

/**
 * Credits per day as stacked bars, one colour per SKU, drawn by hand: one <rect
 * data-testid="usage-bar"> per (day, SKU) that has credits, with axes, labels and gridlines.
 */
export function usageChart(rows, from, to) {
  const days = daysBetween(from, to);
  const skus = [...new Set(rows.map((r) => r.sku))].sort((a, b) => {
    const ka = KNOWN_SKUS.indexOf(a);
    const kb = KNOWN_SKUS.indexOf(b);
    return (ka === -1 ? 99 : ka) - (kb === -1 ? 99 : kb) || a.localeCompare(b);
  });
  const byDay = new Map(days.map((d) => [d, new Map()]));
  for (const r of rows) byDay.get(r.date)?.set(r.sku, (byDay.get(r.date).get(r.sku) ?? 0) + r.credits);
  const totals = days.map((d) => [...byDay.get(d).values()].reduce((a, b) => a + b, 0));
  const yMax = niceMax(Math.max(0, ...totals));

  // The drawing is as wide as the screen allows, so its text keeps a readable size on a phone.
  const W = Math.round(Math.min(760, Math.max(340, (globalThis.innerWidth ?? 760) - 48)));
  const H = 300;
  const m = { left: 52, right: 12, top: 14, bottom: 52 };
  const plotW = W - m.left - m.right;
  const plotH = H - m.top - m.bottom;
  const slot = plotW / Math.max(1, days.length);
  const barW = Math.max(1, slot * 0.72);
  const y = (v) => m.top + plotH - (v / yMax) * plotH;

  const parts = [];
  const ticks = 5;
  for (let i = 0; i <= ticks; i += 1) {
    const v = (yMax / ticks) * i;
    parts.push(
      h('svg:line', { x1: m.left, x2: W - m.right, y1: y(v), y2: y(v), class: i === 0 ? 'axis' : 'grid' }),
      h(
        'svg:text',
        { x: m.left - 6, y: y(v) + 4, 'text-anchor': 'end', class: 'tick' },
        Number.isInteger(v) ? String(v) : v.toFixed(1),
      ),
    );
  }
  const every = Math.max(1, Math.ceil(days.length / Math.max(3, Math.floor(plotW / 70))));
  const last = days.length - 1;
  days.forEach((day, i) => {
    const x = m.left + i * slot + (slot - barW) / 2;
    let base = 0;
    for (const sku of skus) {
      const credits = byDay.get(day).get(sku) ?? 0;
      if (credits <= 0) continue;
      parts.push(
        h(
          'svg:rect',
          {
            x: x.toFixed(2),
            y: y(base + credits).toFixed(2),
            width: barW.toFixed(2),
            height: (y(base) - y(base + credits)).toFixed(2),
            fill: skuColour(sku),
            'data-testid': 'usage-bar',
            'data-day': day,
            'data-sku': sku,
          },
          h('svg:title', {}, `${day} ${sku}: ${credits} credit${credits === 1 ? '' : 's'}`),
        ),
      );
      base += credits;
    }
    // Every `every`-th day is labelled, and the last day when it does not crowd the label before it.
    if (i % every === 0 || (i === last && last % every >= every / 2)) {
      parts.push(
        h(
          'svg:text',
          {
            x: (m.left + i * slot + slot / 2).toFixed(2),
            y: H - m.bottom + 16,
            'text-anchor': 'middle',
            class: 'tick',
          },
          day.slice(5),
        ),
      );
    }
  });
  parts.push(
    h('svg:line', { x1: m.left, x2: m.left, y1: m.top, y2: m.top + plotH, class: 'axis' }),
    h(
      'svg:text',
      { x: m.left + plotW / 2, y: H - 10, 'text-anchor': 'middle', class: 'axis-label' },
      'Day (UTC, month-day)',
    ),
    h(
      'svg:text',
      {
        x: 14,
        y: m.top + plotH / 2,
        'text-anchor': 'middle',
        class: 'axis-label',
        transform: `rotate(-90 14 ${m.top + plotH / 2})`,
      },
      'Credits',
    ),
  );

  const svg = h(
    'svg:svg',
    {
      viewBox: `0 0 ${W} ${H}`,
      class: 'chart',
      role: 'img',
      'aria-label': `Credits per day from ${from} to ${to}, stacked by SKU`,
      'data-testid': 'usage-chart',
    },
    parts,
  );
  const legend = h(
    'ul',
    { class: 'legend', 'aria-label': 'SKUs' },
    skus.map((sku) => h('li', {}, h('span', { class: 'swatch', style: `background:${skuColour(sku)}` }), sku)),
  );
  return { svg, legend };
}
