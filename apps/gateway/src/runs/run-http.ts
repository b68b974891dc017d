import { Inject, Injectable } from '@nestjs/common';
import type { IncomingMessage } from 'node:http';
import type { FastifyReply } from 'fastify';
import { CONFIG, type Config } from '@app/config';
import {
  type ReopenRunRequest,
  type RunCommandReply,
  runSubjects,
  type RunServiceName,
  type StartRunReply,
} from '@app/contracts';
import { type DomainEvent, type RunKind, runEnds, type StateOf, streamOf, type ViewOf } from '@app/domain';
import { aggregateStream, EVENT_STORE, type EventStore, type FoldDecider, foldEvents } from '@app/eventstore';
import { notFound, serviceUnavailable, tooManyRequests } from '@app/platform';
import {
  READ_STORE,
  type ReadStore,
  type RunItemDoc,
  runCollection,
  runItemsCollection,
  type Stored,
} from '@app/readmodels';
import { RUN_KIND_LIST } from '@app/runs';
import type { AuthContext } from '../auth/auth.context';
import { ServiceCalls } from '../commands/service-calls';
import { GatewayDrain } from '../streams/drain';
import { LiveStreams } from '../streams/live-streams';
import { openSse } from '../streams/sse-writer';
import { recordedEvents, resumeAfter, runStream, sseFrame } from '../streams/run-stream';
import type { PublicEvent, RunEventsPage, RunHistory } from './run-responses';

type State<K extends RunKind> = StateOf<K>;
/** What a kind's request carries (its params as its decider reads them). */
type RunParams<K extends RunKind> = Extract<State<K>, { params: unknown }>['params'];
type ListItemOf<K extends RunKind> = K extends RunKind<never, object, infer Item> ? Item : never;

export interface Page {
  limit: number;
  offset: number;
}

const RETRY_AFTER_S = 1;

/**
 * Everything the gateway serves for a run of any kind (DESIGN.md 3b): the view and list from the
 * read model, the audit history and the recorded events from the log, and the SSE stream (the
 * WebSocket is in streams/run-sockets.ts). A kind's route file only names its paths.
 */
@Injectable()
export class RunHttp {
  constructor(
    @Inject(READ_STORE) private readonly reads: ReadStore,
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(CONFIG) private readonly config: Config,
    private readonly calls: ServiceCalls,
    private readonly live: LiveStreams,
    private readonly drain: GatewayDrain,
    @Inject(RUN_KIND_LIST) private readonly kinds: readonly RunKind[],
  ) {}

  /**
   * Room in the queue for one more run of the team: its queued deep, task and FindAll runs,
   * counted in the shared read models (so across gateway replicas), must be under
   * MAX_QUEUED_RUNS_PER_TEAM; otherwise a 429 naming the bound, and nothing is created.
   */
  async assertRoomToQueue(auth: AuthContext): Promise<void> {
    const max = this.config.maxQueuedRunsPerTeam;
    // Kinds that wait in the queue (chat completions hold a live stream instead) and keep a read model.
    const collections = this.kinds.filter((kind) => kind.queued).flatMap((kind) => runCollection(kind) ?? []);
    const counts = await Promise.all(
      // A task group's runs wait in their group, not in the team's queue (API.md "Task groups").
      collections.map((collection) =>
        collection.count(this.reads, { team_id: auth.team_id, status: 'queued', group_id: null }),
      ),
    );
    const queued = counts.reduce((a, b) => a + b, 0);
    if (queued >= max) {
      throw tooManyRequests(
        5,
        {},
        `at most ${max} runs of a team may wait in the queue at once (MAX_QUEUED_RUNS_PER_TEAM); ${queued} are queued: wait for some to start`,
      );
    }
  }

  /**
   * Requests a run of the kind from its service (after checking the team's queue has room, for
   * kinds that wait in it); the request is in the read models when this returns. The new run's id.
   */
  async request<K extends RunKind>(
    kind: K,
    auth: AuthContext,
    requestId: string,
    params: RunParams<K>,
  ): Promise<string> {
    if (kind.queued) await this.assertRoomToQueue(auth);
    const { id, position } = await this.requestUnread(kind, auth, requestId, params);
    await this.calls.readYourWrites(position);
    return id;
  }

