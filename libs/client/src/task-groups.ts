import { endpoint } from './endpoints';
import { PagePromise, type PageQuery, pageOf } from './pagination';
import { followGroup, type GroupEvent, type StreamOptions } from './run-stream';
import type { RequestOptions, Transport } from './transport';
import type { QueryOf, RequestBody, ResponseOf, TaskGroup, TaskGroupRun } from './types';

export type TaskGroupRunsQuery = Omit<QueryOf<'TaskGroupsController_listRuns'>, 'after'>;
export type TaskGroupEventsQuery = Pick<QueryOf<'TaskGroupsController_events'>, 'include_input' | 'include_output'>;

/**
 * Task groups: many task runs made and followed together (`POST /v1/tasks/groups`, then up to
 * 1,000 inputs a call with `addRuns`). Their runs wait in the group and run as room frees.
 */
export class TaskGroups {
  constructor(private readonly transport: Transport) {}

  create(body: RequestBody<'TaskGroupsController_create'> = {}, options?: RequestOptions): Promise<TaskGroup> {
    return this.transport.json({ ...endpoint('post', '/v1/tasks/groups'), body, options });
  }

  retrieve(id: string, options?: RequestOptions): Promise<TaskGroup> {
    return this.transport.json({ ...endpoint('get', '/v1/tasks/groups/{id}', { id }), options });
  }

  /** The team's groups, newest first: `await` it for a page, `for await` over it for every group. */
  list(query: PageQuery = {}, options?: RequestOptions): PagePromise<TaskGroup> {
    return new PagePromise(query, (q) =>
      pageOf<TaskGroup>(this.transport, endpoint('get', '/v1/tasks/groups').path, 'items', q, options),
    );
  }

  /** Adds 1 to 1,000 runs (202 `{run_ids, status}`); a bad input is a 422 naming its index, and none is added. */
  addRuns(
    id: string,
    body: RequestBody<'TaskGroupsController_addRuns'>,
    options?: RequestOptions,
  ): Promise<ResponseOf<'TaskGroupsController_addRuns'>> {
    return this.transport.json({ ...endpoint('post', '/v1/tasks/groups/{id}/runs', { id }), body, options });
  }

  /** The group's runs in the order added, each page after the last (`for await` over every run). */
  async *runs(id: string, query: TaskGroupRunsQuery = {}, options?: RequestOptions): AsyncGenerator<TaskGroupRun> {
    let after: string | null | undefined;
    do {
      const page = (await this.transport.json({
        ...endpoint('get', '/v1/tasks/groups/{id}/runs', { id }),
        query: { ...query, ...(after ? { after } : {}) },
        options,
      })) as { runs: TaskGroupRun[]; next_cursor: string | null };
      yield* page.runs;
      after = page.next_cursor;
    } while (after);
  }

  /** Cancels its queued and running runs (ended ones are kept); it takes no more. */
  cancel(id: string, options?: RequestOptions): Promise<TaskGroup> {
    return this.transport.json({ ...endpoint('post', '/v1/tasks/groups/{id}/cancel', { id }), options });
  }

  /**
   * The group's events as they happen: `task_group_status` (no id) and one `task_run.state` per
   * run that ends, to the status that says it is no longer active. Reconnects after a drop with
   * `Last-Event-ID`, so each run's end comes once.
   */
  stream(id: string, query: TaskGroupEventsQuery = {}, options?: StreamOptions): AsyncGenerator<GroupEvent> {
    const search = new URLSearchParams(
      Object.entries(query).flatMap(([key, value]): [string, string][] =>
        value === undefined ? [] : [[key, String(value)]],
      ),
    ).toString();
    const path = endpoint('get', '/v1/tasks/groups/{id}/events', { id }).path;
    return followGroup(this.transport, search ? `${path}?${search}` : path, options);
  }
}
