/** Small normalisers shared by the HTTP search adapters. */

// A Map, not an object literal: upstream text must not reach Object.prototype (`&constructor;`).
const ENTITIES = new Map([
  ['amp', '&'],
  ['lt', '<'],
  ['gt', '>'],
  ['quot', '"'],
  ['apos', "'"],
  ['nbsp', ' '],
]);

/** Snippets and titles as plain text: upstreams sometimes leave `<strong>` marks and entities in. */
export function plainText(value: unknown): string {
  if (typeof value !== 'string') return '';
  return value
    .replace(/<[^>]{0,200}>/g, '')
    .replace(/&(#x[0-9a-f]+|#\d+|[a-z]+\d*);/gi, (whole, name: string) => {
      const lower = name.toLowerCase();
      if (lower.startsWith('#x')) return safeCodePoint(parseInt(lower.slice(2), 16)) ?? whole;
      if (lower.startsWith('#')) return safeCodePoint(parseInt(lower.slice(1), 10)) ?? whole;
      return ENTITIES.get(lower) ?? whole;
    })
    .replace(/\s+/g, ' ')
    .trim();
}

function safeCodePoint(code: number): string | undefined {
  return Number.isInteger(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : undefined;
}

// Engines report placeholder dates (1970-01-01, far future); a web page older than the web is one.
const EARLIEST = '1991-01-01';

/**
 * `YYYY-MM-DD` from an ISO-like timestamp. Takes the calendar date as written (the page's own
 * local date) rather than converting to UTC, which would shift late-evening dates by a day.
 */
export function isoDay(value: unknown, now = new Date()): string | null {
  if (typeof value !== 'string') return null;
  const m = /^\s*(\d{4})-(\d{2})-(\d{2})/.exec(value);
  if (!m) return null;
  return plausibleDay(Number(m[1]), Number(m[2]), Number(m[3]), now);
}

export function plausibleDay(year: number, month: number, day: number, now = new Date()): string | null {
  const date = new Date(Date.UTC(year, month - 1, day));
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return null;
  const text = date.toISOString().slice(0, 10);
  const tomorrow = new Date(now.getTime() + 86_400_000).toISOString().slice(0, 10);
  return text < EARLIEST || text > tomorrow ? null : text;
}