  /**
   * Requests a run without waiting for the read models to show it: its id and the log position
   * to wait for (a task group makes hundreds and waits once, for the last). `id`, when given, is
   * the run's (a run of that id there already is found, not made again). It waits in its group
   * rather than in the team's queue (the group counts its own against MAX_GROUP_RUNS_QUEUED_PER_TEAM).
   */
  async requestUnread<K extends RunKind>(
    kind: K,
    auth: AuthContext,
    requestId: string,
    params: RunParams<K>,
    id?: string,
  ): Promise<{ id: string; position: bigint }> {
    const reply = await this.calls.call<StartRunReply>(
      this.subjects(kind).start,
      { kind: kind.name, params: params as Record<string, unknown>, ...(id !== undefined && { id }) },
      auth,
      requestId,
    );
    return { id: reply.id, position: BigInt(reply.position) };
  }

  /**
   * Cancels a run the caller was found to own, without waiting for the read models: the position
   * of what the cancel recorded, if anything (a task group cancels hundreds and waits once).
   */
  async cancelUnread(kind: RunKind, auth: AuthContext, requestId: string, runId: string): Promise<bigint> {
    const reply = await this.calls.call<RunCommandReply>(
      this.subjects(kind).cancel,
      { kind: kind.name, id: runId },
      auth,
      requestId,
    );
    return BigInt(reply.position ?? -1);
  }

  /** Cancels a run of the caller's team (404 for another team's) and answers its view after the cancel. */
  async cancel<K extends RunKind>(kind: K, auth: AuthContext, requestId: string, runId: string): Promise<ViewOf<K>> {
    await this.owned(kind, auth, runId);
    await this.calls.send(this.subjects(kind).cancel, { kind: kind.name, id: runId }, auth, requestId);
    return this.viewAfterWrite(kind, auth, runId);
  }

  /** Gives a completed run of the caller's team more work (a reopenable kind), and answers its view. */
  async reopen<K extends RunKind>(
    kind: K,
    auth: AuthContext,
    requestId: string,
    runId: string,
    reason: string,
    detail: Record<string, unknown>,
  ): Promise<ViewOf<K>> {
    await this.owned(kind, auth, runId);
    const request: ReopenRunRequest = { kind: kind.name, id: runId, reason, detail };
    await this.calls.command<RunCommandReply>(this.subjects(kind).reopen, request, auth, requestId);
    return this.viewAfterWrite(kind, auth, runId);
  }

  private subjects(kind: RunKind) {
    return runSubjects(kind.service as RunServiceName);
  }

  /**
   * The run's state, or 404 (also for another team's run: never reveal it exists): from its
   * read model, or folded from the log for kinds without one.
   */
  async owned<K extends RunKind>(kind: K, auth: AuthContext, runId: string): Promise<State<K>> {
    const collection = runCollection(kind);
    if (!collection) return this.fromLog(kind, auth, runId);
    let doc = await collection.get(this.reads, runId);
    if (!doc && (await this.recordedElsewhere(streamOf(kind, runId), kind.decider, auth)))
      doc = await collection.get(this.reads, runId);
    if (!doc || doc.team_id !== auth.team_id) throw notFound(`${kind.noun} ${runId} not found`);
    return doc.state;
  }

  /**
   * For a document this replica's read models lack: whether the log has its stream, for the
   * caller's team. The run (or monitor) was recorded a moment ago through another replica (a
   * client's create went to one gateway, its next call to another), so this waits, bounded, until
   * the read models have applied the stream's first event; a 503 to retry when they lag further.
   * Another team's stream, or none, is false at once: a 404 as before.
   */
  async recordedElsewhere<State extends { status: string; team_id?: string }>(
    stream: string,
    decider: FoldDecider<DomainEvent, State>,
    auth: AuthContext,
  ): Promise<boolean> {
    const first = await this.events.readStream(stream, { maxCount: 1 });
    if (first.length === 0) return false;
    const state = foldEvents(decider, first);
    if (state.status === 'absent' || state.team_id !== auth.team_id) return false;
    if (!(await this.calls.readYourWrites(first[0]!.position)))
      throw serviceUnavailable(RETRY_AFTER_S, `${stream} was recorded but is not readable here yet; retry shortly`);
    return true;
  }

