import { type AnyRunState, lifecycleNames, type RunKind } from '@app/domain';
import {
  aggregateStream,
  type EventStore,
  evolveRecorded,
  type Follower,
  followAll,
  type RecordedEvent,
} from '@app/eventstore';

/** What the scheduler needs to know of each unfinished run, of any kind. */
export interface RunInfo {
  kind: RunKind;
  /** The run's stream: unique across kinds. */
  stream: string;
  run_id: string;
  team_id: string;
  /** The key that asked for it: its steps are charged against that key's budget. */
  key_id: string;
  /** A task group's run: it waits behind the runs asked for one by one (libs/runs/src/scheduling.ts). */
  in_group?: boolean;
  status: 'queued' | 'running';
  /** Global position of its request (or its reopening): queued runs start in this order. */
  requested_at: bigint;
  /** null while queued, and once handed back. */
  worker_id: string | null;
  /** Epoch ms; 0 while queued. */
  lease_until: number;
  /**
   * When this process last saw the run's holder record anything (start, heartbeat, hand-back),
   * on its own monotonic clock: a takeover waits a whole lease from here, so a replica whose
   * wall clock runs ahead never takes a run from a holder that is still heartbeating.
   */
  seen_at: number;
  cancel_requested: boolean;
}

interface Followed {
  state: AnyRunState;
  info: RunInfo | undefined;
}

/**
 * The unfinished runs of every kind, followed live from the event log (each worker keeps its own
 * copy, so scheduling needs no other store, and a per-team limit counts every kind together).
 * Each run's lifecycle is folded by its kind's own decider from its lifecycle events alone (no
 * progress); finished runs are forgotten, and a reopened one is read back from its stream.
 */
export class RunRegistry {
  readonly runs = new Map<string, RunInfo>();
  private readonly followed = new Map<string, Followed>();
  private readonly kindOfType = new Map<string, RunKind>();
  private follower: Follower | undefined;

  constructor(
    private readonly store: EventStore,
    private readonly kinds: readonly RunKind[],
    private readonly onChange: (run: RunInfo | undefined, event: RecordedEvent, stream: string) => void,
    /** Told when the live subscription dropped and is being taken up again. */
    private readonly onDrop: (error: unknown) => void = () => undefined,
  ) {
    for (const kind of kinds)
      for (const type of Object.values(lifecycleNames(kind.prefix))) this.kindOfType.set(type, kind);
  }

  /** Reads the runs in the log, then follows it live from where the read ended. */
  async start(): Promise<void> {
    const filter = {
      streamPrefixes: this.kinds.map((kind) => kind.streamPrefix),
      eventTypePrefixes: [...this.kindOfType.keys()],
    };
    let after: bigint | undefined;
    for (;;) {
      const batch = await this.store.readAll({ after, maxCount: 1_000, filter });
      for (const event of batch) await this.apply(event);
      if (batch.length > 0) after = batch[batch.length - 1]!.position;
      if (batch.length < 1_000) break;
    }
    // Taken up again from the last event applied whenever the subscription drops.
    this.follower = followAll(this.store, (event) => this.apply(event), { after, filter, onDrop: this.onDrop });
  }

  async stop(): Promise<void> {
    await this.follower?.stop();
  }

  /** Runs of a team that a worker holds now, of every kind. */
  runningPerTeam(): Map<string, number> {
    const counts = new Map<string, number>();
    for (const run of this.runs.values())
      if (run.status === 'running') counts.set(run.team_id, (counts.get(run.team_id) ?? 0) + 1);
    return counts;
  }

  private async apply(event: RecordedEvent): Promise<void> {
    const kind = this.kindOfType.get(event.type);
    if (!kind || !event.stream.startsWith(kind.streamPrefix)) return;
    const names = lifecycleNames(kind.prefix);
    let followed = this.followed.get(event.stream);
    if (!followed) {
      // A run is followed from its request; a finished one that is reopened is read back first.
      if (event.type === names.requested) followed = { state: kind.decider.initialState, info: undefined };
      else if (event.type === names.reopened) {
        const before = await aggregateStream(this.store, event.stream, kind.decider, { upTo: event.revision - 1n });
        followed = { state: before.state, info: undefined };
      } else return;
    }
    const state = evolveRecorded(kind.decider, followed.state, event);
    if (state.status !== 'queued' && state.status !== 'running') {
      this.followed.delete(event.stream);
      this.runs.delete(event.stream);
      this.onChange(undefined, event, event.stream);
      return;
    }
    const previous = followed.info;
    const now = performance.now();
    const info: RunInfo = {
      kind,
      stream: event.stream,
      run_id: state.run_id,
      team_id: state.team_id,
      key_id: state.key_id,
      ...((state.params as { taskgroup_id?: string }).taskgroup_id !== undefined && { in_group: true }),
      status: state.status,
      // A reopened run queues again behind what was requested before it.
      requested_at:
        event.type === names.requested || event.type === names.reopened || !previous
          ? event.position
          : previous.requested_at,
      worker_id: state.status === 'running' ? state.worker_id : null,
      lease_until: state.status === 'running' ? Date.parse(state.lease_until) : 0,
      seen_at: seenAt(event.type, names, now, previous),
      cancel_requested: state.cancel_requested_at !== null,
    };
    this.followed.set(event.stream, { state, info });
    this.runs.set(event.stream, info);
    this.onChange(info, event, event.stream);
  }
}

/** The holder was heard from (request, start, heartbeat); a hand-back frees the run at once. */
function seenAt(
  type: string,
  names: ReturnType<typeof lifecycleNames>,
  now: number,
  previous: RunInfo | undefined,
): number {
  if (type === names.released) return -Infinity;
  if (
    type === names.requested ||
    type === names.reopened ||
    type === names.started ||
    type === names.heartbeat ||
    !previous
  )
    return now;
  return previous.seen_at;
}
