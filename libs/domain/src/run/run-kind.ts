import type { Decider, DomainEvent } from '../decider';
import { publicStatus } from './run.decider';
import type { ResearchProgress } from './research-progress';
import { lifecycleNames, type ExistingRun, type RunState } from './run.events';

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

type AnyRunState = RunState<unknown, unknown>;

/**
 * Everything the shared machinery needs to know of a run kind (DESIGN.md 3b): the worker, the
 * gateway's routes and streams, the projection and the webhooks are written once against this.
 * Adding a kind is a folder in libs/domain that exports one of these, an executor and a route file.
 */
export interface RunKind<State extends AnyRunState = AnyRunState, View extends object = object, ListItem extends object = object> {
  /** Short name: `search`, `task`. */
  name: string;
  /** Stored lifecycle names start with it (`SearchRun`). */
  prefix: string;
  /** Streams are `<streamPrefix><run id>`. */
  streamPrefix: string;
  /** The public view's id field. */
  idKey: string;
  /** "Search run", for 404 messages. */
  noun: string;
  /** The read model collection of its runs. */
  collection: string;
  /** Webhook types are `<webhookType>.completed|failed|cancelled`. */
  webhookType: string;
  /** Every stored event type of the kind (lifecycle and progress). */
  eventTypes: readonly string[];
  decider: Decider<{ type: string }, DomainEvent, State>;
  /** The public view; throws a 404 DomainError for an absent run. */
  view(state: State): View;
  listItem(state: State): ListItem;
  /** The URL the finished run is POSTed to, if the caller gave one. */
  webhookUrl(state: Exclude<State, { status: 'absent' }>): string | null;
  /** The stream whose webhook secret signs its deliveries (`team-<id>`: runs are signed with their team's). */
  webhookSigner(state: Exclude<State, { status: 'absent' }>): string;
  /** The public stream event of a stored event, folded into `state`; undefined when it is not sent. */
  publish(event: StoredEvent, state: State): Published | undefined;
}

export const streamOf = (kind: Pick<RunKind, 'streamPrefix'>, runId: string): string => `${kind.streamPrefix}${runId}`;

/** Public names of the research pipeline's facts, shared by every kind that runs it. */
export function publishResearch(event: StoredEvent, progress: ResearchProgress): Published | undefined {
  const data = event.data as Record<string, unknown>;
  const view = { pagesFetched: progress.serp_pages.length, pagesTarget: progress.plan?.pages_target ?? 1, resultsCount: progress.results.length, reranked: progress.reranked };
  switch (event.type) {
    case 'SubqueriesPlanned':
      // A follow-up round's plan says which round it is: its new sub-queries are the last ones.
      return { event: 'plan.created', data: { subqueries: data.subqueries, pagesTarget: view.pagesTarget, ...(typeof data.round === 'number' && { round: data.round }) } };
    case 'SerpPageFetched':
      return { event: 'serp.page', data: { subquery: data.subquery, page: data.page, pagesFetched: view.pagesFetched, pagesTarget: view.pagesTarget } };
    case 'PageFetched':
      return { event: 'page.fetched', data: { url: data.url, ok: data.ok } };
    case 'FindingGraded':
      return { event: 'finding.graded', data: data.finding };
    case 'ResultsMerged':
      return { event: 'results.updated', data: { count: view.resultsCount, reranked: view.reranked } };
    default:
      return undefined;
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
  const names = lifecycleNames(kind.prefix);
  const id = { [kind.idKey]: state.run_id };
  switch (event.type) {
    case names.requested:
      return { event: 'run.queued', data: { ...id, status: 'queued', ...queuedExtra() } };
    case names.started:
      return { event: 'run.started', data: { ...id, status: 'running', resumed: (event.data as { resumed?: boolean }).resumed === true } };
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
export const runEnds = (prefix: string): Record<string, { suffix: 'completed' | 'failed' | 'cancelled'; at: string }> => {
  const names = lifecycleNames(prefix);
  return {
    [names.completed]: { suffix: 'completed', at: 'completed_at' },
    [names.failed]: { suffix: 'failed', at: 'failed_at' },
    [names.cancelled]: { suffix: 'cancelled', at: 'cancelled_at' },
  };
};
