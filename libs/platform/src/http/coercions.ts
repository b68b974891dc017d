/**
 * Pydantic's messages and lax coercions: how an input value is shown in a message, and which
 * strings pydantic-core takes as an int, a float or a bool (the parsers build on these).
 */

export const plural = (n: number) => (n === 1 ? '' : 's');

/** Python's repr() of a str/number, as pydantic prints enum members in `expected`. */
export function pyRepr(v: string | number): string {
  if (typeof v === 'number') return String(v);
  const q = v.includes("'") && !v.includes('"') ? '"' : "'";
  const body = v.replace(/\\/g, '\\\\').replace(/\n/g, '\\n').replace(/\r/g, '\\r').replace(/\t/g, '\\t');
  return q + (q === "'" ? body.replace(/'/g, "\\'") : body) + q;
}

/** "'a', 'b' or 'c'" — pydantic's rendering of the allowed values. */
export function expectedRepr(values: readonly (string | number)[]): string {
  const r = values.map(pyRepr);
  return r.length <= 1 ? r.join('') : `${r.slice(0, -1).join(', ')} or ${r[r.length - 1]}`;
}

// pydantic-core src/input/shared.rs: strip_underscores / strip_leading_zeros / clean_int_str / str_as_int.
const stripUnderscores = (s: string) =>
  s.startsWith('_') || s.endsWith('_') || !s.includes('_') || s.includes('__') ? undefined : s.replace(/_/g, '');

function stripLeadingZeros(s: string): string | undefined {
  const first = s[0];
  if (first !== '0') return first !== undefined && ((first >= '1' && first <= '9') || first === '-') ? s : undefined;
  for (let i = 1; i < s.length; i++) {
    const c = s[i];
    if (c === '0' || c === '_') continue;
    if ((c >= '1' && c <= '9') || c === '-') return s.slice(i);
    if (c === '.') return s.slice(i - 1);
    return undefined;
  }
  return s.slice(-1);
}

function cleanIntStr(str: string): string | undefined {
  let s = str.trim();
  if (s.startsWith('+')) {
    if (s[1] === '-') return undefined;
    s = s.slice(1);
  }
  const negative = s.startsWith('-');
  if (negative) {
    if (s[1] === '-' || s[1] === '+') return undefined;
    s = s.slice(1);
  }
  const unzeroed = stripLeadingZeros(s);
  if (unzeroed === undefined) return undefined;
  s = unzeroed;
  const dot = s.indexOf('.');
  if (dot >= 0 && /^0+$/.test(s.slice(dot + 1))) s = s.slice(0, dot);
  const sign = negative ? '-' : '';
  const plain = stripUnderscores(s);
  if (plain !== undefined) return sign + plain;
  return str.length === s.length ? undefined : sign + s;
}

const JSON_INT = /^-?(?:0|[1-9]\d*)$/;
export function strAsInt(s: string): number | undefined {
  if (JSON_INT.test(s)) return Number(s);
  const cleaned = cleanIntStr(s);
  return cleaned !== undefined && JSON_INT.test(cleaned) ? Number(cleaned) : undefined;
}

// Rust's f64::from_str grammar (after trim), then the underscore retry of str_as_float.
const RUST_F64 = /^[+-]?(?:inf|infinity|nan|(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?)$/i;
function rustF64(s: string): number | undefined {
  if (!RUST_F64.test(s)) return undefined;
  if (/nan$/i.test(s)) return NaN;
  if (/inf(inity)?$/i.test(s)) return s.startsWith('-') ? -Infinity : Infinity;
  return Number(s);
}
export const strAsFloat = (s: string) => rustF64(s.trim()) ?? rustF64(stripUnderscores(s) ?? '');

export const BOOL_STRINGS: Record<string, boolean> = {
  '0': false,
  f: false,
  n: false,
  no: false,
  off: false,
  false: false,
  '1': true,
  t: true,
  y: true,
  yes: true,
  on: true,
  true: true,
};
