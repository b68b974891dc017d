import { type Static, type TSchema, Type } from '@sinclair/typebox';

/**
 * The public shapes the domain answers (a run's view and its parts) are declared once, as JSON
 * Schema with TypeBox: the TypeScript type is derived from the schema (`Static`), the view
 * function must produce it, and the gateway serves the same schema in its OpenAPI document (from
 * which the client's types are generated) and the MCP server gives it as a tool's output schema.
 * A schema with an `$id` is a named part: the OpenAPI document holds it once, as a component.
 * Schemas here are plain JSON Schema (draft 2020-12 keywords, null as a type of its own); the
 * gateway writes them in OpenAPI 3.0's dialect. Nothing here knows of HTTP.
 */
export { type Static, type TSchema, Type };

/** The schema, or null. */
export const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

/** One of the listed strings (an `enum`, which every JSON Schema dialect reads alike). */
export const StringEnum = <const V extends readonly string[]>(values: V, options: { description?: string } = {}) =>
  Type.Unsafe<V[number]>({ type: 'string', enum: [...values], ...options });

/** An object of any keys, each value of `value`'s schema. */
export const MapOf = <T extends TSchema>(value: T, options: { description?: string } = {}) =>
  Type.Unsafe<Record<string, Static<T>>>({ type: 'object', additionalProperties: value, ...options });

/** Any JSON object. */
export const AnyObject = (options: { description?: string } = {}) =>
  Type.Unsafe<Record<string, unknown>>({ type: 'object', additionalProperties: true, ...options });

export const CONFIDENCE_LEVELS = ['high', 'medium', 'low'] as const;
export const Confidence = StringEnum(CONFIDENCE_LEVELS);

/** `{input, output}` token counts. */
export const TokenCounts = Type.Object({ input: Type.Integer(), output: Type.Integer() });

/**
 * The schema as a self-contained JSON Schema: named parts inlined without their `$id` (a part used
 * twice would otherwise declare one id twice) and TypeBox's own markers dropped.
 */
export function plainJsonSchema(schema: TSchema): Record<string, unknown> {
  return JSON.parse(JSON.stringify(schema, (key, value: unknown) => (key === '$id' ? undefined : value))) as Record<
    string,
    unknown
  >;
}
