import type { ReferenceObject, SchemaObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import {
  FindingSchema,
  SkuLineItemSchema,
  SourceSchema,
  TaskFieldBasisSchema,
  TaskUsageSchema,
  type TSchema,
} from '@app/domain';

/**
 * The domain's declared shapes (libs/domain/src/schema.ts) in the OpenAPI document: a route
 * answers `contractRef(schema)`, and the document holds the schema, and each named part inside
 * it, once under components, written in OpenAPI 3.0's dialect (`nullable` instead of a null
 * type, `enum` instead of `const`). Nothing here is typed by hand: a field added to a domain
 * schema is in the document, and so in the client's generated types, with no other edit.
 */
type Json = Record<string, unknown>;

/** Parts every document holds, whichever routes refer to them (the search run's DTO names them). */
const BASE_PARTS: readonly TSchema[] = [
  SkuLineItemSchema,
  FindingSchema,
  SourceSchema,
  TaskFieldBasisSchema,
  TaskUsageSchema,
];

const registered = new Map<string, TSchema>(BASE_PARTS.map((schema) => [nameOf(schema), schema]));

function nameOf(schema: TSchema): string {
  const id = (schema as Json).$id;
  if (typeof id !== 'string' || !/^[A-Za-z][A-Za-z0-9]*$/.test(id))
    throw new Error('a schema served as an OpenAPI component needs an $id that is a plain name');
  return id;
}

/** A reference to the schema's component; the schema is added to the document built after. */
export function contractRef(schema: TSchema): ReferenceObject {
  const name = nameOf(schema);
  const known = registered.get(name);
  if (known && known !== schema) throw new Error(`two different schemas are named ${name}`);
  registered.set(name, schema);
  return { $ref: `#/components/schemas/${name}` };
}

/** A run list's body: the items under the kind's key, then the page. */
export const runList = (key: string, item: SchemaObject | ReferenceObject): SchemaObject => ({
  type: 'object',
  required: [key, 'total', 'limit', 'offset'],
  properties: {
    [key]: { type: 'array', items: item },
    total: { type: 'integer' },
    limit: { type: 'integer' },
    offset: { type: 'integer' },
  },
});

/** Every registered schema and the named parts inside them, as OpenAPI 3.0 components. */
export function contractComponents(): Record<string, SchemaObject> {
  const components: Record<string, SchemaObject> = {};
  for (const schema of registered.values()) hoist(schema as Json, components);
  return components;
}

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const isNull = (value: unknown) => isObject(value) && value.type === 'null';

/** Adds a named schema to `components` (once) and answers the reference to it. */
function hoist(schema: Json, components: Record<string, SchemaObject>): ReferenceObject {
  const name = nameOf(schema as TSchema);
  if (!(name in components)) {
    components[name] = {}; // Reserved first: a part that refers back to itself ends here.
    components[name] = body(schema, components);
  }
  return { $ref: `#/components/schemas/${name}` };
}

/** The schema in OpenAPI 3.0's dialect, named parts inside it as references. */
function convert(node: unknown, components: Record<string, SchemaObject>): unknown {
  if (Array.isArray(node)) return node.map((item) => convert(item, components));
  if (!isObject(node)) return node;
  if (typeof node.$id === 'string') return hoist(node, components);
  return body(node, components);
}

/** The schema's own keywords converted (its `$id` dropped). */
function body(node: Json, components: Record<string, SchemaObject>): SchemaObject {
  const { $id: _id, const: constant, anyOf, ...rest } = node;
  const out: Json = {};
  for (const [key, value] of Object.entries(rest))
    out[key] = key === 'properties' ? mapValues(value, components) : convert(value, components);
  if (constant !== undefined) out.enum = [constant];
  if (Array.isArray(anyOf)) {
    const members = anyOf.filter((member) => !isNull(member));
    if (members.length === anyOf.length) out.anyOf = convert(anyOf, components);
    else if (members.length === 1) return { ...out, ...orNull(members[0] as Json, components) };
    // Several members or null: the first one admits null (OpenAPI 3.0 has no null type).
    else
      out.oneOf = members.map((member, i) =>
        i === 0 ? orNull(member as Json, components) : convert(member, components),
      );
  }
  return out as SchemaObject;
}

const mapValues = (value: unknown, components: Record<string, SchemaObject>) =>
  isObject(value) ? Object.fromEntries(Object.entries(value).map(([k, v]) => [k, convert(v, components)])) : value;

/**
 * The schema or null, as OpenAPI 3.0 and its validators read it: `nullable` beside a `type` (a
 * `$ref` takes no siblings, so a named part is written inline, its component still defined).
 */
function orNull(member: Json, components: Record<string, SchemaObject>): SchemaObject {
  if (typeof member.$id === 'string') {
    hoist(member, components);
    return { oneOf: [orNull(body(member, components) as Json, components)] };
  }
  const schema = body(member, components) as Json;
  if (Object.keys(schema).length === 0) return schema; // Any value already admits null.
  if (typeof schema.type !== 'string')
    throw new Error('a null alternative needs a typed schema beside it (OpenAPI 3.0)');
  return {
    ...schema,
    nullable: true,
    ...(Array.isArray(schema.enum) && { enum: [...(schema.enum as unknown[]), null] }),
  } as SchemaObject;
}
