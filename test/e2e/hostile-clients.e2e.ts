import * as net from 'node:net';
import WebSocket from 'ws';
import { bearer, type RunningService, startService } from '../support/service-process';
import { ReplayServer } from '../support/replay-server';

jest.setTimeout(120_000);

/**
 * Clients that hold what they can: slow headers, a body that never comes, a body sent to a keyed
 * route without a key. The service runs with short read deadlines (1 s for headers, 2 s for a
 * whole request) and a SearXNG stand-in that takes 3.5 s, so a slow handler shows those
 * deadlines do not cut the service's own time.
 */
describe('hostile clients', () => {
  let svc: RunningService;
  let searxng: ReplayServer;

  beforeAll(async () => {
    searxng = await ReplayServer.start({
      routes: [
        {
          path: '/search',
          delayMs: 3_500,
          respond: async (req) => {
            const query = String(req.query.q ?? '');
            // The task run whose streams the live-stream tests hold searches 4 s longer (7.5 s in all,
            // within the adapter's 10 s): on a slow machine a run of 3.5 s searches could end, and
            // its streams with it, before those tests had counted them.
            if (query !== 'anything at all') await new Promise((resolve) => setTimeout(resolve, 4_000));
            return {
              body: {
                query,
                number_of_results: 0,
                results: [],
                answers: [],
                corrections: [],
                infoboxes: [],
                suggestions: [],
                unresponsive_engines: [],
              },
            };
          },
        },
      ],
    });
    svc = await startService('standalone', {
      HEADERS_TIMEOUT_MS: '1000',
      REQUEST_READ_TIMEOUT_MS: '2000',
      SEARCH_PROVIDER: 'searxng',
      SEARXNG_URL: searxng.url,
      SEARXNG_RPS: '0',
      LOG_LEVEL: 'warn',
      LIVE_STREAMS_PER_KEY: '3',
      WS_MAX_MESSAGE_BYTES: '1024',
    });
  });
  afterAll(async () => {
    await svc?.stop();
    await searxng?.close();
  });

  /** Opens a raw connection, writes `first`, and reports what came back and when the server closed it. */
  const hold = (first: string, waitMs: number): Promise<{ answer: string; closedAfterMs: number | null }> =>
    new Promise((resolve) => {
      const { port, hostname } = new URL(svc.baseUrl);
      const started = performance.now();
      const socket = net.connect(Number(port), hostname, () => socket.write(first));
      let answer = '';
      let closedAfterMs: number | null = null;
      socket.on('data', (chunk) => (answer += chunk.toString('latin1')));
      socket.on('error', () => undefined);
      socket.on('close', () => {
        closedAfterMs ??= performance.now() - started;
        clearTimeout(timer);
        resolve({ answer, closedAfterMs });
      });
      const timer = setTimeout(() => {
        socket.destroy();
        resolve({ answer, closedAfterMs });
      }, waitMs);
    });

  it('closes a connection whose headers do not arrive within HEADERS_TIMEOUT_MS', async () => {
    const { closedAfterMs, answer } = await hold('GET /healthz HTTP/1.1\r\nHost: x\r\n', 6_000);
    expect(closedAfterMs).not.toBeNull();
    expect(closedAfterMs!).toBeLessThan(4_000);
    expect(answer === '' || answer.startsWith('HTTP/1.1 408')).toBe(true);
    expect((await fetch(`${svc.baseUrl}/healthz`)).status).toBe(200);
  });

  it('answers 401 to a body sent to a keyed route without a key, before reading the body', async () => {
    const { answer } = await hold(
      'POST /v1/search HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000000\r\n\r\n{"objective":',
      3_000,
    );
    expect(answer).toMatch(/^HTTP\/1\.1 401/);
    expect(answer).toContain('"detail":"Not authenticated"');
  });

  it('gives up a request whose body does not arrive within REQUEST_READ_TIMEOUT_MS, key or not', async () => {
    const { closedAfterMs, answer } = await hold(
      `POST /v1/search HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${svc.demoKey}\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"objective":`,
      8_000,
    );
    expect(closedAfterMs).not.toBeNull();
    expect(closedAfterMs!).toBeLessThan(5_000);
    expect(answer === '' || answer.startsWith('HTTP/1.1 408')).toBe(true);
  });

  it('does not count the handler’s own time: a search whose provider takes 3.5 s answers 200', async () => {
    const response = await fetch(`${svc.baseUrl}/v1/search`, {
      method: 'POST',
      headers: { ...bearer(svc.demoKey), 'Content-Type': 'application/json' },
      body: JSON.stringify({ queries: ['anything at all'], depth: 'fast' }),
    });
    expect(response.status).toBe(200);
    expect(searxng.requests.length).toBeGreaterThan(0);
  });

  describe('live streams per key (LIVE_STREAMS_PER_KEY=3)', () => {
    const headers = () => ({ ...bearer(svc.demoKey), 'Content-Type': 'application/json' });
    let runId: string;
    const open: AbortController[] = [];
    // The open streams' responses, kept reachable: fetch cancels the body of a response that is
    // garbage collected, which would close a held stream (and free its place) mid-test.
    const responses: Response[] = [];

    beforeAll(async () => {
      // A task run that takes a while: every search it makes waits 3.5 s.
      const response = await fetch(`${svc.baseUrl}/v1/tasks/runs`, {
        method: 'POST',
        headers: headers(),
        body: JSON.stringify({ task: 'Who makes the slowest searches?', processor: 'ultra' }),
      });
      expect(response.status).toBe(202);
      runId = ((await response.json()) as { run_id: string }).run_id;
    });
    afterAll(() => {
      for (const controller of open) controller.abort();
    });

    const sse = async () => {
      const controller = new AbortController();
      const response = await fetch(`${svc.baseUrl}/v1/tasks/runs/${runId}/events`, {
        headers: bearer(svc.demoKey),
        signal: controller.signal,
      });
      if (response.status === 200) {
        open.push(controller);
        responses.push(response);
        return { status: 200, body: null, retryAfter: null, controller };
      }
      return {
        status: response.status,
        body: (await response.json()) as { detail: string },
        retryAfter: response.headers.get('retry-after'),
        controller,
      };
    };
    const socket = (path = `/v1/tasks/runs/${runId}/ws`) =>
      new Promise<{ status: number; ws?: WebSocket }>((resolve) => {
        const ws = new WebSocket(`${svc.baseUrl.replace('http', 'ws')}${path}`, { headers: bearer(svc.demoKey) });
        ws.on('unexpected-response', (_request, response) => resolve({ status: response.statusCode ?? 0 }));
        ws.on('open', () => resolve({ status: 101, ws }));
        ws.on('error', () => undefined);
      });

    it('holds three streams, and answers a fourth (SSE, WebSocket, a monitor run’s wait, a chat) 429 naming the bound', async () => {
      const held = [await sse(), await sse(), await sse()];
      expect(held.map((h) => h.status)).toEqual([200, 200, 200]);
      const fourth = await sse();
      expect(fourth.status).toBe(429);
      expect(fourth.body!.detail).toMatch(/at most 3 live streams .* per API key \(LIVE_STREAMS_PER_KEY\)/);
      expect(fourth.retryAfter).toBe('1');
      expect((await socket()).status).toBe(429);
      const monitor = (await (
        await fetch(`${svc.baseUrl}/v1/monitors`, {
          method: 'POST',
          headers: headers(),
          body: JSON.stringify({ query: 'slow searches', cadence: 'daily' }),
        })
      ).json()) as { id: string };
      const run = await fetch(`${svc.baseUrl}/v1/monitors/${monitor.id}/run`, { method: 'POST', headers: headers() });
      expect(run.status).toBe(429);
      const chat = await fetch(`${svc.baseUrl}/v1/chat/completions`, {
        method: 'POST',
        headers: headers(),
        body: JSON.stringify({ model: 'base', messages: [{ role: 'user', content: 'hello?' }] }),
      });
      expect(chat.status).toBe(429);
      // A create-and-wait answers 202 at once instead of waiting: its run exists already.
      const started = performance.now();
      const waited = await fetch(`${svc.baseUrl}/v1/tasks`, {
        method: 'POST',
        headers: headers(),
        body: JSON.stringify({ task: 'Anything slow?', wait_seconds: 30 }),
      });
      expect(waited.status).toBe(202);
      expect(performance.now() - started).toBeLessThan(5_000);

      // One closed: a new one is taken.
      held[0]!.controller.abort();
      let again = await sse();
      for (let i = 0; again.status === 429 && i < 50; i++) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        again = await sse();
      }
      expect(again.status).toBe(200);
    });

    it('closes a WebSocket whose client sends a message over WS_MAX_MESSAGE_BYTES with 1009, or a bad frame with 1002, and serves on', async () => {
      for (const controller of open.splice(0)) controller.abort();
      responses.length = 0;
      await new Promise((resolve) => setTimeout(resolve, 200));
      const { status, ws } = await socket();
      expect(status).toBe(101);
      const closed = new Promise<number>((resolve) => ws!.on('close', (code) => resolve(code)));
      ws!.send(JSON.stringify({ resume_from: 0, padding: 'x'.repeat(4_096) }));
      expect(await closed).toBe(1009);
      // A frame no WebSocket may send (reserved opcode 3): closed with 1002, and the service serves on.
      const bad = await socket();
      expect(bad.status).toBe(101);
      const closedBad = new Promise<number>((resolve) => bad.ws!.on('close', (code) => resolve(code)));
      (bad.ws as unknown as { _socket: net.Socket })._socket.write(Buffer.from([0x83, 0x80, 1, 2, 3, 4]));
      expect(await closedBad).toBe(1002);
      expect((await fetch(`${svc.baseUrl}/healthz`)).status).toBe(200);
      // Their streams are given back: three SSE streams fit again.
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect([(await sse()).status, (await sse()).status, (await sse()).status]).toEqual([200, 200, 200]);
    });
  });

  describe('what a team holds at once: queued runs and monitors (MAX_QUEUED_RUNS_PER_TEAM=2, MAX_MONITORS_PER_TEAM=2)', () => {
    let small: RunningService;
    beforeAll(async () => {
      small = await startService('standalone', {
        SEARCH_PROVIDER: 'searxng',
        SEARXNG_URL: searxng.url,
        SEARXNG_RPS: '0',
        LOG_LEVEL: 'warn',
        MAX_CONCURRENT_RUNS_PER_TEAM: '1',
        MAX_QUEUED_RUNS_PER_TEAM: '2',
        MAX_MONITORS_PER_TEAM: '2',
      });
    });
    afterAll(async () => {
      await small?.stop();
    });
    const post = (route: string, body: unknown) =>
      fetch(`${small.baseUrl}${route}`, {
        method: 'POST',
        headers: { ...bearer(small.demoKey), 'Content-Type': 'application/json' },
        body: JSON.stringify(body),
      });

    it('queues two runs behind the running one, and answers a third 429 naming the bound; nothing is created for it', async () => {
      const statuses: number[] = [];
      // One starts (its searches take 3.5 s each), then two wait.
      statuses.push((await post('/v1/tasks/runs', { task: 'first slow task', processor: 'ultra' })).status);
      for (let i = 0; i < 50; i++) {
        const list = (await (
          await fetch(`${small.baseUrl}/v1/tasks?status=running`, { headers: bearer(small.demoKey) })
        ).json()) as { total: number };
        if (list.total === 1) break;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      statuses.push(
        (await post('/v1/tasks/runs', { task: 'second' })).status,
        (await post('/v1/findall/runs', { query: 'third', limit: 5 })).status,
      );
      expect(statuses).toEqual([202, 202, 202]);
      const refused = await post('/v1/search', { queries: ['fourth'], depth: 'deep' });
      expect(refused.status).toBe(429);
      expect(((await refused.json()) as { detail: string }).detail).toMatch(
        /at most 2 runs of a team may wait in the queue at once \(MAX_QUEUED_RUNS_PER_TEAM\); 2 are queued/,
      );
      const searches = (await (
        await fetch(`${small.baseUrl}/v1/searches`, { headers: bearer(small.demoKey) })
      ).json()) as { total: number };
      expect(searches.total).toBe(0);
    });

    it('refuses a cron more frequent than MONITOR_MIN_INTERVAL_MINUTES (422 naming the field), and a third monitor (429 naming the bound)', async () => {
      const everyMinute = await post('/v1/monitors', { query: 'q', cron: '* * * * *' });
      expect(everyMinute.status).toBe(422);
      expect(((await everyMinute.json()) as { detail: unknown[] }).detail[0]).toMatchObject({
        loc: ['body', 'cron'],
        msg: expect.stringContaining('at most every 15 minutes (MONITOR_MIN_INTERVAL_MINUTES)'),
      });
      expect((await post('/v1/monitors', { query: 'q', cron: '*/15 * * * *' })).status).toBe(201);
      expect((await post('/v1/monitors', { query: 'q', cadence: 'hourly' })).status).toBe(201);
      const third = await post('/v1/monitors', { query: 'q', cadence: 'daily' });
      expect(third.status).toBe(429);
      expect(((await third.json()) as { detail: string }).detail).toMatch(
        /at most 2 monitors may be held by a team \(MAX_MONITORS_PER_TEAM\)/,
      );
      const list = (await (await fetch(`${small.baseUrl}/v1/monitors`, { headers: bearer(small.demoKey) })).json()) as {
        monitors: Array<{ id: string }>;
      };
      expect(list.monitors).toHaveLength(2);
      // A patch to a too-frequent cron is refused the same way.
      const patch = await fetch(`${small.baseUrl}/v1/monitors/${list.monitors[0]!.id}`, {
        method: 'PATCH',
        headers: { ...bearer(small.demoKey), 'Content-Type': 'application/json' },
        body: JSON.stringify({ cron: '0,5 * * * *' }),
      });
      expect(patch.status).toBe(422);
      // A cron that never runs (February 31st) is refused on its field, not a 500 when the view names its next run.
      const never = await fetch(`${small.baseUrl}/v1/monitors/${list.monitors[0]!.id}`, {
        method: 'PATCH',
        headers: { ...bearer(small.demoKey), 'Content-Type': 'application/json' },
        body: JSON.stringify({ cron: '0 0 31 2 *' }),
      });
      expect(never.status).toBe(422);
      expect(((await never.json()) as { detail: unknown[] }).detail[0]).toMatchObject({
        loc: ['body', 'cron'],
        msg: expect.stringContaining('never runs'),
      });
    });
  });
});
