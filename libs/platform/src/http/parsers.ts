/** The lax field parsers (pydantic-core semantics, messages and ctx) that the field decorators register. */
import type { Type } from '@nestjs/common';
import { BOOL_STRINGS, expectedRepr, plural, strAsFloat, strAsInt } from './coercions';
import type { ErrorDetail, Loc } from './errors';
import { fail, isObject, ok, validateModel, type ParseResult, type Parser } from './model';

export interface NumberBounds {
  ge?: number;
  gt?: number;
  le?: number;
  lt?: number;
  multipleOf?: number;
}

// Same order as pydantic-core's constrained int/float validators: multiple_of, le, lt, ge, gt.
function checkBounds(n: number, b: NumberBounds, input: unknown, loc: Loc): ParseResult {
  if (b.multipleOf !== undefined && n % b.multipleOf !== 0) {
    return fail('multiple_of', loc, `Input should be a multiple of ${b.multipleOf}`, input, {
      multiple_of: b.multipleOf,
    });
  }
  if (b.le !== undefined && !(n <= b.le))
    return fail('less_than_equal', loc, `Input should be less than or equal to ${b.le}`, input, { le: b.le });
  if (b.lt !== undefined && !(n < b.lt))
    return fail('less_than', loc, `Input should be less than ${b.lt}`, input, { lt: b.lt });
  if (b.ge !== undefined && !(n >= b.ge))
    return fail('greater_than_equal', loc, `Input should be greater than or equal to ${b.ge}`, input, { ge: b.ge });
  if (b.gt !== undefined && !(n > b.gt))
    return fail('greater_than', loc, `Input should be greater than ${b.gt}`, input, { gt: b.gt });
  return ok(n);
}

export const intParser =
  (bounds: NumberBounds = {}): Parser =>
  (input, loc) => {
    let n: number | undefined;
    // bool is an int subclass in Python: lax mode takes True/False as 1/0 (src/input/input_python.rs validate_int).
    if (typeof input === 'boolean') n = input ? 1 : 0;
    else if (typeof input === 'number') {
      if (!Number.isInteger(input))
        return fail(
          'int_from_float',
          loc,
          'Input should be a valid integer, got a number with a fractional part',
          input,
        );
      if (Math.abs(input) >= 2 ** 63)
        return fail(
          'int_parsing_size',
          loc,
          'Unable to parse input string as an integer, exceeded maximum size',
          input,
        );
      n = input;
    } else if (typeof input === 'string') {
      n = strAsInt(input);
      if (n === undefined)
        return fail('int_parsing', loc, 'Input should be a valid integer, unable to parse string as an integer', input);
    } else return fail('int_type', loc, 'Input should be a valid integer', input);
    return checkBounds(n, bounds, input, loc);
  };

export const floatParser =
  (bounds: NumberBounds = {}): Parser =>
  (input, loc) => {
    let n: number | undefined;
    if (typeof input === 'number') n = input;
    else if (typeof input === 'boolean') n = input ? 1 : 0;
    else if (typeof input === 'string') {
      n = strAsFloat(input);
      if (n === undefined)
        return fail('float_parsing', loc, 'Input should be a valid number, unable to parse string as a number', input);
    } else return fail('float_type', loc, 'Input should be a valid number', input);
    return checkBounds(n, bounds, input, loc);
  };

export interface StrConstraints {
  minLength?: number;
  maxLength?: number;
  pattern?: string;
}

export const strParser = (c: StrConstraints = {}): Parser => {
  const re = c.pattern === undefined ? undefined : new RegExp(c.pattern, 'u');
  return (input, loc) => {
    // pydantic never turns numbers into strings unless coerce_numbers_to_str is set.
    if (typeof input !== 'string') return fail('string_type', loc, 'Input should be a valid string', input);
    const len = [...input].length; // Python counts code points, not UTF-16 units
    if (c.minLength !== undefined && len < c.minLength) {
      return fail(
        'string_too_short',
        loc,
        `String should have at least ${c.minLength} character${plural(c.minLength)}`,
        input,
        { min_length: c.minLength },
      );
    }
    if (c.maxLength !== undefined && len > c.maxLength) {
      return fail(
        'string_too_long',
        loc,
        `String should have at most ${c.maxLength} character${plural(c.maxLength)}`,
        input,
        { max_length: c.maxLength },
      );
    }
    if (re && !re.test(input)) {
      return fail('string_pattern_mismatch', loc, `String should match pattern '${c.pattern}'`, input, {
        pattern: c.pattern,
      });
    }
    return ok(input);
  };
};

