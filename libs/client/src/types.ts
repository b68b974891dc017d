import type { components, operations } from './openapi';

/** A JSON object the service's OpenAPI document gives no schema for (yet). */
export type JsonObject = { [key: string]: unknown };

type Schemas = components['schemas'];
type OperationId = keyof operations;
type Or<T, Fallback> = [T] extends [never] ? Fallback : T;

/** An operation's JSON request body, from the OpenAPI document. */
export type RequestBody<K extends OperationId> = operations[K] extends {
  requestBody?: { content: { 'application/json': infer B } };
}
  ? B
  : never;

/** An operation's query parameters, from the OpenAPI document. */
export type QueryOf<K extends OperationId> = operations[K] extends { parameters: { query?: infer Q } }
  ? Or<NonNullable<Q>, Record<string, never>>
  : never;

type SuccessJson<R> = {
  [S in keyof R]: S extends 200 | 201 | 202
    ? R[S] extends { content: { 'application/json': infer B } }
      ? B
      : never
    : never;
}[keyof R];

/** An operation's successful JSON answer, from the OpenAPI document (`JsonObject` where it documents none). */
export type ResponseOf<K extends OperationId> = Or<
  operations[K] extends { responses: infer R } ? SuccessJson<R> : never,
  JsonObject
>;

export type SearchBody = Schemas['SearchBody'];
export type SearchResponse = Schemas['SearchResponse'];
export type SearchResultRow = Schemas['SearchResultRowView'];
export type SearchRunView = Schemas['SearchRunViewDto'];
export type TaskBody = Schemas['TaskBody'];
export type TaskRunView = Schemas['TaskRun'];
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

export type MapResponse = Schemas['SiteMap'];
export type CrawlIndexRemoved = Schemas['CrawlIndexRemoved'];
/** POST /v1/crawl's 202. */
export type CrawlCreated = Schemas['CrawlStarted'];
/** A crawl run without its pages (list items, cancel, `run.completed`'s data). */
export type CrawlRunView = Schemas['CrawlRun'];
/** GET /v1/crawl/{id}: the run with a page of its pages, in the order read. */
export type CrawlRunWithPages = Schemas['CrawlRunWithPages'];
/** One page of a crawl: read (`error` null) or given up on (`error` says why, not charged). */
export type CrawlPage = CrawlRunWithPages['pages'][number];
/** A crawl stream's `page.fetched` event data: the page without its content, and the pages read so far. */
export interface CrawlPageFetched extends Omit<CrawlPage, 'content'> {
  crawl_id: string;
  pages: number;
}
export type FindAllRun = Schemas['FindAllRun'];
export type TaskGroup = Schemas['TaskGroup'];
export type TaskGroupRun = Schemas['TaskGroupRun'];
export type FindAllCandidate = Schemas['FindAllCandidate'];
export type Monitor = Schemas['Monitor'];
export type MonitorEvent = Schemas['MonitorEvent'];
export type Model = Schemas['ModelDto'];
export type ModelList = Schemas['ModelListDto'];
/** An entity's audit history: every event of its stream, oldest first. */
export type History = Schemas['RunHistory'];
/** A page of a run's recorded public events, oldest first. */
export type RunEventsPage = Schemas['RunEventsPage'];
/** OpenAI's chat completion, with the research's `citations` and `search_results` beside `choices`. */
export type ChatCompletion = Schemas['ChatCompletion'];
export type { PageQuery } from './pagination';

/** The items of a list operation's answer (under its own key: `tasks`, `monitors`, `events`). */
export type ListItem<K extends OperationId, Key extends string> =
  ResponseOf<K> extends { [P in Key]: Array<infer Item> } ? Item : never;

/** One chunk of a streamed chat completion (OpenAI's `chat.completion.chunk`). */
export interface ChatCompletionChunk {
  id: string;
  object: 'chat.completion.chunk';
  created: number;
  model: string;
  choices: Array<{
    index: number;
    delta: { role?: 'assistant'; content?: string | null };
    finish_reason: string | null;
  }>;
  usage?: { prompt_tokens: number; completion_tokens: number; total_tokens: number } | null;
  [key: string]: unknown;
}
