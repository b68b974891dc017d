import type * as http from 'node:http';
import { APIConnectionError, APIError } from './errors';
import { followRun, type RunEvent } from './run-stream';
import { type Handler, loopback, reply } from './testing/loopback';
import { Transport } from './transport';

// Revisions past 2^53: compared as numbers they would collide.
const EVENTS = [
  { id: '9007199254740991', event: 'run.started', data: { n: 1 } },
  { id: '9007199254740993', event: 'plan.created', data: { n: 2 } },
  { id: '9007199254740995', event: 'page.fetched', data: { n: 3 } },
  { id: '9007199254741000', event: 'finding.graded', data: { n: 4 } },
  { id: '9007199254741002', event: 'run.completed', data: { n: 5 } },
];
const frame = (e: (typeof EVENTS)[number]) => `id: ${e.id}\nevent: ${e.event}\ndata: ${JSON.stringify(e.data)}\n\n`;
const open = (res: http.ServerResponse) =>
  res.writeHead(200, { 'Content-Type': 'text/event-stream' }).write(': connected\n\n');
const after = (req: http.IncomingMessage) => {
  const last = req.headers['last-event-id'];
  return EVENTS.filter((e) => last === undefined || BigInt(e.id) > BigInt(String(last)));
};
/** Serves the events after Last-Event-ID, stopping after `count` of them: `drop` destroys the socket, `end` closes cleanly, `hang` goes silent. */
const serveEvents =
  (count: number, then: 'drop' | 'end' | 'hang' | 'finish', repeatLast?: string): Handler =>
  (req, res) => {
    open(res);
    if (repeatLast) res.write(frame(EVENTS.find((e) => e.id === repeatLast)!));
    const events = after(req);
    for (const e of events.slice(0, count)) res.write(frame(e));
    if (then === 'drop') setTimeout(() => req.socket.destroy(), 20);
    else if (then === 'end' || then === 'finish') res.end();
  };

const servers: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});
async function run(handlers: Handler[], options: Parameters<typeof followRun>[2] = {}) {
  const server = await loopback(...handlers);
  servers.push(server);
  const transport = new Transport({ baseURL: server.url, apiKey: 'wr_abcdefghijkl_secret', maxRetries: 0 });
  const got: RunEvent[] = [];
  const done = (async () => {
    for await (const event of followRun(transport, '/v1/searches/s1/events', options)) got.push(event);
  })();
  return { server, got, done };
}

describe('followRun against a loopback SSE server', () => {
  it('resumes after a dropped connection with Last-Event-ID: every event once, in order, to the terminal one', async () => {
    const last = EVENTS[1]!.id;
    const { server, got, done } = await run([serveEvents(2, 'drop'), serveEvents(99, 'finish', last)]);
    await done;
    expect(got).toEqual(EVENTS);
    expect(server.seen.map((s) => s.headers['last-event-id'])).toEqual([undefined, last]);
    expect(server.seen[0]!.headers.accept).toBe('text/event-stream');
  });

  it('reconnects when the stream ends cleanly before the terminal event', async () => {
    const { server, got, done } = await run([serveEvents(1, 'end'), serveEvents(2, 'end'), serveEvents(99, 'finish')]);
    await done;
    expect(got.map((e) => e.id)).toEqual(EVENTS.map((e) => e.id));
    expect(server.seen.map((s) => s.headers['last-event-id'])).toEqual([undefined, EVENTS[0]!.id, EVENTS[2]!.id]);
  });

  it('counts a silent connection past idleTimeout as dropped and resumes', async () => {
    const { server, got, done } = await run([serveEvents(3, 'hang'), serveEvents(99, 'finish')], { idleTimeout: 200 });
    await done;
    expect(got).toEqual(EVENTS);
    expect(server.seen[1]!.headers['last-event-id']).toBe(EVENTS[2]!.id);
  });

  it('starts after lastEventId when given one', async () => {
    const { got, done } = await run([serveEvents(99, 'finish')], { lastEventId: EVENTS[2]!.id });
    await done;
    expect(got).toEqual(EVENTS.slice(3));
  });

  it('gives up after maxReconnects drops in a row without a new event', async () => {
    const { server, done } = await run([serveEvents(0, 'drop')], { maxReconnects: 2 });
    await expect(done).rejects.toThrow(APIConnectionError);
    await expect(done).rejects.toThrow('dropped 3 times in a row without a new event (last event none)');
    expect(server.seen).toHaveLength(3);
  });

  it('throws an error answer (404) as it is, without reconnecting', async () => {
    const { server, done } = await run([reply(404, { detail: 'Search run s1 not found' })]);
    const error = (await done.catch((e: unknown) => e)) as APIError;
    expect(error).toBeInstanceOf(APIError);
    expect(error.status).toBe(404);
    expect(error.detail).toBe('Search run s1 not found');
    expect(server.seen).toHaveLength(1);
  });

  it('closes the connection when the caller stops reading early', async () => {
    let closed!: () => void;
    const gone = new Promise<void>((resolve) => (closed = resolve));
    const server = await loopback((req, res) => {
      open(res);
      res.write(frame(EVENTS[0]!));
      req.socket.once('close', () => closed());
    });
    servers.push(server);
    const transport = new Transport({ baseURL: server.url, apiKey: 'wr_abcdefghijkl_secret' });
    for await (const event of followRun(transport, '/v1/searches/s1/events')) {
      expect(event.id).toBe(EVENTS[0]!.id);
      break;
    }
    await gone;
    expect(server.seen).toHaveLength(1);
  });
});