export const boolParser = (): Parser => (input, loc) => {
  if (typeof input === 'boolean') return ok(input);
  const parsing = () => fail('bool_parsing', loc, 'Input should be a valid boolean, unable to interpret input', input);
  if (typeof input === 'string') {
    const v = BOOL_STRINGS[input.toLowerCase()];
    return v === undefined ? parsing() : ok(v);
  }
  if (typeof input === 'number' && Number.isInteger(input))
    return input === 0 || input === 1 ? ok(input === 1) : parsing();
  return fail('bool_type', loc, 'Input should be a valid boolean', input);
};

/** A Python `str` Enum: members are matched exactly. */
export const enumParser = (values: readonly (string | number)[]): Parser => {
  const expected = expectedRepr(values);
  return (input, loc) =>
    values.includes(input as string | number)
      ? ok(input)
      : fail('enum', loc, `Input should be ${expected}`, input, { expected });
};

const isDigitByte = (b: number | undefined) => b !== undefined && b >= 0x30 && b <= 0x39;

/** speedate's Date::parse_bytes_rfc3339 error, or undefined for a valid YYYY-MM-DD. */
export function dateError(s: string): string | undefined {
  const b = Buffer.from(s, 'utf8'); // speedate works on bytes
  if (b.length < 10) return 'input is too short';
  const digits = (from: number, to: number) => {
    for (let i = from; i < to; i++) if (!isDigitByte(b[i])) return false;
    return true;
  };
  const num = (from: number, to: number) => Number(b.subarray(from, to).toString('latin1'));
  if (!digits(0, 4)) return 'invalid character in year';
  if (b[4] !== 0x2d) return 'invalid date separator, expected `-`';
  if (!digits(5, 7)) return 'invalid character in month';
  if (b[7] !== 0x2d) return 'invalid date separator, expected `-`';
  if (!digits(8, 10)) return 'invalid character in day';
  const [year, month, day] = [num(0, 4), num(5, 7), num(8, 10)];
  if (month < 1 || month > 12) return 'month value is outside expected range of 1-12';
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  const maxDay = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1];
  if (day < 1 || day > maxDay) return 'day value is outside expected range';
  if (b.length > 10) return 'unexpected extra characters at the end of the input';
  return undefined;
}

/**
 * YYYY-MM-DD, kept as that string. Our API contract reports every bad date string as `date_parsing`
 * (real pydantic falls back to datetime parsing and says `date_from_datetime_parsing` for e.g. "yesterday",
 * and also accepts unix timestamps and midnight datetimes, which this field rejects).
 */
export const dateParser = (): Parser => (input, loc) => {
  if (typeof input !== 'string') return fail('date_type', loc, 'Input should be a valid date', input);
  const error = dateError(input);
  return error === undefined
    ? ok(input)
    : fail('date_parsing', loc, `Input should be a valid date in the format YYYY-MM-DD, ${error}`, input, { error });
};

