import { ChatCompletions } from './chat';
import { Monitors } from './monitors';
import { Crawls, FindAll, Searches, Tasks } from './runs';
import { TaskGroups } from './task-groups';
import { endpoint } from './endpoints';
import { type ClientOptions, type RequestOptions, Transport } from './transport';
import type {
  ExtractBody,
  ExtractResponse,
  MapBody,
  Model,
  ModelList,
  MapResponse,
  SearchBody,
  SearchResponse,
  SearchRunView,
  UsageQuery,
  UsageResponse,
} from './types';

/**
 * The web research service's client: `new WebResearch({ baseURL, apiKey })`. Every call answers
 * the service's JSON or throws an `APIError` (`status`, `detail`, `requestId`); 429 and 503 are
 * retried after `Retry-After` (bounded by `maxRetries` and `maxRetryDelay`), each POST with one
 * `Idempotency-Key` across its attempts so nothing is done or charged twice.
 */
export class WebResearch {
  readonly searches: Searches;
  readonly tasks: Tasks;
  /** Task groups: `client.taskGroups.create()`, `.addRuns(id, {inputs})`, `.stream(id)`, `.runs(id)`. */
  readonly taskGroups: TaskGroups;
  readonly findall: FindAll;
  readonly crawl: Crawls;
  readonly monitors: Monitors;
  readonly chat: { readonly completions: ChatCompletions };
  readonly models: {
    list(options?: RequestOptions): Promise<ModelList>;
    retrieve(id: string, options?: RequestOptions): Promise<Model>;
  };
  private readonly transport: Transport;

  constructor(options: ClientOptions) {
    this.transport = new Transport(options);
    this.searches = new Searches(this.transport);
    this.tasks = new Tasks(this.transport);
    this.taskGroups = new TaskGroups(this.transport);
    this.findall = new FindAll(this.transport);
    this.crawl = new Crawls(this.transport);
    this.monitors = new Monitors(this.transport);
    this.chat = { completions: new ChatCompletions(this.transport) };
    this.models = {
      list: (opts) => this.transport.json({ ...endpoint('get', '/v1/models'), options: opts }),
      retrieve: (id, opts) => this.transport.json({ ...endpoint('get', '/v1/models/{id}', { id }), options: opts }),
    };
  }

  /** A search: the ranked rows at once; with `depth: "deep"` the queued run (see `searches`). */
  search(body: SearchBody & { depth: 'deep' }, options?: RequestOptions): Promise<SearchRunView>;
  search(body: SearchBody & { depth?: 'instant' | 'fast' | 'auto' }, options?: RequestOptions): Promise<SearchResponse>;
  search(body: SearchBody, options?: RequestOptions): Promise<SearchResponse | SearchRunView> {
    return this.transport.json({ ...endpoint('post', '/v1/search'), body, options });
  }

  /** The main content of 1 to 20 URLs (HTML, PDF, Word); a page that cannot be read is a per-result `error`. */
  extract(body: ExtractBody, options?: RequestOptions): Promise<ExtractResponse> {
    return this.transport.json({ ...endpoint('post', '/v1/extract'), body, options });
  }

  /** A site's URLs from its sitemaps and links (robots.txt honoured), up to `limit` (1000); 1 credit. */
  map(body: MapBody, options?: RequestOptions): Promise<MapResponse> {
    return this.transport.json({ ...endpoint('post', '/v1/map'), body, options });
  }

  /** The team's credits per day and SKU (`from`, `to`: YYYY-MM-DD, inclusive; default the last 30 days). */
  usage(query: UsageQuery = {}, options?: RequestOptions): Promise<UsageResponse> {
    return this.transport.json({ ...endpoint('get', '/v1/usage'), query, options });
  }
}
