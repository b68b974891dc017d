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
export type SkuUsageLine = Schemas['SkuUsageLine'];
export type MapBody = Schemas['MapBody'];
export type CrawlBody = Schemas['CrawlBody'];
export type CrawlPagesQuery = QueryOf<'CrawlRoutes_view'>;

// The answers of /v1/map and /v1/crawl are not in the OpenAPI document (yet): their shapes as the gateway writes them.

/** POST /v1/map: the site's URLs (sitemaps and links, robots.txt honoured), ranked by `search` when given. */
export interface MapResponse {
  url: string;
  links: Array<{ url: string; title?: string; lastmod?: string }>;
  credits: number;
  usage: SkuUsageLine[];
}

/** DELETE /v1/crawl/{id}/index: how many of the crawl's pages left its team's index. */
export interface CrawlIndexRemoved {
  crawl_id: string;
  removed: number;
}

/** POST /v1/crawl's 202. */
export interface CrawlCreated {
  crawl_id: string;
  status: 'queued' | 'running' | 'completed' | 'failed' | 'cancelled';
}

/** One page of a crawl: read (`error` null) or given up on (`error` says why, not charged). */
export interface CrawlPage {
  url: string;
  final_url: string | null;
  title: string | null;
  content: string | null;
  status: number | null;
  depth: number;
  error: string | null;
}

/** A crawl run without its pages (list items, cancel, `run.completed`'s data). */
export interface CrawlRunView extends Required<Omit<CrawlBody, 'webhook' | 'include_paths' | 'exclude_paths'>> {
  crawl_id: string;
  status: CrawlCreated['status'];
  include_paths: string[];
  exclude_paths: string[];
  webhook: string | null;
  counts: { pages: number; read: number; failed: number };
  termination: 'limit_reached' | 'frontier_exhausted' | 'cancelled' | 'error' | null;
  credits: number;
  usage: SkuUsageLine[];
  error: string | null;
  createdAt: string;
  completedAt: string | null;
}

/** GET /v1/crawl/{id}: the run with a page of its pages, in the order read. */
export interface CrawlRunWithPages extends CrawlRunView {
  pages: CrawlPage[];
  pages_limit: number;
  pages_offset: number;
}

/** A crawl stream's `page.fetched` event data: the page without its content, and the pages read so far. */
export interface CrawlPageFetched extends Omit<CrawlPage, 'content'> {
  crawl_id: string;
  pages: number;
}

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
