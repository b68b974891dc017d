import type { Decider, DomainEvent } from '../decider';
import { publicStatus, runDecider, type RunKindSpec } from './run.decider';
import { isResearchEvent, type ResearchProgress } from './research-progress';
import { lifecycle, lifecycleNames, type ExistingRun, type LifecycleCommand, type RunState } from './run.events';

/** A stored event as the read side sees it. */
export interface StoredEvent {
  type: string;
  data: unknown;
}

/** One public stream event (API.md "Streams"): its name and payload. */
export interface Published {
  event: string;
  data: unknown;
}

export type AnyRunState = RunState<unknown, unknown>;

/**
 * Everything the shared machinery needs to know of a run kind (DESIGN.md 3b), declared once in the
 * kind's folder: the worker, the bus handler of its service, the gateway's routes and streams, the
 * projection and the webhooks are written once against this. Optional parts are capabilities.
 */
export interface RunKind<
  State extends AnyRunState = AnyRunState,
  View extends object = object,
  ListItem extends object = object,
  Progress extends { type: string } = { type: string; worker_id: string },
> {
  /** Short name: `search`, `task`; the bus names the kind by it. */
  name: string;
  /** Stored lifecycle names start with it (`SearchRun`). */
  prefix: string;
  /** Streams are `<streamPrefix><run id>`. */
  streamPrefix: string;
  /** New run ids are `<idPrefix><uuid>` (`search_`, `chatcmpl-`). */
  idPrefix: string;
  /** The public view's id field. */
  idKey: string;
  /** "Search run", for 404 messages. */
  noun: string;
  /** The service whose worker runs it and whose bus handler requests and cancels it. */
  service: string;
  /** Every stored event type of the kind (lifecycle and progress). */
  eventTypes: readonly string[];
  decider: Decider<LifecycleCommand<unknown> | Progress, DomainEvent, State>;
  /** The public view; throws NotFound for an absent run. */
  view(state: State): View;
  /** The public stream event of a stored event, folded into `state`; undefined when it is not sent. */
  publish(event: StoredEvent, state: State): Published | undefined;
  /** Capability: its runs are projected into a read-model collection and listed from it (otherwise read from the log). */
  readModel?: {
    collection: string;
    /** Raised when the document's shape changes: the collection is rebuilt from the log. */
    version: number;
    listItem(state: State): ListItem;
    /** Capability: items a run could grow without bound (a crawl's pages), one document each (see RunItems). */
    items?: RunItems<State>;
  };
  /** Capability: a finished run is POSTed to the URL its request gave; types are `<type>.completed|failed|cancelled`. */
  webhook?: {
    type: string;
    url(state: Exclude<State, { status: 'absent' }>): string | null;
    /** The stream whose webhook secret signs its deliveries (`team-<id>`). */
    signer(state: Exclude<State, { status: 'absent' }>): string;
  };
  /** Capability: its runs wait in the team's queue (counted against MAX_QUEUED_RUNS_PER_TEAM). */
  queued: boolean;
  /** Capability: a completed run can be given more work (`ReopenRun`). */
  reopenable: boolean;
}

/**
 * Items of a run kept out of its read-model document (DESIGN.md 4: a document a projection could
 * grow without bound is split): each event of `eventType` adds one item, a document of its own in
 * `collection` holding the run's id and the item's order (the event's stream revision), and the
 * run's document keeps `summary(state)`, which drops the items and keeps their counts, so the view
 * and list item read alike from it.
 */
export interface RunItems<State extends AnyRunState = AnyRunState> {
  collection: string;
  eventType: string;
  /** The item's document from its event: plain JSON, bounded (far below a store's document limit). */
  item(event: StoredEvent): Record<string, unknown>;
  summary(state: State): State;
}

/** A kind's progress commands as an executor records them (the worker adds its id). */
export type RecordedCommand<K extends RunKind> =
  K extends RunKind<AnyRunState, object, object, infer P> ? WithoutWorker<P> : never;
export type StateOf<K extends RunKind> = Parameters<K['view']>[0];
export type ViewOf<K extends RunKind> = ReturnType<K['view']>;
/** Progress commands as an executor writes them: the worker adds its own id. */
export type WithoutWorker<C> = C extends unknown ? Omit<C, 'worker_id'> : never;

type Registration<
  State extends AnyRunState,
  View extends object,
  ListItem extends object,
  Progress extends { type: string },
> = Omit<
  RunKind<State, View, ListItem, Progress>,
  'prefix' | 'idKey' | 'eventTypes' | 'decider' | 'reopenable' | 'publish'
> & {
  /** Public events beyond the lifecycle's (which every kind publishes the same way). */
  publishProgress?(event: StoredEvent, state: Exclude<State, { status: 'absent' }>): Published | undefined;
  /** What `run.queued` carries besides the id and status. */
  queuedFields?(state: Exclude<State, { status: 'absent' }>): Record<string, unknown>;
};

