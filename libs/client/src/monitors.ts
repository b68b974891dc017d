import { pageOf, PagePromise, type PageQuery } from './pagination';
import { endpoint } from './endpoints';
import type { RequestOptions, Transport } from './transport';
import type { History, Monitor, MonitorBody, MonitorEvent, MonitorPatchBody } from './types';

/** Monitors: a query (or a page) watched on a cadence, each run an event, notified by signed webhook. */
export class Monitors {
  constructor(private readonly transport: Transport) {}

  /** Creates a monitor (201) of a `query`, or of a page (`url`: each run reads it live and diffs its main content); `webhook_secret` is write-only. */
  create(body: MonitorBody, options?: RequestOptions): Promise<Monitor> {
    return this.transport.json({ ...endpoint('post', '/v1/monitors'), body, options });
  }

  /** The team's monitors: `await` it for a page, `for await` over it for every monitor. */
  list(query: PageQuery & { status?: 'active' | 'paused' } = {}, options?: RequestOptions): PagePromise<Monitor> {
    return new PagePromise(query, (q) =>
      pageOf<Monitor>(this.transport, endpoint('get', '/v1/monitors').path, 'monitors', q, options),
    );
  }

  retrieve(id: string, options?: RequestOptions): Promise<Monitor> {
    return this.transport.json({ ...endpoint('get', '/v1/monitors/{monitor_id}', { monitor_id: id }), options });
  }

  /** A partial update; `webhook_secret: null` clears the secret. */
  update(id: string, body: MonitorPatchBody, options?: RequestOptions): Promise<Monitor> {
    return this.transport.json({
      ...endpoint('patch', '/v1/monitors/{monitor_id}', { monitor_id: id }),
      body,
      options,
    });
  }

  /** Deletes the monitor (its history stays in the event log). */
  async delete(id: string, options?: RequestOptions): Promise<void> {
    await this.transport.json({ ...endpoint('delete', '/v1/monitors/{monitor_id}', { monitor_id: id }), options });
  }

  pause(id: string, options?: RequestOptions): Promise<Monitor> {
    return this.transport.json({ ...endpoint('post', '/v1/monitors/{monitor_id}/pause', { monitor_id: id }), options });
  }

  resume(id: string, options?: RequestOptions): Promise<Monitor> {
    return this.transport.json({
      ...endpoint('post', '/v1/monitors/{monitor_id}/resume', { monitor_id: id }),
      options,
    });
  }

  /** Runs the monitor now (also when paused): the monitor event once recorded. */
  run(id: string, options?: RequestOptions): Promise<MonitorEvent> {
    return this.transport.json({ ...endpoint('post', '/v1/monitors/{monitor_id}/run', { monitor_id: id }), options });
  }

  /** The monitor's events, newest first: `await` it for a page, `for await` over it for every event. */
  events(id: string, query: PageQuery = {}, options?: RequestOptions): PagePromise<MonitorEvent> {
    return new PagePromise(query, (q) =>
      pageOf<MonitorEvent>(
        this.transport,
        endpoint('get', '/v1/monitors/{monitor_id}/events', { monitor_id: id }).path,
        'events',
        q,
        options,
      ),
    );
  }

  history(id: string, options?: RequestOptions): Promise<History> {
    return this.transport.json({
      ...endpoint('get', '/v1/monitors/{monitor_id}/history', { monitor_id: id }),
      options,
    });
  }
}
