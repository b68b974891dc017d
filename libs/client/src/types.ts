import type { components, operations } from './openapi';

/** A JSON object the service's OpenAPI document gives no schema for (yet). */
export type JsonObject = { [key: string]: unknown };

type Schemas = components['schemas'];
type OperationId = keyof operations;
type Or<T, Fallback> = [T] extends [never] ? Fallback : T;

/** An operation's JSON request body, from the OpenAPI document. */
export type RequestBody<K extends OperationId> = operations[K] extends { requestBody?: { content: { 'application/json': infer B } } } ? B : never;

/** An operation's query parameters, from the OpenAPI document. */
export type QueryOf<K extends OperationId> = operations[K] extends { parameters: { query?: infer Q } } ? Or<NonNullable<Q>, Record<string, never>> : never;

type SuccessJson<R> = { [S in keyof R]: S extends 200 | 201 | 202 ? (R[S] extends { content: { 'application/json': infer B } } ? B : never) : never }[keyof R];

/** An operation's successful JSON answer, from the OpenAPI document (`JsonObject` where it documents none). */
export type ResponseOf<K extends OperationId> = Or<operations[K] extends { responses: infer R } ? SuccessJson<R> : never, JsonObject>;

export type SearchBody = Schemas['SearchBody'];
export type SearchResponse = Schemas['SearchResponse'];
export type SearchResultRow = Schemas['SearchResultRowView'];
export type SearchRunView = Schemas['SearchRunViewDto'];
export type TaskBody = Schemas['TaskBody'];
export type TaskRunView = Schemas['TaskRunViewDto'];
export type FindAllBody = Schemas['FindAllBody'];
export type FindAllExtendBody = Schemas['ExtendBody'];
export type FindAllEnrichBody = Schemas['EnrichBody'];
export type ExtractBody = Schemas['ExtractBody'];
export type ExtractResponse = Schemas['ExtractResponse'];
export type MonitorBody = Schemas['MonitorBody'];
export type MonitorPatchBody = Schemas['MonitorPatchBody'];
export type ChatBody = Schemas['ChatBody'];
export type UsageResponse = Schemas['UsageResponse'];
export type UsageQuery = QueryOf<'UsageController_usage'>;
export type ValidationErrorBody = Schemas['HTTPValidationError'];

/** A page of a list endpoint: `limit` 1..100, `offset` >= 0. */
export interface PageQuery {
  limit?: number;
  offset?: number;
}

/** An entity's audit history: every event of its stream, oldest first. */
export interface History {
  events: Array<{ revision: string | number; position: string | number; type: string; at: string; data: unknown; metadata: Record<string, unknown> }>;
  total: number;
}

/** OpenAI's chat completion, with the research's `citations` and `search_results` beside `choices`. */
export interface ChatCompletion {
  id: string;
  object: 'chat.completion';
  created: number;
  model: string;
  choices: Array<{ index: number; message: { role: 'assistant'; content: string | null }; finish_reason: string | null }>;
  usage?: { prompt_tokens: number; completion_tokens: number; total_tokens: number };
  citations?: string[];
  search_results?: JsonObject[];
  credits?: number;
  usage_items?: Array<{ sku: string; quantity: number; credits: number }>;
  [key: string]: unknown;
}

/** One chunk of a streamed chat completion (OpenAI's `chat.completion.chunk`). */
export interface ChatCompletionChunk {
  id: string;
  object: 'chat.completion.chunk';
  created: number;
  model: string;
  choices: Array<{ index: number; delta: { role?: 'assistant'; content?: string | null }; finish_reason: string | null }>;
  usage?: { prompt_tokens: number; completion_tokens: number; total_tokens: number } | null;
  [key: string]: unknown;
}
