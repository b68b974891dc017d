import type { Type } from '@nestjs/common';
import type { ErrorDetail, Loc } from './errors';

export type ParseResult = { ok: true; value: unknown } | { ok: false; errors: ErrorDetail[] };
/** Validates one (raw) value the way pydantic's lax mode does; `loc` is where the value sits. */
export type Parser = (input: unknown, loc: Loc) => ParseResult;

export const ok = (value: unknown): ParseResult => ({ ok: true, value });
export function fail(type: string, loc: Loc, msg: string, input: unknown, ctx?: Record<string, unknown>): ParseResult {
  return { ok: false, errors: [ctx ? { type, loc, msg, input, ctx } : { type, loc, msg, input }] };
}

export interface FieldSpec {
  /** Property on the DTO instance. */
  key: string;
  /** Key read from the input and used in `loc` (pydantic's alias). */
  name: string;
  parse: Parser;
  /** May be absent (left undefined) even without a default. */
  optional: boolean;
  /** Explicit null is accepted as null; otherwise null goes to `parse` and fails with its type error. */
  nullable: boolean;
  /** List-valued: a query parameter given once still becomes a one-item list. */
  isList: boolean;
  makeDefault?: () => unknown;
}

const FIELDS = Symbol('pydantic.fields');
type WithFields = { [FIELDS]?: FieldSpec[] };

/** Registers a field in declaration order; a subclass starts from its parent's fields like pydantic. */
export function addField(target: object, spec: FieldSpec): void {
  const ctor = target.constructor as WithFields;
  if (!Object.prototype.hasOwnProperty.call(ctor, FIELDS)) {
    Object.defineProperty(ctor, FIELDS, { value: [...(ctor[FIELDS] ?? [])] });
  }
  const fields = ctor[FIELDS]!;
  const at = fields.findIndex((f) => f.key === spec.key);
  // An overriding field keeps its parent's position, as pydantic's model_fields do.
  if (at >= 0) fields[at] = spec;
  else fields.push(spec);
}

export const modelFields = (type: unknown): readonly FieldSpec[] | undefined =>
  typeof type === 'function' ? (type as WithFields)[FIELDS] : undefined;

export const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Validates `input` against a DTO class: every field in declaration order, all errors collected.
 * `missingInputNull`: FastAPI validates query/path/header parameters one by one, so their `missing`
 * errors carry `input: null`; a pydantic model (the body, nested objects) reports the whole dict.
 */
export function validateModel(type: Type<unknown>, input: unknown, loc: Loc, missingInputNull = false): ParseResult {
  if (!isObject(input)) {
    return fail(
      'model_attributes_type',
      loc,
      'Input should be a valid dictionary or object to extract fields from',
      input,
    );
  }
  const fields = modelFields(type) ?? [];
  const out = Object.create(type.prototype) as Record<string, unknown>;
  const errors: ErrorDetail[] = [];
  for (const f of fields) {
    const raw = Object.prototype.hasOwnProperty.call(input, f.name) ? input[f.name] : undefined;
    if (raw === undefined) {
      if (f.makeDefault) out[f.key] = f.makeDefault();
      else if (!f.optional) {
        errors.push({
          type: 'missing',
          loc: [...loc, f.name],
          msg: 'Field required',
          input: missingInputNull ? null : input,
        });
      }
      continue;
    }
    if (raw === null && f.nullable) {
      out[f.key] = null;
      continue;
    }
    const r = f.parse(raw, [...loc, f.name]);
    if (r.ok) out[f.key] = r.value;
    else errors.push(...r.errors);
  }
  return errors.length ? { ok: false, errors } : ok(out);
}
