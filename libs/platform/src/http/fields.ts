/**
 * Pydantic-style field declarations. Each decorator registers, from one declaration:
 *  - the field's lax parser (pydantic-core semantics, messages and ctx) for PydanticValidationPipe;
 *  - its OpenAPI schema (@nestjs/swagger ApiProperty);
 *  - a class-validator constraint, so `validate()`/`validateSync()` on a DTO instance built elsewhere
 *    reports the same pydantic message.
 * Parsing is not delegated to class-validator/class-transformer: their error model (one message per
 * property, values already transformed) cannot express pydantic's per-index `loc`, raw `input` echo,
 * or a `missing` error carrying the parent dict.
 */
import type { Type } from '@nestjs/common';
import { ApiProperty, type ApiPropertyOptions } from '@nestjs/swagger';
import { registerDecorator } from 'class-validator';
import { addField, type FieldSpec, type Parser } from './model';
import {
  boolParser,
  dateParser,
  dictParser,
  enumParser,
  floatParser,
  httpUrlParser,
  intParser,
  type ListConstraints,
  listParser,
  metadataParser,
  modelParser,
  type NumberBounds,
  type StrConstraints,
  strParser,
} from './parsers';

export interface FieldOptions<T> {
  /** May be absent; the property then stays undefined (unless `default` is given). */
  optional?: boolean;
  /** Explicit null is accepted (pydantic `X | None`). */
  nullable?: boolean;
  /** Used when the field is absent (pydantic default; not validated, as pydantic's validate_default=False). */
  default?: T | null;
  /** Input key and `loc` name when it differs from the property (e.g. a header "x-request-id"). */
  alias?: string;
  description?: string;
  example?: T;
}

/**
 * Declares a field from any parser: the building block of all decorators below, usable for custom types.
 * `schema` is the OpenAPI part (required/nullable/default/name are derived).
 */
export function PyField<T>(
  parse: Parser,
  opts: FieldOptions<T>,
  schema: ApiPropertyOptions,
  isList = false,
): PropertyDecorator {
  return (target, property) => {
    const key = String(property);
    const { default: dflt } = opts;
    const spec: FieldSpec = {
      key,
      name: opts.alias ?? key,
      parse,
      optional: !!opts.optional,
      nullable: !!opts.nullable,
      isList,
      makeDefault:
        dflt === undefined
          ? undefined
          : () => (typeof dflt === 'object' && dflt !== null ? structuredClone(dflt) : dflt),
    };
    addField(target, spec);
    ApiProperty({
      ...schema,
      ...(opts.alias !== undefined && { name: opts.alias }),
      required: !opts.optional && dflt === undefined,
      ...(opts.nullable && { nullable: true }),
      ...(dflt !== undefined && { default: dflt }),
      ...(opts.description !== undefined && { description: opts.description }),
      ...(opts.example !== undefined && { example: opts.example }),
    } as ApiPropertyOptions)(target, property);
    const firstError = (value: unknown) => {
      if (value === undefined) return spec.optional || spec.makeDefault ? undefined : 'Field required';
      if (value === null && spec.nullable) return undefined;
      const r = spec.parse(value, [key]);
      return r.ok ? undefined : r.errors[0].msg;
    };
    registerDecorator({
      name: 'pydanticField',
      target: target.constructor,
      propertyName: key,
      validator: {
        validate: (value: unknown) => firstError(value) === undefined,
        defaultMessage: (args) => firstError(args?.value) ?? '',
      },
    });
  };
}

export interface NumberFieldOptions extends FieldOptions<number>, NumberBounds {}

const numberSchema = (type: 'integer' | 'number', o: NumberBounds): ApiPropertyOptions => ({
  type,
  ...(o.ge !== undefined && { minimum: o.ge }),
  ...(o.gt !== undefined && { minimum: o.gt, exclusiveMinimum: true }),
  ...(o.le !== undefined && { maximum: o.le }),
  ...(o.lt !== undefined && { maximum: o.lt, exclusiveMaximum: true }),
  ...(o.multipleOf !== undefined && { multipleOf: o.multipleOf }),
});

const strSchema = (c: StrConstraints): ApiPropertyOptions => ({
  type: 'string',
  ...(c.minLength !== undefined && { minLength: c.minLength }),
  ...(c.maxLength !== undefined && { maxLength: c.maxLength }),
  ...(c.pattern !== undefined && { pattern: c.pattern }),
});

