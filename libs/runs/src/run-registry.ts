import { lifecycleNames, type RunKind } from '@app/domain/run';
import { type EventStore, type Follower, followAll, type RecordedEvent } from '@app/eventstore';

/** What the scheduler needs to know of each unfinished run, of any kind. */
export interface RunInfo {
  kind: RunKind;
  /** The run's stream: unique across kinds. */
  stream: string;
  run_id: string;
  team_id: string;
  status: 'queued' | 'running';
  /** Global position of its request: queued runs start in this order. */
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

type Role = 'requested' | 'started' | 'heartbeat' | 'released' | 'cancelRequested' | 'ended' | 'reopened';

/**
 * The unfinished runs of every kind, followed live from the event log (each worker keeps its own
 * copy, so scheduling needs no other store, and a per-team limit counts every kind together).
 * Finished runs are forgotten.
 */
export class RunRegistry {
  readonly runs = new Map<string, RunInfo>();
  private readonly roles = new Map<string, { kind: RunKind; role: Role }>();
  private follower: Follower | undefined;

  constructor(
    private readonly store: EventStore,
    private readonly kinds: readonly RunKind[],
    private readonly onChange: (run: RunInfo | undefined, event: RecordedEvent, stream: string) => void,
    /** Told when the live subscription dropped and is being taken up again. */
    private readonly onDrop: (error: unknown) => void = () => undefined,
  ) {
    for (const kind of kinds) {
      const names = lifecycleNames(kind.prefix);
      const roles: [string, Role][] = [
        [names.requested, 'requested'],
        [names.started, 'started'],
        [names.heartbeat, 'heartbeat'],
        [names.released, 'released'],
        [names.cancelRequested, 'cancelRequested'],
        [names.completed, 'ended'],
        [names.failed, 'ended'],
        [names.cancelled, 'ended'],
        [names.reopened, 'reopened'],
      ];
      for (const [type, role] of roles) this.roles.set(type, { kind, role });
    }
  }

  /** Reads the runs in the log, then follows it live from where the read ended. */
  async start(): Promise<void> {
    const filter = { streamPrefixes: this.kinds.map((kind) => kind.streamPrefix), eventTypePrefixes: [...this.roles.keys()] };
    let after: bigint | undefined;
    for (;;) {
      const batch = await this.store.readAll({ after, maxCount: 1_000, filter });
      for (const event of batch) this.apply(event);
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
    for (const run of this.runs.values()) if (run.status === 'running') counts.set(run.team_id, (counts.get(run.team_id) ?? 0) + 1);
    return counts;
  }

  private apply(event: RecordedEvent): void {
    const known = this.roles.get(event.type);
    if (!known || !event.stream.startsWith(known.kind.streamPrefix)) return;
    const { kind, role } = known;
    const data = event.data as Record<string, unknown>;
    let run = this.runs.get(event.stream);
    switch (role) {
      case 'requested':
      case 'reopened':
        // A reopened run queues again behind what was requested before it.
        run = {
          kind,
          stream: event.stream,
          run_id: event.stream.slice(kind.streamPrefix.length),
          team_id: String(data.team_id),
          status: 'queued',
          requested_at: event.position,
          worker_id: null,
          lease_until: 0,
          seen_at: performance.now(),
          cancel_requested: false,
        };
        this.runs.set(event.stream, run);
        break;
      case 'started':
      case 'heartbeat':
        if (!run) return;
        run.status = 'running';
        run.worker_id = String(data.worker_id);
        run.lease_until = Date.parse(String(data.lease_until));
        run.seen_at = performance.now();
        break;
      case 'released':
        if (!run || run.worker_id !== data.worker_id) return;
        run.worker_id = null;
        run.lease_until = Date.parse(String(data.released_at));
        run.seen_at = -Infinity; // handed back: free to take at once
        break;
      case 'cancelRequested':
        if (!run) return;
        run.cancel_requested = true;
        break;
      case 'ended':
        this.runs.delete(event.stream);
        run = undefined;
        break;
    }
    this.onChange(run, event, event.stream);
  }
}