/**
 * A run kind from its decider's spec (the shared lifecycle plus its typed progress facts) and what
 * the machinery needs besides: names, capabilities, paths. Derived here: the decider, the stored
 * event types, whether it reopens, and the lifecycle's public events.
 */
export function defineRunKind<
  P extends string,
  IdKey extends string,
  Params,
  Progress,
  Command extends { type: string; worker_id: string },
  Event extends DomainEvent,
  View extends object,
  ListItem extends object,
>(
  spec: RunKindSpec<P, IdKey, Params, Progress, Command, Event>,
  registration: Registration<RunState<Params, Progress>, View, ListItem, Command>,
): RunKind<RunState<Params, Progress>, View, ListItem, Command> {
  const { publishProgress, queuedFields, ...rest } = registration;
  const kind: RunKind<RunState<Params, Progress>, View, ListItem, Command> = {
    ...rest,
    prefix: spec.prefix,
    idKey: spec.idKey,
    eventTypes: [...Object.values(lifecycleNames(spec.prefix)), 'CreditsCharged', ...spec.progressEventTypes],
    decider: runDecider(spec),
    reopenable: spec.progress.reopened !== undefined,
    publish(event, state) {
      if (state.status === 'absent') return undefined;
      const lifecycle = publishLifecycle(
        kind,
        event,
        state,
        () => kind.view(state),
        () => queuedFields?.(state) ?? {},
      );
      return lifecycle ?? publishProgress?.(event, state);
    },
  };
  return kind;
}

export const streamOf = (kind: Pick<RunKind, 'streamPrefix'>, runId: string): string => `${kind.streamPrefix}${runId}`;

/** Public names of the research pipeline's facts, shared by every kind that runs it. */
export function publishResearch(event: StoredEvent, progress: ResearchProgress): Published | undefined {
  if (!isResearchEvent(event)) return undefined;
  const view = {
    pagesFetched: progress.serp_pages.length,
    pagesTarget: progress.plan?.pages_target ?? 1,
    resultsCount: progress.results.length,
    reranked: progress.reranked,
  };
  switch (event.type) {
    case 'SubqueriesPlanned': {
      const { subqueries, round } = event.data;
      // A follow-up round's plan says which round it is: its new sub-queries are the last ones.
      return {
        event: 'plan.created',
        data: { subqueries, pagesTarget: view.pagesTarget, ...(typeof round === 'number' && { round }) },
      };
    }
    case 'SerpPageFetched':
      return {
        event: 'serp.page',
        data: {
          subquery: event.data.subquery,
          page: event.data.page,
          pagesFetched: view.pagesFetched,
          pagesTarget: view.pagesTarget,
        },
      };
    case 'PageFetched':
      return { event: 'page.fetched', data: { url: event.data.url, ok: event.data.ok } };
    case 'FindingGraded':
      return { event: 'finding.graded', data: event.data.finding };
    case 'ResultsMerged':
      return { event: 'results.updated', data: { count: view.resultsCount, reranked: view.reranked } };
    default: {
      const unreachable: never = event;
      return unreachable;
    }
  }
}

/**
 * Public names of the lifecycle (the same for every kind); heartbeats, releases and the cancel
 * request have none. The completed event carries the full view; `queued` adds `extra`.
 */
export function publishLifecycle<State extends AnyRunState>(
  kind: Pick<RunKind<State>, 'prefix' | 'idKey'>,
  event: StoredEvent,
  state: Exclude<State, { status: 'absent' }>,
  view: () => object & { error?: string | null },
  queuedExtra: () => Record<string, unknown> = () => ({}),
): Published | undefined {
  const { names, is } = lifecycle(kind.prefix);
  const id = { [kind.idKey]: state.run_id };
  switch (event.type) {
    case names.requested:
      return { event: 'run.queued', data: { ...id, status: 'queued', ...queuedExtra() } };
    case names.started:
      return {
        event: 'run.started',
        data: { ...id, status: 'running', resumed: is(event, 'started') && event.data.resumed === true },
      };
    case names.completed:
      return { event: 'run.completed', data: view() };
    case names.failed:
      return { event: 'run.failed', data: { ...id, error: view().error ?? null } };
    case names.cancelled:
      return { event: 'run.cancelled', data: { ...id, status: publicStatus(state as ExistingRun<unknown, unknown>) } };
    default:
      return undefined;
  }
}

export const TERMINAL_PUBLIC_EVENTS: ReadonlySet<string> = new Set(['run.completed', 'run.failed', 'run.cancelled']);

/** Stored end event -> the webhook's event suffix and the field that dates it. */
export const runEnds = (
  prefix: string,
): Record<string, { suffix: 'completed' | 'failed' | 'cancelled'; at: string }> => {
  const names = lifecycleNames(prefix);
  return {
    [names.completed]: { suffix: 'completed', at: 'completed_at' },
    [names.failed]: { suffix: 'failed', at: 'failed_at' },
    [names.cancelled]: { suffix: 'cancelled', at: 'cancelled_at' },
  };
};
