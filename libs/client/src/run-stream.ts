import { APIConnectionError, APIError } from './errors';
import { readSse } from './sse';
import { backoffMs, type RequestOptions, sleep, type Transport } from './transport';

/** One event of a run's stream: `id` is its revision in the run's stream (increasing, with gaps). */
export interface RunEvent<T = unknown> {
  id: string;
  event: string;
  data: T;
}

/** One event of a task group's stream: a run's end has an `id` (resume after it); a status has none. */
export interface GroupEvent<T = unknown> {
  id?: string;
  event: string;
  data: T;
}

export interface StreamOptions extends Pick<RequestOptions, 'signal' | 'headers' | 'maxRetries' | 'timeout'> {
  /** Start after this event id (a stream read before); default: from the run's first event. */
  lastEventId?: string;
  /** Reconnections in a row without a new event before the stream gives up (default 5). */
  maxReconnects?: number;
  /** No byte for this long (ms) counts as a dropped connection (default 60000; the service sends a keep-alive every 15 s). */
  idleTimeout?: number;
}

/** The events after which the service closes a run's stream. */
export const TERMINAL_EVENTS: ReadonlySet<string> = new Set(['run.completed', 'run.failed', 'run.cancelled']);

/** Whether event id `a` comes after `b` (revisions are 64-bit: compared as BigInt, never as Number). */
const isAfter = (a: string, b: string | undefined): boolean =>
  b === undefined || !/^\d+$/.test(a) || !/^\d+$/.test(b) || BigInt(a) > BigInt(b);

/**
 * A run's server-sent events from `path`, to the terminal event, each once and in order. A
 * connection that drops (or falls silent past `idleTimeout`) before the terminal event is opened
 * again with `Last-Event-ID` set to the last event received, so the service resumes after it; an
 * event seen before is skipped should it come again. An error answer (404, 401) is thrown as it is.
 */
export function followRun(transport: Transport, path: string, options: StreamOptions = {}): AsyncGenerator<RunEvent> {
  return follow(
    transport,
    path,
    options,
    (event) => TERMINAL_EVENTS.has(event.event),
    false,
  ) as AsyncGenerator<RunEvent>;
}

/**
 * A task group's server-sent events from `path` (`task_group_status` and `task_run.state`), each
 * run's end once, to the status that says the group is no longer active. A dropped connection is
 * opened again after the last run end received, as `followRun` does; statuses (no id) are passed
 * on as they come.
 */
export function followGroup(
  transport: Transport,
  path: string,
  options: StreamOptions = {},
): AsyncGenerator<GroupEvent> {
  return follow(
    transport,
    path,
    options,
    (event) =>
      event.event === 'task_group_status' &&
      (event.data as { status?: { is_active?: boolean } } | null)?.status?.is_active === false,
    true,
  );
}

async function* follow(
  transport: Transport,
  path: string,
  options: StreamOptions,
  terminal: (event: GroupEvent) => boolean,
  passUnidentified: boolean,
): AsyncGenerator<GroupEvent> {
  let last = options.lastEventId;
  const maxReconnects = options.maxReconnects ?? 5;
  const idleMs = options.idleTimeout ?? 60_000;
  let failures = 0;
  for (;;) {
    let cause: unknown;
    try {
      const headers = { ...options.headers, ...(last !== undefined ? { 'Last-Event-ID': last } : {}) };
      const opened = await transport.open({
        method: 'GET',
        path,
        accept: 'text/event-stream',
        options: { ...options, headers },
      });
      try {
        for await (const frame of readSse(opened.response.body!, { idleMs, onIdle: opened.abort })) {
          if (frame.id === undefined) {
            if (!passUnidentified) continue;
          } else {
            if (!isAfter(frame.id, last)) continue;
            last = frame.id;
            failures = 0;
          }
          const event = {
            ...(frame.id !== undefined && { id: frame.id }),
            event: frame.event,
            data: parseData(frame.data),
          };
          yield event;
          if (terminal(event)) return;
        }
      } finally {
        opened.abort();
      }
    } catch (error) {
      if (error instanceof APIError || options.signal?.aborted) throw error;
      cause = error;
    }
    // Ended (or failed) before the terminal event: a dropped connection.
    if (++failures > maxReconnects) {
      throw new APIConnectionError(
        `${path}: the stream dropped ${failures} times in a row without a new event (last event ${last ?? 'none'})`,
        { cause },
      );
    }
    await sleep(backoffMs(failures - 1), options.signal);
  }
}

const parseData = (data: string): unknown => {
  try {
    return JSON.parse(data);
  } catch {
    return data;
  }
};
