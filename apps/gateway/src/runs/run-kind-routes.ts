import {
  ChatCompletionSchema,
  chatRuns,
  crawlRuns,
  CrawlViewSchema,
  findAllRuns,
  FindAllViewSchema,
  RUN_STATUSES,
  type RunKind,
  SearchRunListItemSchema,
  searchRuns,
  SearchRunViewSchema,
  taskRuns,
  TaskRunViewSchema,
  type TSchema,
} from '@app/domain';

/** The HTTP paths a run kind is served under (API.md "Routes"); every path holds `:<param>`. */
export interface RunRoutes {
  /** The OpenAPI tag of its operations. */
  tag: string;
  /** The run id's path parameter (`search_id`). */
  param: string;
  /** GET: the team's runs newest first, under `key`; `byStatus` accepts `?status=`. */
  list?: { path: string; key: string; defaultLimit: number; byStatus?: readonly string[] };
  /** GET: the view (more than one path when the API has aliases). */
  view: readonly string[];
  /** POST: cancel. */
  cancel?: string;
  /** GET: every stored event of the run (audit). */
  history: string;
  /** GET: server-sent events, resumable. */
  sse?: string;
  /** GET: the public events recorded so far, as a page. */
  recorded?: string;
  /** The WebSocket beside the SSE stream. */
  socket?: string;
}

/**
 * The gateway's registration of a run kind: the kind (libs/domain, which knows nothing of HTTP),
 * the paths and tag it is served under, and its view's and list item's schemas (declared in the
 * domain, libs/domain/src/schema.ts), served in the OpenAPI document.
 */
export interface HttpRunKind {
  kind: RunKind;
  routes: RunRoutes;
  /** Absent: the view is documented as a plain object (RunView). */
  view?: TSchema;
  /** Absent: a list item is the view. */
  listItem?: TSchema;
}

/** Every run kind of RUN_KINDS as the gateway serves it. */
export const HTTP_RUN_KINDS: readonly HttpRunKind[] = [
  {
    kind: searchRuns,
    routes: {
      tag: 'Search',
      param: 'search_id',
      list: { path: 'v1/searches', key: 'searches', defaultLimit: 5 },
      view: ['v1/searches/:search_id'],
      cancel: 'v1/searches/:search_id/cancel',
      history: 'v1/searches/:search_id/history',
      sse: 'v1/searches/:search_id/events',
      socket: 'v1/searches/:search_id/ws',
    },
    view: SearchRunViewSchema,
    listItem: SearchRunListItemSchema,
  },
  {
    kind: taskRuns,
    routes: {
      tag: 'Tasks',
      param: 'task_id',
      list: { path: 'v1/tasks', key: 'tasks', defaultLimit: 20, byStatus: RUN_STATUSES },
      // The run's own path (with its stream and socket) and the task's, which are the same run.
      view: ['v1/tasks/runs/:task_id', 'v1/tasks/:task_id'],
      cancel: 'v1/tasks/:task_id/cancel',
      history: 'v1/tasks/:task_id/history',
      sse: 'v1/tasks/runs/:task_id/events',
      recorded: 'v1/tasks/:task_id/events',
      socket: 'v1/tasks/runs/:task_id/ws',
    },
    view: TaskRunViewSchema,
  },
  {
    kind: chatRuns,
    routes: { tag: 'Chat', param: 'id', view: ['v1/chat/completions/:id'], history: 'v1/chat/completions/:id/history' },
    view: ChatCompletionSchema,
  },
  {
    kind: findAllRuns,
    routes: {
      tag: 'FindAll',
      param: 'findall_id',
      list: { path: 'v1/findall/runs', key: 'runs', defaultLimit: 20 },
      view: ['v1/findall/runs/:findall_id'],
      cancel: 'v1/findall/runs/:findall_id/cancel',
      history: 'v1/findall/runs/:findall_id/history',
      sse: 'v1/findall/runs/:findall_id/events',
      socket: 'v1/findall/runs/:findall_id/ws',
    },
    view: FindAllViewSchema,
  },
  {
    kind: crawlRuns,
    routes: {
      tag: 'Crawl',
      param: 'crawl_id',
      list: { path: 'v1/crawl', key: 'crawls', defaultLimit: 20, byStatus: RUN_STATUSES },
      // GET /v1/crawl/{id} (with its pages) is the kind's route file's; this is the run without them.
      view: ['v1/crawl/:crawl_id/summary'],
      cancel: 'v1/crawl/:crawl_id/cancel',
      history: 'v1/crawl/:crawl_id/history',
      sse: 'v1/crawl/:crawl_id/events',
      socket: 'v1/crawl/:crawl_id/ws',
    },
    view: CrawlViewSchema,
  },
];

/** The registration of each kind served, in the kinds' order; a kind the gateway has no registration for is refused at boot. */
export function httpRunKinds(kinds: readonly RunKind[], registrations: readonly HttpRunKind[]): HttpRunKind[] {
  return kinds.map((kind) => {
    const found = registrations.find((r) => r.kind.name === kind.name);
    if (!found)
      throw new Error(`run kind ${kind.name} has no HTTP registration (apps/gateway/src/runs/run-kind-routes.ts)`);
    return found;
  });
}

/** The DI token of the HttpRunKind list the gateway serves. */
export const HTTP_RUN_KIND_LIST = Symbol('HTTP_RUN_KIND_LIST');
