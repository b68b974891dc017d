import type { CreditsCharged, SkuLineItem } from '../charge/charge.events';
import type { DomainEvent } from '../decider';

/**
 * The lifecycle every run kind shares (DESIGN.md 3b): queued -> running under a lease -> cancel
 * requested -> completed | failed | cancelled. Stored names carry the kind's prefix
 * (`SearchRunStarted`, `TaskRunStarted`), so a stream's history reads as what it is; the data is
 * the same for every kind.
 */
export const RUN_STATUSES = ['queued', 'running', 'completed', 'failed', 'cancelled'] as const;
export type RunStatus = (typeof RUN_STATUSES)[number];

/** The first event's identity fields; `IdKey` names the run id field of the kind (`search_id`, `task_id`). */
export type RunRequestedData<IdKey extends string, Params> = { [K in IdKey]: string } & {
  team_id: string;
  key_id: string;
  request_id: string;
  params: Params;
  requested_at: string;
};

/**
 * The run id under the kind's own field (`{search_id: id}`). TypeScript widens a computed key to an
 * index signature, so the one record built from a key is asserted here, where the key and value are
 * both in hand.
 */
export const idField = <IdKey extends string>(key: IdKey, id: string): { [K in IdKey]: string } =>
  Object.fromEntries([[key, id]]) as { [K in IdKey]: string };

export interface RunStartedData {
  worker_id: string;
  lease_until: string;
  started_at: string;
  /** A takeover (the previous worker's lease ran out, or it handed the run back). */
  resumed: boolean;
}
export interface RunHeartbeatData {
  worker_id: string;
  lease_until: string;
}
/** The worker handed the run back (drain on SIGTERM): another replica may take it at once. */
export interface RunReleasedData {
  worker_id: string;
  released_at: string;
}
export interface RunCancelRequestedData {
  requested_at: string;
}
export interface RunCancelledData {
  cancelled_at: string;
}
export interface RunFailedData {
  error: string;
  failed_at: string;
}
/** Why a completed run stopped before its work was done (absent: it was done). */
export type RunTermination = 'budget_exhausted';
export interface RunCompletedData {
  completed_at: string;
  /** `budget_exhausted`: its next step, or its whole charge, would have passed `max_credits`. */
  termination_reason?: RunTermination;
}
/** A completed run given more work (FindAll extend, enrich): queued again, its progress kept. */
export interface RunReopenedData {
  team_id: string;
  reason: string;
  /** What the new work is, for the kind to fold (FindAll: the extra limit, or the fields to add). */
  detail: Record<string, unknown>;
  reopened_at: string;
}

/** The data of each lifecycle event, by its short name (the stored name is the kind's prefix then the name capitalised). */
export interface LifecycleData<IdKey extends string, Params> {
  requested: RunRequestedData<IdKey, Params>;
  started: RunStartedData;
  heartbeat: RunHeartbeatData;
  released: RunReleasedData;
  cancelRequested: RunCancelRequestedData;
  cancelled: RunCancelledData;
  failed: RunFailedData;
  completed: RunCompletedData;
  reopened: RunReopenedData;
}
export type LifecycleName = keyof LifecycleData<string, unknown>;

/** The stored names of a kind's lifecycle events. */
export const lifecycleNames = <P extends string>(prefix: P) => ({
  requested: `${prefix}Requested` as const,
  started: `${prefix}Started` as const,
  heartbeat: `${prefix}Heartbeat` as const,
  released: `${prefix}Released` as const,
  cancelRequested: `${prefix}CancelRequested` as const,
  cancelled: `${prefix}Cancelled` as const,
  failed: `${prefix}Failed` as const,
  completed: `${prefix}Completed` as const,
  reopened: `${prefix}Reopened` as const,
});

export type LifecycleNames<P extends string> = ReturnType<typeof lifecycleNames<P>>;

/** Each lifecycle event of a kind, typed by its prefix: `SearchRunStarted` carries RunStartedData. */
export type LifecycleEvents<P extends string, IdKey extends string, Params> = {
  [K in LifecycleName]: DomainEvent<LifecycleNames<P>[K], LifecycleData<IdKey, Params>[K]>;
};