  /**
   * A page of a run's items, in the order they were added, for a kind that keeps them apart from
   * the run's document (a crawl's pages); the caller has checked whose run it is (`owned`).
   */
  async items<Item extends object>(kind: RunKind, runId: string, page: Page): Promise<Stored<RunItemDoc<Item>>[]> {
    const collection = runItemsCollection<Item>(kind);
    if (!collection) throw new Error(`run kind ${kind.name} keeps no items apart`);
    return collection.find(this.reads, { run_id: runId }, { sort: { seq: 1 }, skip: page.offset, limit: page.limit });
  }

  async view<K extends RunKind>(kind: K, auth: AuthContext, runId: string): Promise<ViewOf<K>> {
    return kind.view(await this.owned(kind, auth, runId)) as ViewOf<K>;
  }

  /**
   * The view right after a command that created or changed the run. The command already waited
   * for the read model (read-your-writes); if it still lags, the caller is told to come back.
   */
  async viewAfterWrite<K extends RunKind>(kind: K, auth: AuthContext, runId: string): Promise<ViewOf<K>> {
    const collection = runCollection(kind);
    if (!collection) return kind.view(await this.fromLog(kind, auth, runId)) as ViewOf<K>;
    const doc = await collection.get(this.reads, runId);
    if (!doc || doc.team_id !== auth.team_id)
      throw serviceUnavailable(
        RETRY_AFTER_S,
        `${kind.noun} ${runId} was recorded but is not readable yet; retry shortly`,
      );
    return kind.view(doc.state) as ViewOf<K>;
  }

  /**
   * Waits until the run ends (its completed, failed or cancelled event is in the log) or the wait
   * runs out: the end event's position, or undefined. The log, not the read model, is watched, so
   * the caller then waits for the read model to pass that position before answering.
   */
  async waitForEnd(kind: RunKind, runId: string, timeoutMs: number, signal?: AbortSignal): Promise<bigint | undefined> {
    const ends = new Set(Object.keys(runEnds(kind.prefix)));
    const subscription = this.events.subscribeToStream(streamOf(kind, runId));
    const timer = setTimeout(() => void subscription.close(), timeoutMs);
    const onAbort = () => void subscription.close();
    signal?.addEventListener('abort', onAbort, { once: true });
    try {
      for await (const event of subscription) if (ends.has(event.type)) return event.position;
      return undefined;
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      await subscription.close();
    }
  }

  /** The run as its request created it (folded from its first event): what a 202 at creation shows. */
  async viewAsRequested<K extends RunKind>(kind: K, auth: AuthContext, runId: string): Promise<ViewOf<K>> {
    const { state } = await aggregateStream(this.events, streamOf(kind, runId), kind.decider, { maxCount: 1 });
    if (state.status === 'absent' || state.team_id !== auth.team_id) throw notFound(`${kind.noun} ${runId} not found`);
    return kind.view(state) as ViewOf<K>;
  }

  /**
   * The answer of a create-and-wait POST (tasks, FindAll): waits up to `waitMs` for the run to end
   * (stopping early if the client goes away), then answers 200 with the view read after that end,
   * or 202 with the view as it stands.
   */
  async viewWhenEnded<K extends RunKind>(
    kind: K,
    auth: AuthContext,
    runId: string,
    waitMs: number,
    request: { raw: IncomingMessage },
    reply: FastifyReply,
  ): Promise<ViewOf<K>> {
    // A wait holds a live stream; with none left the answer is the 202 a wait's end would give
    // (the run exists already: a 429 would only invite a second one).
    const release = waitMs > 0 ? this.live.tryTake(auth.key_id) : undefined;
    const gone = new AbortController();
    request.raw.once('close', () => gone.abort());
    let ended: bigint | undefined;
    try {
      ended = release ? await this.waitForEnd(kind, runId, waitMs, gone.signal) : undefined;
    } finally {
      release?.();
    }
    if (ended !== undefined) await this.calls.readYourWrites(ended);
    reply.status(ended === undefined ? 202 : 200);
    return this.viewAfterWrite(kind, auth, runId);
  }

