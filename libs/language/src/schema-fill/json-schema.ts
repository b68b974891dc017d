import Ajv from 'ajv';
import { type Schema, Validator, ValidatorResult } from 'jsonschema';
import { RE2JS } from 're2js';
import type { JsonSchema } from './schema-fill.port';

/**
 * User schemas are hostile: nothing here keeps one beyond its use, shares one between requests,
 * generates code from one, or runs one of its patterns on a backtracking engine.
 *
 * - A schema is checked against the draft-07 meta-schema by one Ajv instance whose only compiled
 *   schema is that meta-schema (`validateSchema` reads the user schema as data and keeps nothing).
 *   Ajv compiles a schema into a function with `new Function`, and V8 keeps the source of every
 *   distinct such function for the life of the process: compiling user schemas with Ajv leaks.
 * - Outputs are checked by an interpreting validator (`jsonschema`), a fresh one per schema, so no
 *   `$id` is shared between teams; every `$ref` must point inside the schema.
 * - `pattern` runs on RE2's linear-time engine (re2js), so `^(a+)+$` cannot backtrack on model
 *   output; `patternProperties` is refused (the validator would run those on its own engine).
 */
const metaSchema = new Ajv({ strict: false, allErrors: true, logger: false });

const REF_KEYWORDS = ['$ref', '$dynamicRef', '$recursiveRef'];

/** Patterns compiled for RE2, kept for a while: the same schema's patterns are tested on every output. */
const patterns = new Map<string, RE2JS>();
function linear(pattern: string): RE2JS {
  let compiled = patterns.get(pattern);
  if (!compiled) {
    compiled = RE2JS.compile(pattern);
    if (patterns.size >= 1_000) patterns.delete(patterns.keys().next().value!);
    patterns.set(pattern, compiled);
  }
  return compiled;
}

