import { createHash, randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { CONFIG, type Config } from '@app/config';
import {
  MAX_GROUP_RUNS_QUEUED_PER_TEAM,
  TASK_GROUP_ID_PREFIX,
  TASK_RUN_STATUS_KEYS,
  type TaskGroupRun,
  type TaskGroupState,
  type TaskGroupView,
  type TaskParams,
  type TaskRunStatusCounts,
  taskGroupDecider,
  taskGroupEndsDecider,
  type TaskGroupEndsEvent,
  taskGroupEndsStream,
  type TaskGroupRunEnded,
  taskGroupStream,
  taskGroupView,
  Invalid,
  taskRunKind,
  taskRuns,
  type TaskRunState,
} from '@app/domain';
import { aggregateStream, EVENT_STORE, type EventStore, handleCommand, toDomainEvent } from '@app/eventstore';
import { conflict, notFound, RequestValidationError, tooManyRequests } from '@app/platform';
import { READ_STORE, type ReadStore, runCollection, TASK_GROUPS, type TaskGroupDoc, Collection } from '@app/readmodels';
import type { AuthContext } from '../auth/auth.context';
import { ServiceCalls } from '../commands/service-calls';
import { RunHttp } from '../runs/run-http';
import { GatewayDrain } from '../streams/drain';
import { LiveStreams } from '../streams/live-streams';
import { resumeAfter } from '../streams/run-stream';
import { openSse } from '../streams/sse-writer';
import type {
  TaskGroupCreateBody,
  TaskGroupEventsQuery,
  TaskGroupRunsBody,
  TaskGroupRunsQuery,
} from './task-groups.dto';

/** A group stream's status events come at most this often while its runs end (and once more at its end). */
const STATUS_EVERY_MS = 1_000;

/**
 * The id of a group's run by its number: one number always gives one id, so a request made
 * again with the same numbers finds the runs its first attempt made. UUID-shaped (version 8,
 * RFC 9562's custom kind) like every run id.
 */
export function groupRunId(idPrefix: string, taskgroupId: string, seq: number): string {
  const hex = createHash('sha256').update(`${taskgroupId}:${seq}`).digest('hex');
  const variant = ((parseInt(hex[16]!, 16) & 3) | 8).toString(16);
  return `${idPrefix}${hex.slice(0, 8)}-${hex.slice(8, 12)}-8${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/** Runs created at once while a request adds its inputs (each is one append on its own stream). */
const CREATE_CONCURRENCY = 8;

export type TaskGroupRunItem = TaskGroupRun;

const groups = new Collection<TaskGroupDoc>(TASK_GROUPS);

/** Runs `work` over `items`, `limit` at a time, the results in the items' order. */
async function inTurns<T, R>(
  items: readonly T[],
  limit: number,
  work: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < items.length; i = next++) results[i] = await work(items[i]!, i);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

/**
 * Task groups (API.md "Task groups"): the group's own state is folded from its stream (never a
 * read model a replica may lag on); its runs are ordinary task runs that name it, counted and
 * listed from the runs' read model. A group's runs wait in the group, not in the team's queue: they
 * do not count against MAX_QUEUED_RUNS_PER_TEAM, and the worker starts a team's single runs before
 * its group runs (libs/runs/src/scheduling.ts).
 */
@Injectable()
export class TaskGroups {
  constructor(
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(READ_STORE) private readonly reads: ReadStore,
    private readonly calls: ServiceCalls,
    private readonly runs: RunHttp,
    @Inject(CONFIG) private readonly config: Config,
    private readonly live: LiveStreams,
    private readonly drain: GatewayDrain,
  ) {}

  private async owned(auth: AuthContext, id: string): Promise<Exclude<TaskGroupState, { status: 'absent' }>> {
    const { state } = await aggregateStream(this.events, taskGroupStream(id), taskGroupDecider);
    if (state.status === 'absent' || state.team_id !== auth.team_id) throw notFound(`task group ${id} not found`);
    return state;
  }

  private async counts(id: string): Promise<TaskRunStatusCounts> {
    const collection = runCollection(taskRuns)!;
    const counted = await Promise.all(
      TASK_RUN_STATUS_KEYS.map((status) => collection.count(this.reads, { group_id: id, status })),
    );
    return Object.fromEntries(TASK_RUN_STATUS_KEYS.map((key, i) => [key, counted[i]!])) as TaskRunStatusCounts;
  }

  async view(auth: AuthContext, id: string): Promise<TaskGroupView> {
    const state = await this.owned(auth, id);
    return taskGroupView(state, await this.counts(id));
  }

  async create(auth: AuthContext, requestId: string, body: TaskGroupCreateBody): Promise<TaskGroupView> {
    const id = `${TASK_GROUP_ID_PREFIX}${randomUUID().replaceAll('-', '')}`;
    const { state, position } = await handleCommand(
      this.events,
      taskGroupStream(id),
      taskGroupDecider,
      {
        type: 'CreateTaskGroup',
        taskgroup_id: id,
        team_id: auth.team_id,
        key_id: auth.key_id,
        metadata: body.metadata ?? null,
        webhook: body.webhook ?? null,
      },
      {
        expectNew: true,
        metadata: { team_id: auth.team_id, key_id: auth.key_id, request_id: requestId, correlation_id: id },
      },
    );
    if (position !== undefined) await this.calls.readYourWrites(position);
    return taskGroupView(state, await this.counts(id));
  }

  /**
   * Adds a request's runs: the group takes them (numbered after its earlier ones, refused once it
   * is cancelled), then each is created as a task run naming the group and its number, with the
   * id that number gives. A request cut off between the two (the gateway stopped) leaves numbers
   * without runs; sent again with its Idempotency-Key (`batch`), it is given the same numbers and
   * makes the runs that are missing, and the ones there already are found, not made twice.
   */
  async addRuns(
    auth: AuthContext,
    requestId: string,
    id: string,
    body: TaskGroupRunsBody,
    batch?: string,
  ): Promise<{ run_ids: string[]; status: TaskGroupView['status'] }> {
    const group = await this.owned(auth, id);
    if (group.status === 'cancelled') throw conflict(`task group ${id} was cancelled: it takes no more runs`);
    // Every input checked as its run's request will be, before any is made: a bad one adds nothing.
    const defaults = body.default_task_spec ?? {};
    const inputs = body.inputs.map((input, i): TaskParams => {
      const params: TaskParams = {
        task: input.input,
        processor: input.processor ?? defaults.processor ?? 'core',
        output_schema: input.output_schema ?? defaults.output_schema ?? { type: 'auto' },
        metadata: input.metadata ?? null,
        webhook: null,
      };
      try {
        taskRunKind.validate(params);
      } catch (error) {
        if (!(error instanceof Invalid)) throw error;
        // The field its message names (task is the input's), else the input.
        const field = /^(processor|output_schema)\b/.exec(error.message)?.[1] ?? 'input';
        throw new RequestValidationError([
          {
            type: 'value_error',
            loc: ['body', 'inputs', i, field],
            msg: `Value error, ${error.message}`,
            input: input.input,
          },
        ]);
      }
      return params;
    });
    const waiting = await runCollection(taskRuns)!.count(this.reads, {
      team_id: auth.team_id,
      status: 'queued',
      group_id: { $ne: null },
    });
    if (waiting + body.inputs.length > MAX_GROUP_RUNS_QUEUED_PER_TEAM)
      throw tooManyRequests(
        5,
        {},
        `at most ${MAX_GROUP_RUNS_QUEUED_PER_TEAM} runs of a team's task groups may wait at once; ${waiting} wait and this adds ${body.inputs.length}: add them as these end`,
      );
    const added = await handleCommand(
      this.events,
      taskGroupStream(id),
      taskGroupDecider,
      { type: 'RecordRunsAdded', count: body.inputs.length, ...(batch !== undefined && { batch }) },
      { metadata: { team_id: auth.team_id, key_id: auth.key_id, request_id: requestId, correlation_id: id } },
    );
    const first =
      (added.events[0]?.data as { first_seq: number } | undefined)?.first_seq ??
      (added.state.status !== 'absent' && batch !== undefined ? added.state.batches[batch]?.first_seq : undefined);
    if (first === undefined) throw new Error(`task group ${id} recorded no numbers for ${body.inputs.length} runs`);
    const created = await inTurns(inputs, CREATE_CONCURRENCY, (params, i) =>
      this.runs.requestUnread(
        taskRuns,
        auth,
        requestId,
        { ...params, taskgroup_id: id, taskgroup_seq: first + i },
        groupRunId(taskRuns.idPrefix, id, first + i),
      ),
    );
    // One wait for the read models, for the last of them: the counts then hold every run added.
    await this.calls.readYourWrites(created.reduce((max, run) => (run.position > max ? run.position : max), -1n));
    return { run_ids: created.map((run) => run.id), status: (await this.view(auth, id)).status };
  }

  /** A page of the group's runs in the order they were added, after the cursor (a run's number). */
  async listRuns(
    auth: AuthContext,
    id: string,
    query: TaskGroupRunsQuery,
  ): Promise<{ runs: TaskGroupRunItem[]; next_cursor: string | null }> {
    await this.owned(auth, id);
    const after = query.after === undefined ? -1 : Number(query.after);
    if (!Number.isInteger(after)) throw notFound(`cursor ${query.after} is not one of this group's`);
    const docs = await runCollection(taskRuns)!.find(
      this.reads,
      { group_id: id, group_seq: { $gt: after }, ...(query.status && { status: query.status }) },
      { sort: { group_seq: 1 }, limit: query.limit + 1 },
    );
    const page = docs.slice(0, query.limit);
    const runs = page.map((doc) => {
      const state = doc.state as Exclude<TaskRunState, { status: 'absent' }>;
      const view = taskRuns.view(state);
      return {
        run_id: state.run_id,
        status: doc.status as TaskGroupRun['status'],
        created_at: state.requested_at,
        metadata: state.params.metadata,
        ...(query.include_input && { input: state.params.task }),
        ...(query.include_output && { output: view.output }),
      };
    });
    const last = page[page.length - 1];
    return { runs, next_cursor: docs.length > query.limit && last ? String(last.group_seq) : null };
  }

  /** The team's groups, newest first. */
  async list(auth: AuthContext, limit: number, offset: number): Promise<{ items: TaskGroupView[]; total: number }> {
    const filter = { team_id: auth.team_id };
    const [docs, total] = await Promise.all([
      groups.find(this.reads, filter, { sort: { created_at: -1, _id: -1 }, skip: offset, limit }),
      groups.count(this.reads, filter),
    ]);
    const items = await Promise.all(
      docs.map(async (doc) =>
        taskGroupView(doc.state, await this.counts((doc.state as { taskgroup_id: string }).taskgroup_id)),
      ),
    );
    return { items, total };
  }

  /** Cancels the group: it takes no more runs, and its queued and running runs are cancelled (ended ones kept). */
  async cancel(auth: AuthContext, requestId: string, id: string): Promise<TaskGroupView> {
    await this.owned(auth, id);
    await handleCommand(
      this.events,
      taskGroupStream(id),
      taskGroupDecider,
      { type: 'CancelTaskGroup' },
      { metadata: { team_id: auth.team_id, key_id: auth.key_id, request_id: requestId, correlation_id: id } },
    );
    const open = await runCollection(taskRuns)!.find(this.reads, {
      group_id: id,
      status: { $in: ['queued', 'running'] },
    });
    // Queued ones first (the many that wait), then the running.
    open.sort((a, b) => Number(a.status === 'running') - Number(b.status === 'running'));
    const positions = await inTurns(open, CREATE_CONCURRENCY, (doc) =>
      this.runs.cancelUnread(taskRuns, auth, requestId, doc._id).catch((error: unknown) => {
        // One that ended meanwhile cannot be cancelled: it keeps its end.
        if ((error as { status?: number }).status !== 409) throw error;
        return -1n;
      }),
    );
    await this.calls.readYourWrites(positions.reduce((max, p) => (p > max ? p : max), -1n));
    return this.view(auth, id);
  }

  /**
   * The group's server-sent events: a `task_group_status` event at once, then one `task_run.state`
   * event per run that ends, in the order the ends were recorded (the group's ends stream; its
   * revision is the event id, so a client resuming with Last-Event-ID gets each end exactly once),
   * with a `task_group_status` event at most every second and at the end. Open while the group
   * holds a run whose end is not yet recorded.
   */
  async sse(
    auth: AuthContext,
    id: string,
    requestId: string,
    lastEventId: string | undefined,
    query: TaskGroupEventsQuery,
    reply: FastifyReply,
  ): Promise<void> {
    await this.owned(auth, id);
    const after = resumeAfter(lastEventId);
    const release = this.live.take(auth.key_id);
    const sse = openSse(reply, requestId, this.config.streamKeepAliveSeconds);
    const until = AbortSignal.any([sse.gone, this.drain.streamsEnd]);
    const subscription = this.events.subscribeToStream(taskGroupEndsStream(id));
    const onAbort = () => void subscription.close();
    until.addEventListener('abort', onAbort, { once: true });
    // In the stream, a group is active until its last end was sent: the final status says it is
    // not (the client's cue to stop), with the read models caught up to that end.
    const status = async (final: bigint | 'final' | undefined = undefined) => {
      if (typeof final === 'bigint') await this.calls.readYourWrites(final);
      const view = await this.view(auth, id);
      view.status.is_active = final === undefined;
      await sse.write(
        `event: task_group_status\ndata: ${JSON.stringify({ type: 'task_group_status', status: view.status })}\n\n`,
      );
    };
    try {
      // The ends after `after` (all without one), then live ones, until every run the group holds
      // has its end recorded (runs added meanwhile are counted when that seems so).
      let held = (await this.owned(auth, id)).num_task_runs;
      if (held === 0) return await status('final');
      await status();
      let ends = taskGroupEndsDecider.initialState;
      let statusAt = Date.now();
      for await (const event of subscription) {
        ends = taskGroupEndsDecider.evolve(ends, toDomainEvent(event) as TaskGroupEndsEvent);
        if (event.type === 'TaskGroupRunEnded' && (after === undefined || event.revision > after)) {
          const ended = event.data as TaskGroupRunEnded['data'];
          const data = await this.runState(ended, query);
          await sse.write(`id: ${event.revision}\nevent: task_run.state\ndata: ${JSON.stringify(data)}\n\n`);
          if (Date.now() - statusAt >= STATUS_EVERY_MS) {
            statusAt = Date.now();
            await status();
          }
        }
        if (until.aborted) return;
        if (ends.ended_count >= held) {
          held = (await this.owned(auth, id)).num_task_runs;
          if (ends.ended_count >= held) return await status(event.position);
        }
      }
    } finally {
      until.removeEventListener('abort', onAbort);
      await subscription.close();
      release();
      sse.end(this.drain.streamsEnd.aborted);
    }
  }

  /** A `task_run.state` event's data: the run as it ended, its input and output when asked. */
  private async runState(ended: TaskGroupRunEnded['data'], query: TaskGroupEventsQuery) {
    const { state } = await aggregateStream(this.events, `${taskRuns.streamPrefix}${ended.run_id}`, taskRuns.decider);
    if (state.status === 'absent')
      return { type: 'task_run.state', run: { run_id: ended.run_id, status: ended.status } };
    const view = taskRuns.view(state);
    return {
      type: 'task_run.state',
      run: {
        run_id: ended.run_id,
        status: ended.status,
        is_active: false,
        created_at: state.requested_at,
        modified_at: ended.ended_at,
        metadata: state.params.metadata,
        error: view.error ?? null,
      },
      ...(query.include_input && { input: state.params.task }),
      ...(query.include_output && { output: view.output }),
    };
  }
}