/** Best guess at rust-url's ParseError for a string WHATWG URL rejected (Node gives no reason). */
function urlParseReason(s: string): string {
  const t = s.replace(/^[\u0000-\u0020]+/, '');
  if (!/^[a-zA-Z][a-zA-Z0-9+.-]*:/.test(t)) return 'relative URL without a base';
  const authority = t.replace(/^[^:]*:[/\\]*/, '').split(/[/\\?#]/)[0];
  const hostPort = authority.slice(authority.lastIndexOf('@') + 1);
  if (hostPort === '' || hostPort.startsWith(':')) return 'empty host';
  if (hostPort.startsWith('[')) return 'invalid IPv6 address';
  const port = /:([^:]*)$/.exec(hostPort);
  if (port && (!/^\d*$/.test(port[1]) || Number(port[1]) > 65535)) return 'invalid port number';
  if (/^[\d.]+$/.test(port ? hostPort.slice(0, port.index) : hostPort)) return 'invalid IPv4 address';
  return 'invalid domain character';
}

/** pydantic's HttpUrl: http(s) only, at most `maxLength` bytes, normalised like str(HttpUrl) (WHATWG href). */
/** pydantic `HttpUrl` (http and https only), or with `anyScheme` pydantic `AnyUrl` (any absolute URL). */
export const httpUrlParser =
  (maxLength = 2083, anyScheme = false): Parser =>
  (input, loc) => {
    if (typeof input !== 'string') return fail('url_type', loc, 'URL input should be a string or URL', input);
    if (Buffer.byteLength(input) > maxLength) {
      return fail('url_too_long', loc, `URL should have at most ${maxLength} character${plural(maxLength)}`, input, {
        max_length: maxLength,
      });
    }
    let url: URL;
    try {
      if (input === '') throw new TypeError('empty');
      url = new URL(input);
    } catch {
      const error = input === '' ? 'input is empty' : urlParseReason(input);
      return fail('url_parsing', loc, `Input should be a valid URL, ${error}`, input, { error });
    }
    if (!anyScheme && url.protocol !== 'http:' && url.protocol !== 'https:') {
      const expected_schemes = "'http' or 'https'";
      return fail('url_scheme', loc, `URL scheme should be ${expected_schemes}`, input, { expected_schemes });
    }
    return ok(url.href);
  };

/** `dict[str, Any]`. */
export const dictParser = (): Parser => (input, loc) =>
  isObject(input) ? ok({ ...input }) : fail('dict_type', loc, 'Input should be a valid dictionary', input);

const CONTROL = /[\u0000-\u001f\u007f]/;

/**
 * Caller metadata (`metadata`): a dictionary, at any depth free of keys holding control
 * characters. A NUL in a key is refused by BSON, so a read model (MongoDB) could not store the
 * run; no store is given a key it may refuse. Iterative: metadata may nest deeper than the stack.
 */
export const metadataParser =
  (inner: Parser = dictParser()): Parser =>
  (input, loc) => {
    const parsed = inner(input, loc);
    if (!parsed.ok) return parsed;
    const errors: ErrorDetail[] = [];
    // Paths as links to their parent, spelled out only for an error: copying each level's path
    // would be quadratic in the nesting.
    type Path = { key: string | number; parent: Path | null } | null;
    const spell = (path: Path): Loc => {
      const keys: (string | number)[] = [];
      for (let p = path; p; p = p.parent) keys.push(p.key);
      return [...loc, ...keys.reverse()];
    };
    const stack: Array<[unknown, Path]> = [[input, null]];
    while (stack.length > 0 && errors.length < 20) {
      const [value, path] = stack.pop()!;
      if (!value || typeof value !== 'object') continue;
      const list = Array.isArray(value);
      for (const [key, child] of Object.entries(value)) {
        const here = { key: list ? Number(key) : key, parent: path };
        if (!list && CONTROL.test(key)) {
          errors.push({
            type: 'value_error',
            loc: spell(here),
            msg: 'Value error, a metadata key may not contain control characters (U+0000 to U+001F, U+007F)',
            input: key,
          });
        }
        if (child && typeof child === 'object') stack.push([child, here]);
      }
    }
    return errors.length ? { ok: false, errors } : parsed;
  };

export interface ListConstraints {
  minItems?: number;
  maxItems?: number;
}

/**
 * pydantic-core's list validator: items are validated with their index in `loc`; exceeding max_length
 * replaces every other error (it aborts during iteration); min_length is only checked once all items pass.
 */
export const listParser =
  (item: Parser, c: ListConstraints = {}): Parser =>
  (input, loc) => {
    if (!Array.isArray(input)) return fail('list_type', loc, 'Input should be a valid list', input);
    const n = input.length;
    if (c.maxItems !== undefined && n > c.maxItems) {
      return fail(
        'too_long',
        loc,
        `List should have at most ${c.maxItems} item${plural(c.maxItems)} after validation, not ${n}`,
        input,
        {
          field_type: 'List',
          max_length: c.maxItems,
          actual_length: n,
        },
      );
    }
    const out: unknown[] = [];
    const errors = input.flatMap((v, i) => {
      const r = item(v, [...loc, i]);
      if (!r.ok) return r.errors;
      out.push(r.value);
      return [];
    });
    if (errors.length) return { ok: false, errors };
    if (c.minItems !== undefined && n < c.minItems) {
      return fail(
        'too_short',
        loc,
        `List should have at least ${c.minItems} item${plural(c.minItems)} after validation, not ${n}`,
        input,
        {
          field_type: 'List',
          min_length: c.minItems,
          actual_length: n,
        },
      );
    }
    return ok(out);
  };

/** A nested pydantic model (FastAPI validates with from_attributes, hence model_attributes_type). */
export const modelParser =
  (type: () => Type<unknown>): Parser =>
  (input, loc) =>
    validateModel(type(), input, loc);
