import { pageOf, PagePromise, type PageQuery } from './pagination';
import { followRun, type RunEvent, type StreamOptions } from './run-stream';
import { type ApiPath, endpoint } from './endpoints';
import { type RequestOptions, segment, type Transport } from './transport';
import type {
  CrawlBody,
  CrawlCreated,
  CrawlIndexRemoved,
  CrawlPagesQuery,
  CrawlRunView,
  CrawlRunWithPages,
  FindAllBody,
  FindAllEnrichBody,
  FindAllExtendBody,
  FindAllRun,
  History,
  ListItem,
  RequestBody,
  RunEventsPage,
  SearchRunView,
  TaskBody,
  TaskRunView,
} from './types';

/** Where a run kind's routes live: path templates of the generated document, each holding `{param}`. */
interface RunPaths {
  /** The run id's path parameter (`task_id`). */
  param: string;
  /** The run's own path: retrieve. */
  run: ApiPath;
  cancel: ApiPath;
  history: ApiPath;
  events: ApiPath;
  list: ApiPath;
}

/** What every run kind has: list, cancel, audit history and the resumable event stream (retrieve: `Runs`, or the kind's own). */
abstract class RunResource<View, Item = View> {
  constructor(
    protected readonly transport: Transport,
    protected readonly paths: RunPaths,
    private readonly listKey: string,
  ) {}

  /** A path of the run, its id filled in. */
  protected at(template: ApiPath, id: string): string {
    return template.replace(`{${this.paths.param}}`, segment(id));
  }

  /** The team's runs, newest first: `await` it for a page, `for await` over it for every run. */
  list(query: PageQuery & { status?: string } = {}, options?: RequestOptions): PagePromise<Item> {
    return new PagePromise(query, (q) => pageOf<Item>(this.transport, this.paths.list, this.listKey, q, options));
  }

  /** Stops the run at once, keeping what it found; a completed or failed run is a 409 APIError. */
  cancel(id: string, options?: RequestOptions): Promise<View> {
    return this.transport.json({ method: 'POST', path: this.at(this.paths.cancel, id), options });
  }

  /** Every event of the run's stream, oldest first (audit). */
  history(id: string, options?: RequestOptions): Promise<History> {
    return this.transport.json({ method: 'GET', path: this.at(this.paths.history, id), options });
  }

  /**
   * The run's events as they happen, to the terminal one (`run.completed` carries the full view):
   * `for await (const event of client.searches.stream(id)) ...`. Reconnects after a drop with
   * `Last-Event-ID`, so each event comes once, in order.
   */
  stream(id: string, options?: StreamOptions): AsyncGenerator<RunEvent> {
    return followRun(this.transport, this.at(this.paths.events, id), options);
  }
}

/** A run kind whose retrieve is the plain view. */
abstract class Runs<View, Item = View> extends RunResource<View, Item> {
  retrieve(id: string, options?: RequestOptions): Promise<View> {
    return this.transport.json({ method: 'GET', path: this.at(this.paths.run, id), options });
  }
}

/** Deep research runs (`POST /v1/search` with `depth: "deep"`, then `/v1/searches/{id}`). */
export class Searches extends Runs<SearchRunView, ListItem<'SearchRunRoutes_list', 'searches'>> {
  constructor(transport: Transport) {
    super(
      transport,
      {
        param: 'search_id',
        run: '/v1/searches/{search_id}',
        cancel: '/v1/searches/{search_id}/cancel',
        history: '/v1/searches/{search_id}/history',
        events: '/v1/searches/{search_id}/events',
        list: '/v1/searches',
      },
      'searches',
    );
  }

  /** Starts a deep run (202 at once); follow it with `stream` or `retrieve`. */
  create(
    body: Omit<RequestBody<'SearchController_search'>, 'depth'>,
    options?: RequestOptions,
  ): Promise<SearchRunView> {
    return this.transport.json({ ...endpoint('post', '/v1/search'), body: { ...body, depth: 'deep' }, options });
  }
}

/** Task runs: a task against an output schema. */
export class Tasks extends Runs<TaskRunView, ListItem<'TaskRunRoutes_list', 'tasks'>> {
  constructor(transport: Transport) {
    super(
      transport,
      {
        param: 'task_id',
        run: '/v1/tasks/runs/{task_id}',
        cancel: '/v1/tasks/{task_id}/cancel',
        history: '/v1/tasks/{task_id}/history',
        events: '/v1/tasks/runs/{task_id}/events',
        list: '/v1/tasks',
      },
      'tasks',
    );
  }