export type LifecycleEvent<P extends string, IdKey extends string, Params> =
  | LifecycleEvents<P, IdKey, Params>[LifecycleName]
  /** A run is charged in its own stream: on completion, or as it goes (FindAll). */
  | CreditsCharged;

/**
 * A kind's lifecycle, typed by its prefix: `event(name, data)` makes a lifecycle event whose data
 * the compiler checks, and `is(stored, name)` narrows a stored event to that lifecycle event (by
 * its stored name), so its data is read with its type and no cast.
 */
export function lifecycle<P extends string, IdKey extends string, Params>(prefix: P) {
  type Event<K extends LifecycleName> = DomainEvent<LifecycleNames<P>[K], LifecycleData<IdKey, Params>[K]>;
  const names = lifecycleNames(prefix);
  return {
    names,
    event: <K extends LifecycleName>(name: K, data: LifecycleData<IdKey, Params>[K]): Event<K> => ({
      type: names[name],
      data,
    }),
    is: <K extends LifecycleName>(stored: DomainEvent, name: K): stored is Event<K> => stored.type === names[name],
  };
}

/** A stored event is a charge (`CreditsCharged`, in any kind's stream). */
export const isCharge = (stored: DomainEvent): stored is CreditsCharged => stored.type === 'CreditsCharged';

/** Lifecycle commands: the same for every kind. */
export type LifecycleCommand<Params> =
  | { type: 'RequestRun'; run_id: string; team_id: string; key_id: string; request_id: string; params: Params }
  | {
      type: 'StartRun';
      worker_id: string;
      lease_seconds: number;
      /**
       * False when the worker believes the run is queued (a start, not a takeover): a run another
       * worker started meanwhile is then refused, whatever the leases say. Absent: either.
       */
      takeover?: boolean;
    }
  | { type: 'Heartbeat'; worker_id: string; lease_seconds: number }
  | { type: 'ReleaseRun'; worker_id: string }
  | { type: 'CancelRun' }
  /** No worker_id: lease recovery confirms for a worker that died. */
  | { type: 'ConfirmCancelled'; worker_id?: string }
  /** No worker_id: the system (lease recovery) fails it. */
  | { type: 'FailRun'; worker_id?: string; error: string }
  /** `budget_exhausted`: the worker stopped because a step would pass the run's budget. */
  | {
      type: 'CompleteRun';
      worker_id: string;
      termination_reason?: RunTermination;
      /** The most its key's budget lets it be charged now (its worker read it): the charge is cut to it. */
      credit_limit?: number;
    }
  /** Only a completed run; `reason` says what the new work is. */
  | { type: 'ReopenRun'; reason: string; detail: Record<string, unknown> };

export const LIFECYCLE_COMMANDS: ReadonlySet<string> = new Set<LifecycleCommand<unknown>['type']>([
  'RequestRun',
  'StartRun',
  'Heartbeat',
  'ReleaseRun',
  'CancelRun',
  'ConfirmCancelled',
  'FailRun',
  'CompleteRun',
  'ReopenRun',
]);

/** What every run records, in every status; `progress` is the kind's own. Plain data: it is stored as a document. */
export interface RunRecord<Params, Progress> {
  run_id: string;
  team_id: string;
  key_id: string;
  request_id: string;
  params: Params;
  requested_at: string;
  /** Set once the caller asked to cancel. */
  cancel_requested_at: string | null;
  /** The line items charged so far, summed per SKU ([] before any charge). */
  charged: SkuLineItem[];
  progress: Progress;
}

export type RunState<Params, Progress> =
  | { status: 'absent' }
  | (RunRecord<Params, Progress> & { status: 'queued' })
  /** `worker_id` null: handed back (released); anyone may take it over. */
  | (RunRecord<Params, Progress> & { status: 'running'; worker_id: string | null; lease_until: string })
  | (RunRecord<Params, Progress> & { status: 'completed'; completed_at: string; termination_reason?: RunTermination })
  | (RunRecord<Params, Progress> & { status: 'failed'; error: string; failed_at: string })
  | (RunRecord<Params, Progress> & { status: 'cancelled'; cancelled_at: string });

export type ExistingRun<Params, Progress> = Exclude<RunState<Params, Progress>, { status: 'absent' }>;
export type RunningRun<Params, Progress> = Extract<RunState<Params, Progress>, { status: 'running' }>;
