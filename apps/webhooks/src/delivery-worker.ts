import {
  type BeforeApplicationShutdown,
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  Optional,
} from '@nestjs/common';
import {
  TASK_GROUP_ENDS_PREFIX,
  taskRuns,
  WEBHOOK_STREAM_PREFIX,
  webhookDeliveryDecider,
  type WebhookDeliveryState,
  webhookDeliveryStream,
} from '@app/domain';
import {
  type AllFilter,
  EVENT_STORE,
  evolveRecorded,
  type EventStore,
  type Follower,
  followAll,
  handleCommand,
  type RecordedEvent,
  WrongExpectedRevisionError,
} from '@app/eventstore';
import { monitorDecider, RUN_KINDS, type RunKind } from '@app/domain';
import { SecretBox } from '@app/platform';
import { READ_STORE, type ReadStore } from '@app/readmodels';
import { RUN_KIND_LIST } from '@app/runs';
import { monitorWebhookDelivery } from './monitor-webhooks';
import { type RequestDelivery, runEndFilter, runWebhookDelivery } from './run-webhooks';
import { recordGroupRunEnd, taskGroupEndFilter, taskGroupWebhookDelivery } from './task-group-ends';
import { deliverySecrets } from './team-secrets';
import { type AttemptOutcome, WebhookSender } from './webhook-sender';
import { outcomeCommand } from './attempt-outcome';
import { payloadOf, withPayloadByReference } from './delivery-payload';
import { DELIVERY_WORKER_OPTIONS, type DeliveryWorkerOptions } from './delivery-worker.options';

export { DELIVERY_WORKER_OPTIONS, type DeliveryWorkerOptions, deliveryWorkerOptions } from './delivery-worker.options';
export { INLINE_PAYLOAD_BYTES } from './delivery-payload';

type Open = Extract<WebhookDeliveryState, { status: 'scheduled' | 'attempting' }>;
type Attempting = Extract<WebhookDeliveryState, { status: 'attempting' }>;

const RETRY_MS = 1000;
/** Tries at one event before the follower sets it aside (see follow). */
const FOLLOW_ATTEMPTS = 5;

/**
 * Durable webhook delivery, driven by the event log alone (DESIGN.md section 5: nothing durable
 * rides on NATS). Two followers:
 * - run ends (every run kind's streams, from a read-store checkpoint): a finished run that asked
 *   for a webhook gets a `webhook-<type>-<run id>` stream; the request is idempotent (the stream
 *   exists -> no events), so a replay or a second replica adds nothing;
 * - deliveries (`webhook-*` streams, always from the start of the log): folds every unfinished
 *   delivery in memory, so a restart resumes what was pending, under the webhook-id its request
 *   fixed. That map is only a timetable; each attempt re-reads its stream and the decider decides.
 * Exactly one attempt in flight per delivery across replicas: WebhookAttemptStarted is appended
 * at the revision read (the lock) before anything is sent; a conflict means another replica won.
 */
