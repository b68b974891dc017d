/**
 * What the MCP tools are built from: a tool's definition and outcome, the tools' input bounds,
 * the JSON Schema pieces their inputs share, and the REST calls their work is made of.
 */
import {
  type ArrayOptions,
  type SchemaOptions,
  type Static,
  type TObject,
  type TOptional,
  type TProperties,
  type TSchema,
  Type,
} from '@sinclair/typebox';
import { DEEP_SEARCH_BOUNDS, plainJsonSchema } from '@app/domain';
import { okBody } from './rest-backend';
import type { ToolContext } from './run-wait';

export type Obj = Record<string, unknown>;
export type JsonSchema = Obj & { type: 'object'; properties: Record<string, object> };

/** What a tool answers: text for the model, and the REST response as structured content. */
export interface ToolOutcome {
  text: string;
  structured: Obj;
}

/**
 * One MCP tool: its input schema (a TypeBox object, from which its arguments' type comes), and
 * its work as REST operations (see RestBackend).
 */
export interface ToolDefinition<I extends TObject = TObject> {
  name: string;
  title: string;
  description: string;
  inputSchema: I;
  outputSchema?: JsonSchema;
  annotations: { readOnlyHint: boolean; openWorldHint: true };
  run(args: Static<I>, ctx: ToolContext): Promise<ToolOutcome>;
}
/** A tool of any input, as the list of tools holds it (its arguments checked against its schema first). */
export type AnyTool = ToolDefinition;
/** A tool whose `run` takes the arguments its input schema describes. */
export const defineTool = <I extends TObject>(tool: ToolDefinition<I>): AnyTool => tool as unknown as AnyTool;

/** Input bounds of the tools (the REST operations check theirs again). */
export const MCP_TOOL_BOUNDS = {
  queryChars: 1_000,
  objectiveChars: 5_000,
  promptChars: 10_000,
  domains: 50,
  domainChars: 253,
  urlChars: 4_096,
  fields: 30,
  fieldChars: 100,
  idChars: 200,
  wait: { min: 1, max: 300, default: 60 },
  /** POST /v1/map's limit. */
  mapLinks: { min: 1, max: 5_000 },
  mapSearchChars: 500,
  /** A page of a crawl's pages, as GET /v1/crawl/{id} serves them (at most 100). */
  crawlPages: { max: 100, default: 50 },
} as const;

/** A string of 1 to `maxLength` characters. */
export const text = (maxLength: number, description: string) => Type.String({ minLength: 1, maxLength, description });
/** One of the listed strings, as `{type: 'string', enum}` (not an anyOf of constants). */
export const oneOf = <const V extends readonly string[]>(
  values: V,
  options: { default?: V[number]; description?: string } = {},
) => Type.Unsafe<V[number]>({ type: 'string', enum: [...values], ...options });
/** An array of strings of 1 to `maxLength` characters. */
export const strings = (maxLength: number, options: ArrayOptions) =>
  Type.Array(Type.String({ minLength: 1, maxLength }), options);
export const domains = (description: string) =>
  strings(MCP_TOOL_BOUNDS.domainChars, { maxItems: MCP_TOOL_BOUNDS.domains, description });
export const waitSeconds = Type.Integer({
  minimum: MCP_TOOL_BOUNDS.wait.min,
  maximum: MCP_TOOL_BOUNDS.wait.max,
  default: MCP_TOOL_BOUNDS.wait.default,
  description: `How long to wait for the run to end (${MCP_TOOL_BOUNDS.wait.min} to ${MCP_TOOL_BOUNDS.wait.max} s); when it runs out the run id is returned and the run goes on`,
});
export const id = (description: string) =>
  Type.String({ minLength: 1, maxLength: MCP_TOOL_BOUNDS.idChars, pattern: '^[A-Za-z0-9_-]+$', description });

/** `properties` with those not in `R` optional. */
export type WithOptional<P extends TProperties, R extends keyof P> = {
  [K in keyof P]: K extends R ? P[K] : TOptional<P[K]>;
};
/**
 * An object of `properties`, those not listed in `required` optional, and no others:
 * `{type: 'object', properties, required, additionalProperties: false, ...extra}`.
 */
export const schema = <P extends TProperties, R extends keyof P & string = never>(
  properties: P,
  required: readonly R[] = [],
  extra: SchemaOptions = {},
): TObject<WithOptional<P, R>> => {
  const listed = new Set<string>(required);
  const shaped = Object.fromEntries(
    Object.entries(properties).map(([key, value]) => [key, listed.has(key) ? value : Type.Optional(value)]),
  ) as WithOptional<P, R>;
  // TypeBox leaves `required` out when it is empty: it is given here so the JSON keeps it.
  return Type.Object(shaped, { required: [...required], additionalProperties: false, ...extra });
};
/**
 * A tool's output schema from the domain's declaration of what it answers (the same schema the
 * OpenAPI document serves), so a field added to a run's view is in the tool's schema too.
 */
export const outputOf = (declared: TSchema): JsonSchema => plainJsonSchema(declared) as JsonSchema;
export const readOnly = { readOnlyHint: true, openWorldHint: true } as const;
export const starts = { readOnlyHint: false, openWorldHint: true } as const;

export const queriesSchema = strings(MCP_TOOL_BOUNDS.queryChars, {
  minItems: DEEP_SEARCH_BOUNDS.queries.min,
  maxItems: DEEP_SEARCH_BOUNDS.queries.max,
  description: `${DEEP_SEARCH_BOUNDS.queries.min} to ${DEEP_SEARCH_BOUNDS.queries.max} keyword queries`,
});

export const post = async (ctx: ToolContext, path: string, body: Obj) =>
  okBody(await ctx.rest.call('POST', path, body, ctx.signal)) as Obj;
export const get = async (ctx: ToolContext, path: string) =>
  okBody(await ctx.rest.call('GET', path, undefined, ctx.signal)) as Obj;
export const seg = (value: unknown) => encodeURIComponent(String(value));
export const defined = (body: Obj): Obj =>
  Object.fromEntries(Object.entries(body).filter(([, value]) => value !== undefined));