const listSchema = (c: ListConstraints) => ({
  ...(c.minItems !== undefined && { minItems: c.minItems }),
  ...(c.maxItems !== undefined && { maxItems: c.maxItems }),
});

/** `int` with optional ge/gt/le/lt/multiple_of. */
export const IntField = (o: NumberFieldOptions = {}) => PyField(intParser(o), o, numberSchema('integer', o));

/** `float` with optional ge/gt/le/lt/multiple_of. */
export const FloatField = (o: NumberFieldOptions = {}) => PyField(floatParser(o), o, numberSchema('number', o));

/** `str` with optional min_length/max_length/pattern. */
export const StrField = (o: FieldOptions<string> & StrConstraints = {}) => PyField(strParser(o), o, strSchema(o));

export const BoolField = (o: FieldOptions<boolean> = {}) => PyField(boolParser(), o, { type: 'boolean' });

/** A str Enum: pass the allowed values or a TS string enum object. */
export function EnumField<V extends string>(values: readonly V[] | Record<string, V>, o: FieldOptions<V> = {}) {
  const list = Array.isArray(values) ? [...values] : Object.values(values as Record<string, V>);
  return PyField(enumParser(list), o, { type: 'string', enum: list });
}

/** `datetime.date`, kept as its YYYY-MM-DD string. */
export const DateField = (o: FieldOptions<string> = {}) => PyField(dateParser(), o, { type: 'string', format: 'date' });

/** pydantic `HttpUrl` (or `AnyUrl` with `anyScheme`); the value becomes the normalised URL string. */
export const UrlField = (o: FieldOptions<string> & { maxLength?: number; anyScheme?: boolean } = {}) =>
  PyField(httpUrlParser(o.maxLength, o.anyScheme), o, {
    type: 'string',
    format: 'uri',
    minLength: 1,
    maxLength: o.maxLength ?? 2083,
  });

/** `list[HttpUrl]` (or `list[AnyUrl]`) with list bounds. */
export const UrlListField = (
  o: FieldOptions<string[]> & ListConstraints & { maxLength?: number; anyScheme?: boolean } = {},
) =>
  PyField(
    listParser(httpUrlParser(o.maxLength, o.anyScheme), o),
    o,
    { type: 'array', items: { type: 'string', format: 'uri' }, ...listSchema(o) } as ApiPropertyOptions,
    true,
  );

/** `list[str]` with list bounds and per-item string constraints. */
export const StrListField = (
  o: FieldOptions<string[]> &
    ListConstraints & { itemMinLength?: number; itemMaxLength?: number; itemPattern?: string } = {},
) => {
  const item: StrConstraints = { minLength: o.itemMinLength, maxLength: o.itemMaxLength, pattern: o.itemPattern };
  return PyField(
    listParser(strParser(item), o),
    o,
    { type: 'array', items: strSchema(item), ...listSchema(o) } as ApiPropertyOptions,
    true,
  );
};

/** `dict[str, Any]`. */
export const DictField = (o: FieldOptions<Record<string, unknown>> = {}) =>
  PyField(dictParser(), o, { type: 'object', additionalProperties: true } as ApiPropertyOptions);

/** Caller metadata: a dictionary whose keys, at any depth, hold no control characters (see `metadataParser`). */
export const MetadataField = (o: FieldOptions<Record<string, unknown>> = {}) =>
  PyField(metadataParser(), o, {
    type: 'object',
    additionalProperties: true,
    description: 'Caller metadata; keys may not contain control characters',
  } as ApiPropertyOptions);

/** A nested model, or with `list: true` a `list[Model]`. Pass the class or a thunk for forward references. */
export function NestedField(
  type: Type<unknown> | (() => Type<unknown>),
  o: FieldOptions<unknown> & ListConstraints & { list?: boolean } = {},
) {
  // A class has a prototype; an arrow thunk does not.
  const resolve = (type.prototype ? () => type : type) as () => Type<unknown>;
  const parse = o.list ? listParser(modelParser(resolve), o) : modelParser(resolve);
  // @nestjs/swagger recognises a lazy type only by the function's name being "type".
  const schema = { type: () => resolve(), ...(o.list && { isArray: true, ...listSchema(o) }) };
  return PyField(parse, o, schema as ApiPropertyOptions, !!o.list);
}
