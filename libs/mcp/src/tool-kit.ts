/**
 * What the MCP tools are built from: a tool's definition and outcome, the tools' input bounds,
 * the JSON Schema pieces their inputs share, and the REST calls their work is made of.
 */
import { DEEP_SEARCH_BOUNDS, plainJsonSchema, type TSchema } from '@app/domain';
import { okBody } from './rest-backend';
import type { ToolContext } from './run-wait';

export type Obj = Record<string, unknown>;
export type JsonSchema = Obj & { type: 'object'; properties: Record<string, object> };

/** What a tool answers: text for the model, and the REST response as structured content. */
export interface ToolOutcome {
  text: string;
  structured: Obj;
}

/** One MCP tool: its JSON Schema input, and its work as REST operations (see RestBackend). */
export interface ToolDefinition {
  name: string;
  title: string;
  description: string;
  inputSchema: JsonSchema;
  outputSchema?: JsonSchema;
  annotations: { readOnlyHint: boolean; openWorldHint: true };
  run(args: Obj, ctx: ToolContext): Promise<ToolOutcome>;
}

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

export const text = (maxLength: number, description: string) => ({
  type: 'string',
  minLength: 1,
  maxLength,
  description,
});
export const domains = (description: string) => ({
  type: 'array',
  maxItems: MCP_TOOL_BOUNDS.domains,
  items: { type: 'string', minLength: 1, maxLength: MCP_TOOL_BOUNDS.domainChars },
  description,
});
export const waitSeconds = {
  type: 'integer',
  minimum: MCP_TOOL_BOUNDS.wait.min,
  maximum: MCP_TOOL_BOUNDS.wait.max,
  default: MCP_TOOL_BOUNDS.wait.default,
  description: `How long to wait for the run to end (${MCP_TOOL_BOUNDS.wait.min} to ${MCP_TOOL_BOUNDS.wait.max} s); when it runs out the run id is returned and the run goes on`,
};
export const id = (description: string) => ({
  type: 'string',
  minLength: 1,
  maxLength: MCP_TOOL_BOUNDS.idChars,
  pattern: '^[A-Za-z0-9_-]+$',
  description,
});
export const schema = (properties: Record<string, object>, required: string[] = [], extra: Obj = {}): JsonSchema => ({
  type: 'object',
  properties,
  required,
  additionalProperties: false,
  ...extra,
});
/**
 * A tool's output schema from the domain's declaration of what it answers (the same schema the
 * OpenAPI document serves), so a field added to a run's view is in the tool's schema too.
 */
export const outputOf = (declared: TSchema): JsonSchema => plainJsonSchema(declared) as JsonSchema;
export const readOnly = { readOnlyHint: true, openWorldHint: true } as const;
export const starts = { readOnlyHint: false, openWorldHint: true } as const;

export const queriesSchema = {
  type: 'array',
  minItems: DEEP_SEARCH_BOUNDS.queries.min,
  maxItems: DEEP_SEARCH_BOUNDS.queries.max,
  items: { type: 'string', minLength: 1, maxLength: MCP_TOOL_BOUNDS.queryChars },
  description: `${DEEP_SEARCH_BOUNDS.queries.min} to ${DEEP_SEARCH_BOUNDS.queries.max} keyword queries`,
};

export const post = async (ctx: ToolContext, path: string, body: Obj) =>
  okBody(await ctx.rest.call('POST', path, body, ctx.signal)) as Obj;
export const get = async (ctx: ToolContext, path: string) =>
  okBody(await ctx.rest.call('GET', path, undefined, ctx.signal)) as Obj;
export const seg = (value: unknown) => encodeURIComponent(String(value));
export const defined = (body: Obj): Obj =>
  Object.fromEntries(Object.entries(body).filter(([, value]) => value !== undefined));
