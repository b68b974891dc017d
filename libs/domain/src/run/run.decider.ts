import type { SkuLineItem } from '../charge/charge.events';
import {
  BudgetExhausted,
  type DecideContext,
  type Decider,
  type DomainEvent,
  Conflict,
  Invalid,
  NotFound,
} from '../decider';
import { totalCredits } from '../pricing';
import { chargeWithin, MAX_RUN_CREDITS } from './run-budget';
import {
  type ExistingRun,
  LIFECYCLE_COMMANDS,
  type LifecycleCommand,
  idField,
  isCharge,
  lifecycle,
  type LifecycleEvent,
  type RunningRun,
  type RunRecord,
  type RunState,
} from './run.events';

/**
 * A kind's own progress facts (DESIGN.md 3b): idempotent `Record*` commands that only the worker
 * holding the run's lease may decide, folded into `progress`.
 */
export interface RunProgressSpec<
  Params,
  Progress,
  Command extends { type: string; worker_id: string },
  Event extends DomainEvent,
> {
  initial: Progress;
  /** Decides a progress command for the lease holder; [] when the fact is already recorded. */
  decide(command: Command, run: RunningRun<Params, Progress>, context: DecideContext): Event[];
  /** Total: an event that does not apply leaves the progress as it is. */
  evolve(progress: Progress, event: Event): Progress;
  /** What the completed run is charged; throws Conflict while it cannot complete yet. */
  charge(run: RunningRun<Params, Progress>): SkuLineItem[];
  /** Kinds whose completed runs take more work: checks the request against the run (throws 422/409) ... */
  validateReopen?(detail: Record<string, unknown>, progress: Progress, params: Params): void;
  /** ... and folds it into the progress when the run is reopened. */
  reopened?(progress: Progress, detail: Record<string, unknown>): Progress;
}

export interface RunKindSpec<
  P extends string,
  IdKey extends string,
  Params,
  Progress,
  Command extends { type: string; worker_id: string },
  Event extends DomainEvent,
> {
  /** Stored event names start with it: `SearchRun` -> `SearchRunStarted`. */
  prefix: P;
  /** The run id field of the first event and of the public view. */
  idKey: IdKey;
  /** For messages: "search run". */
  noun: string;
  /** Invariants the run relies on; throws Invalid (the gateway reports field errors first). */
  validate(params: Params): void;
  /**
   * The run's own budget (`max_credits`), for kinds that take one: no decision appends a charge
   * past it (a progress step is refused with BudgetExhausted, the completion charge is cut to it).
   */
  maxCredits?(params: Params): number | null | undefined;
  progress: RunProgressSpec<Params, Progress, Command, Event>;
  /** Every stored event type of the kind's progress (projection and stream filters). */
  progressEventTypes: readonly Event['type'][];
}

export type RunCommand<Params, Command> = LifecycleCommand<Params> | Command;
export type RunEvent<P extends string, IdKey extends string, Params, Event> = LifecycleEvent<P, IdKey, Params> | Event;

type Lifecycle<Params> = LifecycleCommand<Params>;
type Cmd<Params, T extends Lifecycle<Params>['type']> = Extract<Lifecycle<Params>, { type: T }>;

const TERMINAL = new Set(['completed', 'failed', 'cancelled']);

const leaseUntil = (now: string, seconds: number) => {
  if (!(seconds > 0)) throw new Invalid('lease_seconds must be positive');
  return new Date(Date.parse(now) + seconds * 1000).toISOString();
};

/**
 * The shared run decider: lifecycle commands decided here for every kind, progress commands passed
 * to the kind once the lease holder is checked. A command already satisfied decides nothing, so
 * redelivery and a resumed worker are harmless.
 */
export function runDecider<
  P extends string,
  IdKey extends string,
  Params,
  Progress,
  Command extends { type: string; worker_id: string },
  Event extends DomainEvent,