  /** Creates the run and waits up to `wait_seconds` (default 30): the view, `completed` when it ended within the wait. */
  create(body: TaskBody, options?: RequestOptions): Promise<TaskRunView> {
    return this.transport.json({ ...endpoint('post', '/v1/tasks'), body, options });
  }

  /** Creates the run and answers at once (202, queued). */
  createRun(body: TaskBody, options?: RequestOptions): Promise<TaskRunView> {
    return this.transport.json({ ...endpoint('post', '/v1/tasks/runs'), body, options });
  }

  /** A page of the run's recorded public events, oldest first. */
  events(id: string, query: PageQuery = {}, options?: RequestOptions): Promise<RunEventsPage> {
    return this.transport.json({ ...endpoint('get', '/v1/tasks/{task_id}/events', { task_id: id }), query, options });
  }
}

/** FindAll runs: entities matching a description, with the fields asked for. */
export class FindAll extends Runs<FindAllRun, ListItem<'FindallRunRoutes_list', 'runs'>> {
  constructor(transport: Transport) {
    super(
      transport,
      {
        param: 'findall_id',
        run: '/v1/findall/runs/{findall_id}',
        cancel: '/v1/findall/runs/{findall_id}/cancel',
        history: '/v1/findall/runs/{findall_id}/history',
        events: '/v1/findall/runs/{findall_id}/events',
        list: '/v1/findall/runs',
      },
      'runs',
    );
  }

  /** Creates the run and waits up to `wait_seconds`, as a task does. */
  create(body: FindAllBody, options?: RequestOptions): Promise<FindAllRun> {
    return this.transport.json({ ...endpoint('post', '/v1/findall'), body, options });
  }

  /** Creates the run and answers at once (202, queued). */
  createRun(body: FindAllBody, options?: RequestOptions): Promise<FindAllRun> {
    return this.transport.json({ ...endpoint('post', '/v1/findall/runs'), body, options });
  }

  /** Looks for more entities (reopens a completed run). */
  extend(id: string, body: FindAllExtendBody, options?: RequestOptions): Promise<FindAllRun> {
    return this.transport.json({
      ...endpoint('post', '/v1/findall/runs/{findall_id}/extend', { findall_id: id }),
      body,
      options,
    });
  }

  /** Fills more fields of the matched entities (reopens a completed run). */
  enrich(id: string, body: FindAllEnrichBody, options?: RequestOptions): Promise<FindAllRun> {
    return this.transport.json({
      ...endpoint('post', '/v1/findall/runs/{findall_id}/enrich', { findall_id: id }),
      body,
      options,
    });
  }
}

/** Crawl runs: the pages reachable from a start page, read in breadth-first order (`page.fetched` events as they are read). */
export class Crawls extends RunResource<CrawlRunView, ListItem<'CrawlRunRoutes_list', 'crawls'>> {
  constructor(transport: Transport) {
    super(
      transport,
      {
        param: 'crawl_id',
        run: '/v1/crawl/{crawl_id}',
        cancel: '/v1/crawl/{crawl_id}/cancel',
        history: '/v1/crawl/{crawl_id}/history',
        events: '/v1/crawl/{crawl_id}/events',
        list: '/v1/crawl',
      },
      'crawls',
    );
  }

  /** Starts a crawl (202 at once, `{crawl_id, status}`); follow it with `stream` or `retrieve`. */
  create(body: CrawlBody, options?: RequestOptions): Promise<CrawlCreated> {
    return this.transport.json({ ...endpoint('post', '/v1/crawl'), body, options });
  }

  /** Takes the pages a crawl with `index: true` added out of its team's search index. */
  removeFromIndex(id: string, options?: RequestOptions): Promise<CrawlIndexRemoved> {
    return this.transport.json({ ...endpoint('delete', '/v1/crawl/{crawl_id}/index', { crawl_id: id }), options });
  }

  /** The run with a page of its pages, in the order read (`limit` 1..100, default 20; `offset`). */
  retrieve(id: string, query: CrawlPagesQuery = {}, options?: RequestOptions): Promise<CrawlRunWithPages> {
    return this.transport.json({ method: 'GET', path: this.at(this.paths.run, id), query, options });
  }
}
