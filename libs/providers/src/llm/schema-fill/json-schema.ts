import Ajv, { type ValidateFunction } from 'ajv';
import type { JsonSchema } from './schema-fill.port';

const ajv = new Ajv({ strict: false, allErrors: true, validateSchema: true });

/** Why `schema` is not a usable JSON Schema, or null when it is. */
export function schemaProblem(schema: JsonSchema): string | null {
  try {
    ajv.compile(schema);
    return null;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

/**
 * The same schema with every leaf also allowed to be null: a value the pages do not state is
 * null (unknown), never invented. Objects keep their properties (each nullable in turn), arrays
 * their items; `required` stays, so a required field is present, if only as null.
 */
export function nullableSchema(schema: JsonSchema): JsonSchema {
  const node: JsonSchema = { ...schema };
  if (node.properties && typeof node.properties === 'object') {
    node.properties = Object.fromEntries(Object.entries(node.properties as Record<string, JsonSchema>).map(([k, v]) => [k, nullableSchema(v ?? {})]));
  }
  if (node.items && typeof node.items === 'object' && !Array.isArray(node.items)) node.items = nullableSchema(node.items as JsonSchema);
  return { anyOf: [node, { type: 'null' }] };
}

const validators = new WeakMap<JsonSchema, ValidateFunction>();

/** Checks an output against its schema with nulls allowed at every leaf: the problems, [] when it fits. */
export function outputProblems(schema: JsonSchema, output: unknown): string[] {
  let validate = validators.get(schema);
  if (!validate) {
    validate = ajv.compile(nullableSchema(schema));
    validators.set(schema, validate);
  }
  if (validate(output)) return [];
  return (validate.errors ?? []).map((e) => `${e.instancePath || '(root)'} ${e.message ?? 'is invalid'}`);
}

/** How deep a schema nests objects and arrays: a flat object is 1. */
export function schemaDepth(schema: unknown): number {
  if (!schema || typeof schema !== 'object') return 0;
  const node = schema as JsonSchema;
  const children: unknown[] = [];
  if (node.properties && typeof node.properties === 'object') children.push(...Object.values(node.properties as object));
  if (node.items) children.push(...(Array.isArray(node.items) ? node.items : [node.items]));
  for (const key of ['anyOf', 'oneOf', 'allOf'] as const) if (Array.isArray(node[key])) children.push(...(node[key] as unknown[]));
  const nested = children.reduce<number>((max, child) => Math.max(max, schemaDepth(child)), 0);
  const container = node.type === 'object' || node.type === 'array' || node.properties !== undefined || node.items !== undefined;
  return container ? 1 + nested : nested;
}