>(
  kind: RunKindSpec<P, IdKey, Params, Progress, Command, Event>,
): Decider<RunCommand<Params, Command>, RunEvent<P, IdKey, Params, Event>, RunState<Params, Progress>> {
  type State = RunState<Params, Progress>;
  type Existing = ExistingRun<Params, Progress>;
  type Running = RunningRun<Params, Progress>;
  type Ev = RunEvent<P, IdKey, Params, Event>;
  const life = lifecycle<P, IdKey, Params>(kind.prefix);
  const { event } = life;
  const progressTypes = new Set<string>(kind.progressEventTypes);
  const isLifecycleCommand = (command: RunCommand<Params, Command>): command is Lifecycle<Params> =>
    LIFECYCLE_COMMANDS.has(command.type);
  /** A stored event of the kind's own progress (the log holds only what this decider decided). */
  const isProgress = (stored: DomainEvent): stored is Event => progressTypes.has(stored.type);

  const mustExist = (state: State): Existing => {
    if (state.status === 'absent') throw new NotFound(`${kind.noun} does not exist`);
    return state;
  };
  const heldBy = (run: Running) =>
    new Conflict(
      run.worker_id === null
        ? 'run was handed back: start it first'
        : `run is held by worker ${run.worker_id} until ${run.lease_until}`,
    );
  const leaseExpired = (run: Running, now: string) => Date.parse(now) >= Date.parse(run.lease_until);

  /**
   * Progress is recorded only by the worker holding the lease of a running run. The recorded holder
   * keeps it past lease_until until someone takes over: a slow worker is not wasted. Once cancel is
   * requested progress is refused, so "work stops at once" holds and the kept results are final.
   */
  const mustHold = (state: State, workerId: string): Running => {
    const run = mustExist(state);
    if (run.status === 'queued') throw new Conflict('run is not started');
    if (run.status !== 'running') throw new Conflict(`run is ${run.status}`);
    if (run.cancel_requested_at !== null) throw new Conflict('run is cancelled');
    if (run.worker_id !== workerId) throw heldBy(run);
    return run;
  };

  /** Ending a running run: its holder, or anyone (another worker, the system) once the lease ran out. */
  const mayEnd = (run: Running, workerId: string | undefined, now: string) => {
    if (run.worker_id !== workerId && !leaseExpired(run, now)) throw heldBy(run);
  };

  const request = (command: Cmd<Params, 'RequestRun'>, state: State, { now }: DecideContext): Ev[] => {
    if (state.status !== 'absent') {
      if (state.run_id === command.run_id) return [];
      throw new Conflict(`stream holds ${kind.noun} ${state.run_id}, not ${command.run_id}`);
    }
    kind.validate(command.params);
    const budget = kind.maxCredits?.(command.params);
    if (
      budget !== undefined &&
      budget !== null &&
      (!Number.isInteger(budget) || budget < 1 || budget > MAX_RUN_CREDITS)
    )
      throw new Invalid(`max_credits must be 1 to ${MAX_RUN_CREDITS}`);
    const { run_id, team_id, key_id, request_id, params } = command;
    return [
      event('requested', { ...idField(kind.idKey, run_id), team_id, key_id, request_id, params, requested_at: now }),
    ];
  };

  const start = (command: Cmd<Params, 'StartRun'>, state: State, { now }: DecideContext): Ev[] => {
    const run = mustExist(state);
    const lease_until = leaseUntil(now, command.lease_seconds);
    const started = (resumed: boolean) => [
      event('started', { worker_id: command.worker_id, lease_until, started_at: now, resumed }),
    ];
    if (run.status === 'queued') return started(false);
    if (run.status !== 'running') throw new Conflict(`run is ${run.status}`);
    if (command.takeover === false && run.worker_id !== command.worker_id)
      throw new Conflict('run was started by another worker');
    // A cancel-requested run is not worked again: whoever finds it confirms the cancel instead.
    if (run.cancel_requested_at !== null) throw new Conflict('run is cancelled: confirm it instead');
    if (run.worker_id === command.worker_id) return [];
    if (run.worker_id !== null && !leaseExpired(run, now)) throw heldBy(run);
    return started(true);
  };

  const heartbeat = (command: Cmd<Params, 'Heartbeat'>, state: State, { now }: DecideContext): Ev[] => {
    const run = mustExist(state);
    // A late heartbeat after the end is harmless; the worker learns of the end elsewhere.
    if (TERMINAL.has(run.status)) return [];
    if (run.status !== 'running') throw new Conflict('run is not started');
    if (run.worker_id !== command.worker_id) throw heldBy(run);
    return [event('heartbeat', { worker_id: command.worker_id, lease_until: leaseUntil(now, command.lease_seconds) })];
  };

  const release = (command: Cmd<Params, 'ReleaseRun'>, state: State, { now }: DecideContext): Ev[] => {
    const run = mustExist(state);
    // Only what it holds can be handed back; a run that ended or moved on needs nothing.
    if (run.status !== 'running' || run.worker_id !== command.worker_id) return [];
    return [event('released', { worker_id: command.worker_id, released_at: now })];
  };

  const cancel = (_command: Cmd<Params, 'CancelRun'>, state: State, { now }: DecideContext): Ev[] => {
    const run = mustExist(state);
    if (run.status === 'completed' || run.status === 'failed') throw new Conflict(`cannot cancel a ${run.status} run`);
    if (run.status === 'cancelled' || run.cancel_requested_at !== null) return [];
    const requested = event('cancelRequested', { requested_at: now });
    // Nobody works a queued run, so nobody is left to confirm: it ends at once.
    if (run.status === 'queued') return [requested, event('cancelled', { cancelled_at: now })];
    return [requested];
  };

  const confirmCancelled = (command: Cmd<Params, 'ConfirmCancelled'>, state: State, { now }: DecideContext): Ev[] => {
    const run = mustExist(state);
    if (run.status !== 'running' || run.cancel_requested_at === null) return [];
    mayEnd(run, command.worker_id, now);
    return [event('cancelled', { cancelled_at: now })];
  };

  const fail = (command: Cmd<Params, 'FailRun'>, state: State, { now }: DecideContext): Ev[] => {
    const run = mustExist(state);
    if (TERMINAL.has(run.status)) return [];
    if (run.status === 'running') {
      mayEnd(run, command.worker_id, now);
      // The caller already saw it cancelled: a worker failing while it winds down ends it cancelled.
      if (run.cancel_requested_at !== null) return [event('cancelled', { cancelled_at: now })];
    }
    return [event('failed', { error: command.error, failed_at: now })];
  };

  const complete = (command: Cmd<Params, 'CompleteRun'>, state: State, { now }: DecideContext): Ev[] => {
    if (state.status === 'completed') return [];
    const run = mustHold(state, command.worker_id);
    // Stopped on its budget, the kind's work may be unfinished: it is charged what it owes so far.
    const owed = command.termination_reason === 'budget_exhausted' ? owedSoFar(run) : kind.progress.charge(run);
    const { items, cut } = chargeWithin(owed, Math.min(room(run), Math.max(0, command.credit_limit ?? Infinity)));
    const charged =
      items.length > 0
        ? [
            {
              type: 'CreditsCharged' as const,
              data: { team_id: run.team_id, request_id: run.run_id, items, credits: totalCredits(items), at: now },
            },
          ]
        : [];
    const termination_reason = command.termination_reason ?? (cut ? 'budget_exhausted' : undefined);
    return [...charged, event('completed', { completed_at: now, ...(termination_reason && { termination_reason }) })];
  };

  const owedSoFar = (run: Running): SkuLineItem[] => {
    try {
      return kind.progress.charge(run);
    } catch (error) {
      if (error instanceof Conflict) return [];
      throw error;
    }
  };

  /** Credits the run may still be charged: its budget less what it was charged (Infinity: no budget). */
  const room = (run: Existing): number => {
    const budget = kind.maxCredits?.(run.params);
    return budget === undefined || budget === null ? Infinity : budget - totalCredits(run.charged);
  };

  /** A lease holder's progress step; refused whole when its charges would pass the run's budget. */
  const progress = (command: Command, state: State, context: DecideContext): Ev[] => {
    const run = mustHold(state, command.worker_id);
    const events = kind.progress.decide(command, run, context);
    const credits = events.reduce((sum, e) => sum + (isCharge(e) ? e.data.credits : 0), 0);
    const left = room(run);
    if (credits > left)
      throw new BudgetExhausted(
        `this step costs ${credits} credits and the run's budget has ${left} left (max_credits ${kind.maxCredits?.(run.params)})`,
      );
    return events;
  };

  const reopen = (command: Cmd<Params, 'ReopenRun'>, state: State, { now }: DecideContext): Ev[] => {
    const run = mustExist(state);
    if (!kind.progress.reopened) throw new Conflict(`a ${kind.noun} cannot be given more work`);
    if (run.status !== 'completed')
      throw new Conflict(`only a completed run can be given more work; this one is ${publicStatus(run)}`);
    kind.progress.validateReopen?.(command.detail, run.progress, run.params);
    return [
      event('reopened', { team_id: run.team_id, reason: command.reason, detail: command.detail, reopened_at: now }),
    ];
  };

  /** Drops the lease fields when a run ends, so each status carries only its own fields. */
  const strip = (state: Existing): RunRecord<Params, Progress> => {
    const { status: _s, ...rest } = state;
    if ('worker_id' in rest) {
      const { worker_id: _w, lease_until: _l, ...record } = rest;
      return record;
    }
    return rest;
  };

  const evolve = (state: State, stored: Ev): State => {
    const { is } = life;
    if (is(stored, 'requested')) {
      if (state.status !== 'absent') return state;
      const { data } = stored;
      return {
        status: 'queued',
        run_id: data[kind.idKey],
        team_id: data.team_id,
        key_id: data.key_id,
        request_id: data.request_id,
        params: data.params,
        requested_at: data.requested_at,
        cancel_requested_at: null,
        charged: [],
        progress: kind.progress.initial,
      };
    }
    if (state.status === 'absent') return state;
    const open = state.status === 'queued' || state.status === 'running';
    if (is(stored, 'started'))
      return open
        ? { ...state, status: 'running', worker_id: stored.data.worker_id, lease_until: stored.data.lease_until }
        : state;
    if (is(stored, 'heartbeat'))
      return state.status === 'running' && state.worker_id === stored.data.worker_id
        ? { ...state, lease_until: stored.data.lease_until }
        : state;
    if (is(stored, 'released')) {
      return state.status === 'running' && state.worker_id === stored.data.worker_id
        ? { ...state, worker_id: null, lease_until: stored.data.released_at }
        : state;
    }
    if (is(stored, 'cancelRequested'))
      return open && state.cancel_requested_at === null
        ? { ...state, cancel_requested_at: stored.data.requested_at }
        : state;
    if (is(stored, 'completed')) {
      if (!open) return state;
      const { termination_reason } = stored.data;
      return {
        ...strip(state),
        status: 'completed',
        completed_at: stored.data.completed_at,
        ...(termination_reason && { termination_reason }),
      };
    }
    if (is(stored, 'failed'))
      return open
        ? { ...strip(state), status: 'failed', error: stored.data.error, failed_at: stored.data.failed_at }
        : state;
    if (is(stored, 'cancelled'))
      return open ? { ...strip(state), status: 'cancelled', cancelled_at: stored.data.cancelled_at } : state;
    if (is(stored, 'reopened')) {
      if (state.status !== 'completed') return state;
      const { status: _s, completed_at: _c, termination_reason: _t, ...record } = state;
      const progress = kind.progress.reopened
        ? kind.progress.reopened(state.progress, stored.data.detail ?? {})
        : state.progress;
      return { ...record, status: 'queued', cancel_requested_at: null, progress };
    }
    if (isCharge(stored)) return { ...state, charged: addItems(state.charged, stored.data.items) };
    if (!isProgress(stored)) return state;
    const progress = kind.progress.evolve(state.progress, stored);
    return progress === state.progress ? state : { ...state, progress };
  };

  return {
    initialState: { status: 'absent' },
    decide(command, state, context) {
      if (!isLifecycleCommand(command)) return progress(command, state, context);
      const lifecycle = command;
      switch (lifecycle.type) {
        case 'RequestRun':
          return request(lifecycle, state, context);
        case 'StartRun':
          return start(lifecycle, state, context);
        case 'Heartbeat':
          return heartbeat(lifecycle, state, context);
        case 'ReleaseRun':
          return release(lifecycle, state, context);
        case 'CancelRun':
          return cancel(lifecycle, state, context);
        case 'ConfirmCancelled':
          return confirmCancelled(lifecycle, state, context);
        case 'FailRun':
          return fail(lifecycle, state, context);
        case 'CompleteRun':
          return complete(lifecycle, state, context);
        case 'ReopenRun':
          return reopen(lifecycle, state, context);
        default: {
          const unreachable: { type: string } = lifecycle satisfies never;
          throw new Error(`unknown command ${unreachable.type}`);
        }
      }
    },
    evolve,
  };
}

