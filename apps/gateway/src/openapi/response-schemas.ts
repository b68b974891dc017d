import { getSchemaPath } from '@nestjs/swagger';
import type { ReferenceObject, SchemaObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import {
  type ChatCompletion,
  type ChatSearchResult,
  CRAWL_FORMATS,
  CRAWL_RENDER,
  type CrawlPage,
  type CrawlView,
  type MonitorEvent,
  type MonitorRow,
  type MonitorView,
  NOTIFY_ON,
  RUN_STATUSES,
  type RunResult,
  type RunUsage,
  type SearchRunListItem,
} from '@app/domain';
import type { MapLinkDto, MapReply } from '@app/contracts';
import type { RunHistory } from '../runs/run-http';
import type { PublicEvent } from '../streams/run-stream';

/**
 * The response bodies of the OpenAPI document that neither a domain schema (contract-schemas.ts)
 * nor a DTO class describes yet: the run views of crawl and chat, their parts, lists,
 * audit histories and recorded events. Each object
 * schema names every property of the type the service returns (`shape<T>`: the compiler checks
 * the names), and the e2e suites validate every answer they get against the document
 * (response-check.ts), so neither can drift from what is sent.
 */
type Schema = SchemaObject | ReferenceObject;

export const ref = (name: string): ReferenceObject => ({ $ref: getSchemaPath(name) });
const str: SchemaObject = { type: 'string' };
const int: SchemaObject = { type: 'integer' };
const num: SchemaObject = { type: 'number' };
const bool: SchemaObject = { type: 'boolean' };
const anyObject: SchemaObject = { type: 'object', additionalProperties: true };
/** The schema or null (OpenAPI 3.0.3: an enum that allows null lists it). */
const nullable = (schema: SchemaObject): SchemaObject => ({
  ...schema,
  nullable: true,
  ...(schema.enum && { enum: [...schema.enum, null] }),
});
const arrayOf = (items: Schema): SchemaObject => ({ type: 'array', items });
const oneOfStrings = (values: readonly string[]): SchemaObject => ({ type: 'string', enum: [...values] });

/** An object schema with every property of T named; all required but `optional`. */
function shape<T>(
  properties: { [K in keyof Required<T>]: Schema },
  optional: ReadonlyArray<keyof T> = [],
): SchemaObject {
  return {
    type: 'object',
    required: Object.keys(properties).filter((k) => !optional.includes(k as keyof T)),
    properties,
  };
}

const tokens = shape<RunUsage['tokens']>({ input: int, output: int });
const crawlPage = shape<
  Pick<CrawlPage, 'url' | 'final_url' | 'title' | 'content' | 'status' | 'depth' | 'error'> & {
    source_url: string | null;
  }
>({
  url: str,
  source_url: nullable(str),
  final_url: nullable(str),
  title: nullable(str),
  content: nullable(str),
  status: nullable(int),
  depth: int,
  error: nullable(str),
});
const crawlRun = shape<CrawlView>({
  crawl_id: str,
  status: oneOfStrings(RUN_STATUSES),
  url: str,
  limit: int,
  max_depth: int,
  include_paths: arrayOf(str),
  exclude_paths: arrayOf(str),
  include_subdomains: bool,
  format: oneOfStrings(CRAWL_FORMATS),
  render: oneOfStrings(CRAWL_RENDER),
  index: bool,
  webhook: nullable(str),
  counts: shape<CrawlView['counts']>({ pages: int, read: int, failed: int }),
  termination: nullable(oneOfStrings(['limit_reached', 'frontier_exhausted', 'cancelled', 'error'])),
  credits: num,
  usage: arrayOf(ref('SkuLineItem')),
  error: nullable(str),
  createdAt: str,
  completedAt: nullable(str),
});

const monitorRow = shape<MonitorRow>({
  url: str,
  title: str,
  snippet: str,
  date: nullable(str),
  domain: str,
  score: num,
});

/** Component schemas added to the document (by name). */
export const RESPONSE_COMPONENTS: Record<string, SchemaObject> = {
  RunResult: shape<RunResult>(
    {
      url: str,
      title: str,
      snippet: str,
      date: nullable(str),
      domain: str,
      score: num,
      text: str,
      highlights: arrayOf(str),
      summary: str,
    },
    ['text', 'highlights', 'summary'],
  ),
  RunUsage: shape<RunUsage>({
    planner_calls: int,
    grader_calls: int,
    synth_calls: int,
    search_queries: int,
    pages_fetched: int,
    tokens,
  }),
  SearchRunListItem: shape<SearchRunListItem>({
    id: str,
    query: str,
    status: oneOfStrings(RUN_STATUSES),
    createdAt: str,
    completedAt: nullable(str),
    resultCount: int,
  }),
  CrawlRun: crawlRun,
  CrawlRunWithPages: {
    allOf: [
      ref('CrawlRun'),
      shape<{ pages: unknown; pages_limit: unknown; pages_offset: unknown }>({
        pages: arrayOf(crawlPage),
        pages_limit: int,
        pages_offset: int,
      }),
    ],
  },
  SiteMap: shape<Pick<MapReply, 'url' | 'links' | 'credits' | 'usage'>>({
    url: str,
    links: arrayOf(shape<MapLinkDto>({ url: str, title: str, lastmod: str }, ['title', 'lastmod'])),
    credits: num,
    usage: arrayOf(ref('SkuLineItem')),
  }),
  CrawlStarted: shape<{ crawl_id: string; status: string }>({ crawl_id: str, status: oneOfStrings(RUN_STATUSES) }),
  CrawlIndexRemoved: shape<{ crawl_id: string; removed: number }>({ crawl_id: str, removed: int }),
  ChatSearchResult: shape<ChatSearchResult>({
    url: str,
    title: str,
    snippet: str,
    excerpts: arrayOf(str),
    date: nullable(str),
    domain: str,
    category: nullable(str),
    score: num,
  }),
  ChatCompletion: shape<ChatCompletion>({
    id: str,
    object: oneOfStrings(['chat.completion']),
    created: int,
    model: str,
    choices: arrayOf(
      shape<ChatCompletion['choices'][number]>({
        index: int,
        message: shape<ChatCompletion['choices'][number]['message']>({
          role: oneOfStrings(['assistant']),
          content: str,
          refusal: nullable(str),
        }),
        finish_reason: oneOfStrings(['stop', 'length']),
        logprobs: nullable(anyObject),
      }),
    ),
    usage: shape<ChatCompletion['usage']>({ prompt_tokens: int, completion_tokens: int, total_tokens: int }),
    citations: arrayOf(str),
    search_results: arrayOf(ref('ChatSearchResult')),
    credits: num,
    usage_items: arrayOf(ref('SkuLineItem')),
    status: oneOfStrings(RUN_STATUSES),
    error: nullable(str),
  }),
  RunHistory: shape<RunHistory>({
    events: arrayOf(
      shape<RunHistory['events'][number]>({
        revision: str,
        position: str,
        type: str,
        at: str,
        data: {},
        metadata: shape<RunHistory['events'][number]['metadata']>({
          correlation_id: nullable(str),
          causation_id: nullable(str),
          request_id: nullable(str),
          key_id: nullable(str),
        }),
      }),
    ),
    total: int,
  }),
  Monitor: shape<MonitorView>({
    id: str,
    query: str,
    url: nullable(str),
    cadence: oneOfStrings(['hourly', 'daily', 'weekly']),
    cron: nullable(str),
    mode: oneOfStrings(['diff', 'snapshot']),
    filter_prompt: nullable(str),
    notify_on: arrayOf(oneOfStrings(NOTIFY_ON)),
    webhook: nullable(str),
    webhook_secret_set: bool,
    webhook_max_attempts: int,
    webhook_backoff_seconds: int,
    country: str,
    language: str,
    metadata: anyObject,
    status: oneOfStrings(['active', 'paused']),
    createdAt: str,
    lastRunAt: nullable(str),
    nextRunAt: nullable(str),
    runs: int,
    last_webhook_status: nullable(int),
    last_webhook_at: nullable(num),
    last_webhook_error: nullable(str),
    last_result: nullable(
      shape<NonNullable<MonitorView['last_result']>>({
        event_id: str,
        results_count: int,
        ran_at: str,
        status: nullable(str),
      }),
    ),
  }),
  MonitorEvent: shape<MonitorEvent>(
    {
      event_id: str,
      monitor_id: str,
      ran_at: str,
      status: oneOfStrings(['changed', 'unchanged', 'matched', 'error']),
      mode: oneOfStrings(['diff', 'snapshot']),
      results_count: int,
      results: arrayOf(monitorRow),
      added: arrayOf(monitorRow),
      removed: arrayOf(monitorRow),
      matched: nullable(bool),
      error: nullable(str),
      slots_covered: int,
      diff: shape<NonNullable<MonitorEvent['diff']>>({ added: arrayOf(str), removed: arrayOf(str), summary: str }),
      content_hash: str,
      content: str,
    },
    ['diff', 'content_hash', 'content'],
  ),
  /** A run kind registered without a view schema of its own (run-routes.ts VIEW_SCHEMAS). */
  RunView: { ...anyObject, description: 'The run as its kind shows it' },
  RunEventsPage: shape<{ events: PublicEvent[]; total: number; limit: number; offset: number }>({
    events: arrayOf(shape<PublicEvent>({ id: str, event: str, data: {} })),
    total: int,
    limit: int,
    offset: int,
  }),
};

/**
 * A component or null, written so OpenAPI 3.0 and its validators agree: the component inline with
 * `nullable` beside its `type` (a `$ref` takes no `nullable`).
 */
export const nullableOf = (name: keyof typeof RESPONSE_COMPONENTS): SchemaObject => ({
  oneOf: [nullable(RESPONSE_COMPONENTS[name]!)],
});

/** A run list's body: the items under the kind's key, then the page. */
export const runList = (key: string, item: Schema): SchemaObject => ({
  type: 'object',
  required: [key, 'total', 'limit', 'offset'],
  properties: { [key]: arrayOf(item), total: int, limit: int, offset: int },
});