@Injectable()
export class DeliveryWorker implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('DeliveryWorker');
  private readonly sender: WebhookSender;
  private readonly open = new Map<string, Open>();
  private readonly inFlight = new Map<string, Promise<void>>();
  private followers: Follower[] = [];
  private timer: NodeJS.Timeout | undefined;
  private dispatchQueued = false;
  /** Aborted when shutdown starts: no new work, pauses end. */
  private readonly halt = new AbortController();
  /** Aborted when the drain time is up: sends in flight are cut. */
  private readonly cut = new AbortController();

  constructor(
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(READ_STORE) private readonly reads: ReadStore,
    private readonly box: SecretBox,
    @Inject(DELIVERY_WORKER_OPTIONS) private readonly options: DeliveryWorkerOptions,
    /** The run kinds whose ends are announced (the process's list). */
    @Optional() @Inject(RUN_KIND_LIST) private readonly kinds: readonly RunKind[] = RUN_KINDS,
  ) {
    this.sender = new WebhookSender({
      allowHosts: options.allowHosts,
      timeoutMs: options.attemptTimeoutMs,
      userAgent: options.userAgent,
      resolver: options.resolver,
    });
  }

  get workerId(): string {
    return this.options.workerId;
  }

  onApplicationBootstrap(): Promise<void> {
    return this.start();
  }

  beforeApplicationShutdown(): Promise<void> {
    return this.stop();
  }

  async start(): Promise<void> {
    if (this.followers.length > 0) throw new Error('delivery worker already started');
    const checkpoint = await this.reads.getCheckpoint(this.options.checkpointName);
    this.followers = [
      this.follow(this.endFilter(), checkpoint, (event) => this.onRunEnded(event)),
      this.follow({ streamPrefixes: [WEBHOOK_STREAM_PREFIX] }, undefined, async (event) => this.onDeliveryEvent(event)),
    ];
    this.logger.log({
      msg: 'webhook delivery worker started',
      worker_id: this.workerId,
      from: checkpoint === undefined ? null : String(checkpoint),
    });
  }

  /** Stops taking attempts, lets those in flight finish within drainMs, then cuts them unrecorded (their lease lets a replica take over). */
  async stop(): Promise<void> {
    if (this.halt.signal.aborted) return;
    this.halt.abort();
    clearTimeout(this.timer);
    const following = Promise.all(this.followers.map((follower) => follower.stop()));
    const drained = Promise.allSettled(this.inFlight.values());
    let bound: NodeJS.Timeout | undefined;
    const finished = await Promise.race([
      drained.then(() => true),
      new Promise<false>((resolve) => (bound = setTimeout(resolve, this.options.drainMs, false))),
    ]);
    clearTimeout(bound);
    if (!finished) {
      this.logger.warn({ msg: 'cutting webhook attempts still in flight at shutdown', count: this.inFlight.size });
      this.cut.abort();
      await drained;
    }
    await following;
    this.sender.close();
  }

  /**
   * Follows the log from `after` (followAll): after a failure it resubscribes from the last event
   * handled, with a pause that doubles while failures repeat (up to a minute); an event whose
   * handling fails FOLLOW_ATTEMPTS times in a row is set aside (logged with its error), since one
   * event that can never be handled must not hold every webhook behind it for ever.
   */
  private follow(
    filter: AllFilter,
    after: bigint | undefined,
    handle: (event: RecordedEvent) => Promise<void>,
  ): Follower {
    return followAll(this.events, handle, {
      after,
      filter,
      retryMs: this.options.followRetryMs ?? RETRY_MS,
      maxRetryMs: 60_000,
      attemptsPerEvent: FOLLOW_ATTEMPTS,
      onDrop: (error) =>
        this.logger.error({ msg: 'webhook follower failed; resubscribing', filter, error: String(error) }),
      onSetAside: (event, error, attempts) =>
        this.logger.error({
          msg: 'webhook follower sets an event aside after repeated failures',
          stream: event.stream,
          type: event.type,
          position: String(event.position),
          attempts,
          error: String(error),
        }),
    });
  }

  /** Run ends of every kind and monitors' events; with task runs, their groups' completions. */
  private endFilter(): AllFilter {
    const runs = runEndFilter(this.kinds);
    if (!this.kinds.includes(taskRuns)) return runs;
    return {
      streamPrefixes: [...new Set([...runs.streamPrefixes, ...taskGroupEndFilter.streamPrefixes])],
      eventTypePrefixes: [...new Set([...runs.eventTypePrefixes, ...taskGroupEndFilter.eventTypePrefixes])],
    };
  }

  private async onRunEnded(end: RecordedEvent): Promise<void> {
    const policy = { max_attempts: this.options.maxAttempts, backoff_seconds: this.options.backoffSeconds };
    if (end.stream.startsWith(TASK_GROUP_ENDS_PREFIX)) {
      await this.requestDelivery(await taskGroupWebhookDelivery(this.events, end, policy), end);
      return;
    }
    const run = await this.events.readStream(end.stream);
    // A task group's run: its end is recorded on the group's (which then completes after its last).
    if (this.kinds.includes(taskRuns)) await recordGroupRunEnd(this.events, end, run[0]);
    let request: ReturnType<typeof runWebhookDelivery>;
    try {
      request = monitorWebhookDelivery(run, end) ?? runWebhookDelivery(run, end, policy, this.kinds);
    } catch (error) {
      // A stream that does not fold into a run can never announce one: skipping beats blocking every webhook behind it.
      this.logger.error({ msg: 'cannot build the run webhook; skipped', stream: end.stream, error: String(error) });
    }
    await this.requestDelivery(request && withPayloadByReference(request, end), end);
  }

  /** Appends a delivery's request (nothing if its stream exists), then moves the follower's checkpoint past `end`. */
  private async requestDelivery(request: RequestDelivery | undefined, end: RecordedEvent): Promise<void> {
    if (request) {
      await handleCommand(
        this.events,
        webhookDeliveryStream(request.delivery.delivery_id),
        webhookDeliveryDecider,
        request,
        {
          metadata: {
            team_id: request.delivery.team_id,
            correlation_id: end.metadata.correlation_id,
            causation_id: end.id,
          },
        },
      );
    }
    await this.reads.setCheckpoint(this.options.checkpointName, end.position);
  }

  private onDeliveryEvent(event: RecordedEvent): void {
    const known = this.open.get(event.stream);
    // Events of a delivery that finished earlier in the log: nothing left to schedule.
    if (!known && event.type !== 'WebhookDeliveryRequested') return;
    const state = evolveRecorded(webhookDeliveryDecider, known ?? webhookDeliveryDecider.initialState, event);
    if (state.status === 'scheduled' || state.status === 'attempting') this.open.set(event.stream, state);
    else this.open.delete(event.stream);
    this.queueDispatch();
  }

  /** One dispatch per turn of the event loop, however many events arrived (a catch-up brings many). */
  private queueDispatch(): void {
    if (this.dispatchQueued || this.halt.signal.aborted) return;
    this.dispatchQueued = true;
    setImmediate(() => {
      this.dispatchQueued = false;
      this.dispatch();
    });
  }

  /** Starts every due attempt (up to the concurrency) and sets a timer for the next one due. */
  private dispatch(): void {
    if (this.halt.signal.aborted) return;
    clearTimeout(this.timer);
    const now = this.options.now().getTime();
    let next = Infinity;
    for (const [stream, state] of this.open) {
      if (this.inFlight.has(stream)) continue;
      const due = this.dueAt(state);
      if (due === undefined) continue;
      if (due > now) next = Math.min(next, due);
      else if (this.inFlight.size < this.options.concurrency) this.launch(stream, state.request.team_id);
    }
    if (next !== Infinity) {
      // setTimeout overflows past ~24.8 days; waking early is harmless.
      this.timer = setTimeout(() => this.dispatch(), Math.min(next - now, 2 ** 31 - 1));
      this.timer.unref();
    }
  }

  private dueAt(state: Open): number | undefined {
    if (state.status === 'attempting') return Date.parse(state.started_at) + this.options.takeoverAfterMs;
    return state.next_attempt_at === null ? undefined : Date.parse(state.next_attempt_at);
  }

  private launch(stream: string, teamId: string): void {
    const attempt = this.attempt(stream, teamId)
      .catch(async (error: unknown) => {
        this.logger.error({ msg: 'webhook attempt could not be run', stream, error: String(error) });
        await this.pause(RETRY_MS); // holds the slot, so a failing store is not hammered
      })
      .finally(() => {
        this.inFlight.delete(stream);
        this.queueDispatch();
      });
    this.inFlight.set(stream, attempt);
  }

  private async attempt(stream: string, teamId: string): Promise<void> {
    const metadata = { team_id: teamId, causation_id: this.workerId };
    let taken;
    try {
      taken = await handleCommand(
        this.events,
        stream,
        webhookDeliveryDecider,
        { type: 'StartAttempt', worker_id: this.workerId, takeover_after_seconds: this.options.takeoverAfterMs / 1000 },
        // One try: a conflict is another replica taking this attempt, never something to retry.
        { maxAttempts: 1, now: this.options.now().toISOString(), metadata },
      );
    } catch (error) {
      if (error instanceof WrongExpectedRevisionError) return;
      throw error;
    }
    if (!taken.events.some((event) => event.type === 'WebhookAttemptStarted') || taken.state.status !== 'attempting')
      return;
    const outcome = await this.send(taken.state);
    if (outcome.kind === 'aborted') return;
    const recorded = await handleCommand(
      this.events,
      stream,
      webhookDeliveryDecider,
      outcomeCommand(taken.state.attempts, outcome, () => this.options.random()),
      {
        now: () => this.options.now().toISOString(),
        metadata,
      },
    );
    const reportTo = taken.state.request.report_to;
    if (reportTo)
      await this.report(
        reportTo,
        taken.state.request.delivery_id,
        taken.state.attempts,
        outcome,
        recorded.state.status !== 'scheduled',
      );
  }

  /** Tells the stream the delivery reports to (a monitor) how an attempt went. */
  private async report(
    to: { stream: string; event_id: string },
    deliveryId: string,
    attempt: number,
    outcome: Exclude<AttemptOutcome, { kind: 'aborted' }>,
    final: boolean,
  ): Promise<void> {
    const delivered = outcome.kind === 'delivered';
    const command = {
      type: 'RecordWebhookOutcome' as const,
      event_id: to.event_id,
      delivery_id: deliveryId,
      attempt,
      status: outcome.kind === 'blocked' ? null : outcome.status,
      error: delivered ? null : outcome.error,
      delivered,
      final,
    };
    try {
      await handleCommand(this.events, to.stream, monitorDecider, command, {
        now: () => this.options.now().toISOString(),
        metadata: { causation_id: this.workerId },
      });
    } catch (error) {
      this.logger.warn({
        msg: 'could not report a webhook outcome',
        stream: to.stream,
        delivery_id: deliveryId,
        err: String(error),
      });
    }
  }

  private async send({ request }: Attempting): Promise<AttemptOutcome> {
    const at = this.options.now();
    let secrets: string[];
    try {
      secrets = await deliverySecrets(this.events, this.box, request, at);
    } catch (error) {
      return {
        kind: 'failed',
        status: null,
        error: `cannot sign: ${error instanceof Error ? error.message : String(error)}`,
      };
    }
    let payload = request.payload;
    if (!payload && request.payload_ref) {
      try {
        payload = await payloadOf(
          this.events,
          request.payload_ref,
          { max_attempts: this.options.maxAttempts, backoff_seconds: this.options.backoffSeconds },
          this.kinds,
        );
      } catch (error) {
        return {
          kind: 'failed',
          status: null,
          error: `cannot build the payload: ${error instanceof Error ? error.message : String(error)}`,
        };
      }
    }
    const post = { url: request.url, webhookId: request.webhook_id, body: JSON.stringify(payload), secrets, at };
    return this.sender.send(post, this.cut.signal);
  }

  private pause(ms: number): Promise<void> {
    return new Promise((resolve) => {
      if (this.halt.signal.aborted) return resolve();
      const done = () => {
        clearTimeout(timer);
        this.halt.signal.removeEventListener('abort', done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.halt.signal.addEventListener('abort', done);
    });
  }
}