/** Resolves a `#/a/b` pointer (or `#`) inside the root schema; undefined when it leads nowhere. */
function resolvePointer(root: unknown, ref: string): unknown {
  if (ref === '#') return root;
  if (!ref.startsWith('#/')) return undefined;
  let node: unknown = root;
  for (const raw of ref.slice(2).split('/')) {
    let key: string;
    try {
      key = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
    } catch {
      return undefined;
    }
    if (!node || typeof node !== 'object' || !Object.prototype.hasOwnProperty.call(node, key)) return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return node;
}

/** What the schema asks that this service will not run: a reference out of it or to nothing, a pattern RE2 cannot run. */
function unsupported(schema: unknown): string | null {
  const stack: unknown[] = [schema];
  while (stack.length > 0) {
    const node = stack.pop();
    if (!node || typeof node !== 'object') continue;
    if (!Array.isArray(node)) {
      const record = node as Record<string, unknown>;
      for (const keyword of REF_KEYWORDS) {
        const ref = record[keyword];
        if (ref === undefined) continue;
        if (typeof ref !== 'string' || !ref.startsWith('#'))
          return `${keyword} ${JSON.stringify(ref)} points outside the schema; only references inside it (#/...) are allowed`;
        if (resolvePointer(schema, ref) === undefined)
          return `${keyword} ${JSON.stringify(ref)} points to nothing in the schema`;
      }
      if (record.patternProperties !== undefined) return 'patternProperties is not supported in an output schema';
      if (typeof record.pattern === 'string') {
        try {
          linear(record.pattern);
        } catch (error) {
          return `pattern ${JSON.stringify(record.pattern)} cannot be used: ${(error as Error).message}`;
        }
      }
    }
    for (const value of Object.values(node)) if (value && typeof value === 'object') stack.push(value);
  }
  return null;
}

/** Why `schema` is not a usable JSON Schema, or null when it is. */
export function schemaProblem(schema: JsonSchema): string | null {
  try {
    if (!metaSchema.validateSchema(schema)) return metaSchema.errorsText(metaSchema.errors, { dataVar: 'schema' });
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
  return unsupported(schema);
}

/**
 * The schema without its `$id`s (a string `$id`; a property named "$id" holds a schema object):
 * they only name it, and the validator would resolve them as URLs. Every `#/...` reference is
 * then read from the document's root, as `unsupported` checked it.
 */
function withoutIds(schema: unknown): unknown {
  if (!schema || typeof schema !== 'object') return schema;
  if (Array.isArray(schema)) return schema.map(withoutIds);
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    if ((key === '$id' || key === 'id') && typeof value === 'string') continue;
    out[key] = withoutIds(value);
  }
  return out;
}

/**
 * A validator of its own for one check: its patterns on RE2, and null accepted wherever a value
 * goes (a value the pages do not state is null, as `nullableSchema` tells a model), without
 * rewriting the schema, so its `#/...` references still point where they did.
 */
function validatorFor(): Validator {
  const validator = new Validator();
  const attributes = validator.attributes;
  attributes.pattern = (instance, schema, options, context) => {
    if (
      typeof instance !== 'string' ||
      typeof schema.pattern !== 'string' ||
      linear(schema.pattern).matcher(instance).find()
    )
      return new ValidatorResult(instance, schema, options, context);
    return `does not match pattern ${JSON.stringify(schema.pattern)}`;
  };
  for (const keyword of KEYWORDS) {
    const check = attributes[keyword];
    if (!check) continue;
    attributes[keyword] = function (this: Validator, instance, schema, options, context) {
      return instance === null
        ? new ValidatorResult(instance, schema, options, context)
        : check.call(this, instance, schema, options, context);
    };
  }
  return validator;
}

/** Every keyword the validator checks (its own attributes, enumerable through the prototype). */
const KEYWORDS: string[] = (() => {
  const keys: string[] = [];
  for (const key in new Validator().attributes) keys.push(key);
  return keys;
})();

/**
 * The same schema with every leaf also allowed to be null: a value the pages do not state is
 * null (unknown), never invented. Objects keep their properties (each nullable in turn), arrays
 * their items; `required` stays, so a required field is present, if only as null.
 */
export function nullableSchema(schema: JsonSchema): JsonSchema {
  const node: JsonSchema = { ...schema };
  if (node.properties && typeof node.properties === 'object') {
    node.properties = Object.fromEntries(
      Object.entries(node.properties as Record<string, JsonSchema>).map(([k, v]) => [k, nullableSchema(v ?? {})]),
    );
  }
  if (node.items && typeof node.items === 'object' && !Array.isArray(node.items))
    node.items = nullableSchema(node.items as JsonSchema);
  return { anyOf: [node, { type: 'null' }] };
}

/** Checks an output against its schema with nulls allowed at every leaf: the problems, [] when it fits. */
export function outputProblems(schema: JsonSchema, output: unknown): string[] {
  const problem = unsupported(schema);
  if (problem) return [problem];
  try {
    const result = validatorFor().validate(output, withoutIds(schema) as Schema, { nestedErrors: true });
    return result.errors.map((e) => `${e.property.replace(/^instance/, '(root)')} ${e.message}`);
  } catch (error) {
    return [error instanceof Error ? error.message : String(error)];
  }
}

/** How deep a schema nests objects and arrays: a flat object is 1. Iterative: a schema may nest deeper than the stack. */
export function schemaDepth(schema: unknown): number {
  let deepest = 0;
  const stack: Array<[unknown, number]> = [[schema, 0]];
  while (stack.length > 0) {
    const [value, above] = stack.pop()!;
    if (!value || typeof value !== 'object') continue;
    const node = value as JsonSchema;
    const container =
      node.type === 'object' || node.type === 'array' || node.properties !== undefined || node.items !== undefined;
    const depth = above + (container ? 1 : 0);
    deepest = Math.max(deepest, depth);
    if (node.properties && typeof node.properties === 'object')
      for (const child of Object.values(node.properties as object)) stack.push([child, depth]);
    if (node.items)
      for (const child of Array.isArray(node.items) ? node.items : [node.items]) stack.push([child, depth]);
    for (const key of ['anyOf', 'oneOf', 'allOf'] as const)
      if (Array.isArray(node[key])) for (const child of node[key] as unknown[]) stack.push([child, depth]);
  }
  return deepest;
}
