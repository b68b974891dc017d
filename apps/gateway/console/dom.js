/**
 * A tiny element builder: every string child becomes a text node, so nothing the API returns is
 * ever parsed as HTML. Attributes starting with "on" take a listener; `false`/`null` skip an attribute.
 */
export function h(tag, attrs = {}, ...children) {
  const svg = tag.startsWith('svg:');
  const el = svg ? document.createElementNS('http://www.w3.org/2000/svg', tag.slice(4)) : document.createElement(tag);
  for (const [name, value] of Object.entries(attrs ?? {})) {
    if (value === false || value === null || value === undefined) continue;
    if (name.startsWith('on') && typeof value === 'function') el.addEventListener(name.slice(2), value);
    else if (name === 'class') el.setAttribute('class', value);
    else if (!svg && (name === 'value' || name === 'checked' || name === 'selected')) el[name] = value;
    else el.setAttribute(name, value === true ? '' : String(value));
  }
  append(el, children);
  return el;
}

function append(el, children) {
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

/** Replaces an element's content. */
export function mount(el, ...children) {
  el.replaceChildren();
  append(el, children);
  return el;
}

/** A link that opens outside the console; only http(s) targets are made clickable. */
export function externalLink(url, text) {
  const safe = typeof url === 'string' && /^https?:\/\//i.test(url);
  return safe
    ? h('a', { href: url, target: '_blank', rel: 'noopener noreferrer' }, text || url)
    : h('span', {}, text || String(url ?? ''));
}

const pad = (n) => String(n).padStart(2, '0');

/** An ISO time as local "YYYY-MM-DD HH:MM:SS" (".mmm" with `ms`); anything unparsable is shown as given. */
export function formatTime(iso, { ms = false } = {}) {
  if (!iso) return '-';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return String(iso);
  const seconds = `${pad(d.getSeconds())}${ms ? `.${String(d.getMilliseconds()).padStart(3, '0')}` : ''}`;
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}:${seconds}`;
}

/** "1 credit", "3 credits". */
export const plural = (n, word) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** JSON folded away in a <details>, for the curious. */
export function jsonDetails(label, value, open = false) {
  return h('details', { class: 'json', open }, h('summary', {}, label), h('pre', {}, JSON.stringify(value, null, 2)));
}

/** A status word as a coloured badge. */
export function statusBadge(status, attrs = {}) {
  return h(
    'span',
    { class: `badge status-${String(status ?? 'unknown').replace(/[^a-z]/gi, '')}`, ...attrs },
    String(status ?? 'unknown'),
  );
}

/** Splits a textarea into its non-empty trimmed lines. */
export const lines = (text) =>
  text
    .split(/\r?\n/)
    .map((s) => s.trim())
    .filter(Boolean);

/** Splits "a.com, b.org" into its non-empty trimmed parts. */
export const commaList = (text) =>
  text
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);

/** A promise that resolves after `ms`, or at once when the signal aborts. */
export function sleep(ms, signal) {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true });
  });
}