  /** Newest first, as the kind's list items (for tasks and FindAll those are the full views). */
  async list<K extends RunKind>(
    kind: K,
    auth: AuthContext,
    page: Page,
    status?: string,
  ): Promise<{ items: ListItemOf<K>[]; total: number }> {
    const filter: Record<string, unknown> = { team_id: auth.team_id, ...(status && { status }) };
    const collection = runCollection(kind);
    if (!collection || !kind.readModel) throw new Error(`run kind ${kind.name} is not listed`);
    const listItem = kind.readModel.listItem;
    const [docs, total] = await Promise.all([
      collection.find(this.reads, filter, { sort: { created_at: -1, _id: -1 }, skip: page.offset, limit: page.limit }),
      collection.count(this.reads, filter),
    ]);
    return { items: docs.map((doc) => listItem(doc.state) as ListItemOf<K>), total };
  }

  /**
   * A run's state folded from the log itself, for kinds served without a read model (chat): 404
   * when absent or another team's.
   */
  async fromLog<K extends RunKind>(
    kind: K,
    auth: AuthContext,
    runId: string,
  ): Promise<Exclude<State<K>, { status: 'absent' }>> {
    const { state } = await aggregateStream<DomainEvent, State<K>>(this.events, streamOf(kind, runId), kind.decider);
    if (state.status === 'absent' || state.team_id !== auth.team_id) throw notFound(`${kind.noun} ${runId} not found`);
    return state as Exclude<State<K>, { status: 'absent' }>;
  }

  /** Every event of the run's stream, oldest first. */
  async history(kind: RunKind, auth: AuthContext, runId: string): Promise<RunHistory> {
    await this.owned(kind, auth, runId);
    return this.streamHistory(streamOf(kind, runId));
  }

  /** Every event of a stream as the audit history shows it (the caller has checked whose it is). */
  async streamHistory(stream: string): Promise<RunHistory> {
    const events = await this.events.readStream(stream);
    return {
      events: events.map((event) => ({
        revision: event.revision.toString(),
        position: event.position.toString(),
        type: event.type,
        at: event.metadata.at ?? event.created,
        data: event.data,
        metadata: {
          correlation_id: event.metadata.correlation_id ?? null,
          causation_id: event.metadata.causation_id ?? null,
          request_id: event.metadata.request_id ?? null,
          key_id: event.metadata.key_id ?? null,
        },
      })),
      total: events.length,
    };
  }

  /** The public events recorded so far, oldest first, as a page. */
  async recorded(kind: RunKind, auth: AuthContext, runId: string, page: Page): Promise<RunEventsPage> {
    await this.owned(kind, auth, runId);
    const all = await recordedEvents(this.events, kind, streamOf(kind, runId));
    return {
      events: all.slice(page.offset, page.offset + page.limit),
      total: all.length,
      limit: page.limit,
      offset: page.offset,
    };
  }

  /**
   * A run's public events (replay, then live) for SSE and WebSocket: its terminal event is sent once
   * the read models hold it (bounded, READ_YOUR_WRITES_MS), so a GET after the stream ends sees the end.
   */
  stream(kind: RunKind, runId: string, after: bigint | undefined, signal: AbortSignal): AsyncGenerator<PublicEvent> {
    return runStream(this.events, kind, streamOf(kind, runId), after, signal, (position) =>
      this.calls.readYourWrites(position),
    );
  }

  /** Server-sent events, resumable with `Last-Event-ID` (or `?last_event_id=`). */
  async sse(
    kind: RunKind,
    auth: AuthContext,
    runId: string,
    requestId: string,
    lastEventId: string | undefined,
    reply: FastifyReply,
  ): Promise<void> {
    await this.owned(kind, auth, runId);
    const after = resumeAfter(lastEventId);
    const release = this.live.take(auth.key_id);
    const sse = openSse(reply, requestId, this.config.streamKeepAliveSeconds);
    try {
      // Ended when the client leaves, or when this replica drains (the client resumes on another).
      const until = AbortSignal.any([sse.gone, this.drain.streamsEnd]);
      for await (const event of this.stream(kind, runId, after, until)) await sse.write(sseFrame(event));
    } finally {
      release();
      sse.end(this.drain.streamsEnd.aborted);
    }
  }
}