/** Line items summed per SKU, in first-charged order. */
export const addItems = (into: readonly SkuLineItem[], items: readonly SkuLineItem[]): SkuLineItem[] => {
  const out = into.map((item) => ({ ...item }));
  for (const item of items) {
    const known = out.find((o) => o.sku === item.sku);
    if (known) {
      known.quantity += item.quantity;
      known.credits += item.credits;
    } else out.push({ ...item });
  }
  return out;
};

/** Set on every terminal status; a cancelled run ended when the caller asked, not when the worker confirmed. */
export const runEndedAt = <Params, Progress>(state: ExistingRun<Params, Progress>): string | null => {
  switch (state.status) {
    case 'completed':
      return state.completed_at;
    case 'failed':
      return state.failed_at;
    case 'cancelled':
      return state.cancel_requested_at ?? state.cancelled_at;
    case 'running':
      return state.cancel_requested_at;
    case 'queued':
      return null;
    default: {
      const unreachable: never = state;
      return unreachable;
    }
  }
};

/** The public status: a run whose cancel was requested already reads `cancelled` (its work stops at once). */
export const publicStatus = <Params, Progress>(state: ExistingRun<Params, Progress>) =>
  state.status === 'running' && state.cancel_requested_at !== null ? ('cancelled' as const) : state.status;
