import type { EventStore, RecordedEvent, Subscription } from '@app/eventstore';

/** What the scheduler needs to know of each unfinished run. */
export interface RunInfo {
  search_id: string;
  team_id: string;
  status: 'queued' | 'running';
  /** Global position of its request: queued runs start in this order. */
  requested_at: bigint;
  worker_id: string | null;
  lease_until: number;
  cancel_requested: boolean;
}

/**
 * The unfinished deep runs, followed live from the event log (every research replica keeps its
 * own copy, so scheduling needs no other store). Finished runs are forgotten.
 */
export class RunRegistry {
  readonly runs = new Map<string, RunInfo>();
  private subscription: Subscription | undefined;
  private loop: Promise<void> | undefined;

  constructor(
    private readonly store: EventStore,
    private readonly onChange: (searchId: string, run: RunInfo | undefined, event: RecordedEvent) => void,
  ) {}

  /** Reads the runs in the log, then follows it live from where the read ended. */
  async start(): Promise<void> {
    const filter = { streamPrefixes: ['search-'] };
    let after: bigint | undefined;
    for (;;) {
      const batch = await this.store.readAll({ after, maxCount: 1_000, filter });
      for (const event of batch) this.apply(event);
      if (batch.length > 0) after = batch[batch.length - 1].position;
      if (batch.length < 1_000) break;
    }
    const subscription = (this.subscription = this.store.subscribeToAll({ after, filter }));
    this.loop = (async () => {
      for await (const event of subscription) this.apply(event);
    })();
  }

  async stop(): Promise<void> {
    await this.subscription?.close();
    await this.loop?.catch(() => undefined);
  }

  private apply(event: RecordedEvent): void {
    const id = event.stream.slice('search-'.length);
    const data = event.data as Record<string, unknown>;
    let run = this.runs.get(id);
    switch (event.type) {
      case 'SearchRunRequested':
        run = {
          search_id: id,
          team_id: String(data.team_id),
          status: 'queued',
          requested_at: event.position,
          worker_id: null,
          lease_until: 0,
          cancel_requested: false,
        };
        this.runs.set(id, run);
        break;
      case 'SearchRunStarted':
      case 'SearchRunHeartbeat':
        if (!run) return;
        run.status = 'running';
        run.worker_id = String(data.worker_id);
        run.lease_until = Date.parse(String(data.lease_until));
        break;
      case 'SearchRunCancelRequested':
        if (!run) return;
        run.cancel_requested = true;
        break;
      case 'SearchRunCompleted':
      case 'SearchRunFailed':
      case 'SearchRunCancelled':
        this.runs.delete(id);
        run = undefined;
        break;
      default:
        return;
    }
    this.onChange(id, run, event);
  }
}
