import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { EventSource } from 'eventsource';
import { startFixtureWeb, type FixtureWeb } from '../support/fixture-web';
import type { ReplayServer } from '../support/replay-server';
import { PUBLIC_NAMES, TERMINAL } from '../e2e/runs.blackbox';
import { bearer, type RunningService, startService } from '../support/service-process';
import { startSlowSearxng, searxngEnv } from '../support/slow-searxng';

/**
 * `npm run test:faults`: a rolling restart under load, two replicas of every service and of the
 * gateway, as Kubernetes runs a deployment's update. Each service replica is stopped (SIGTERM)
 * and started again in turn, then each gateway replica, while clients keep calling through a load
 * balancer and follow runs over SSE. Promised: no request fails (the bus drains a stopping
 * replica: it answers what it took, the other replica takes the rest), every request in flight at
 * a gateway's stop is answered, and every live stream on a stopped gateway comes back through the
 * balancer to the other one with Last-Event-ID and gets every event exactly once, in order.
 *
 * The balancer is the test's stand-in for a Kubernetes Service: round robin over the gateways
 * whose /readyz answers 200 (polled every 100 ms), a connection refused tried on the other one.
 */
jest.setTimeout(600_000);

const SERVICES = ['search', 'research', 'extraction', 'findall', 'webhooks', 'monitors'];
const REPLICAS = [...SERVICES, 'gateway'].map((service) => `${service}=2`).join(',');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** The balancer: forwards each request whole to a ready gateway, streaming the answer back. */
async function startBalancer(ports: number[]) {
  const ready = new Map<number, boolean>(ports.map((port) => [port, false]));
  const agent = new http.Agent({ keepAlive: true });
  let next = 0;
  const poll = setInterval(() => {
    for (const port of ports)
      void fetch(`http://127.0.0.1:${port}/readyz`, { signal: AbortSignal.timeout(1_000) }).then(
        (r) => ready.set(port, r.status === 200),
        () => ready.set(port, false),
      );
  }, 100);
  const pick = () => {
    const up = ports.filter((port) => ready.get(port));
    return up.length ? up[next++ % up.length] : undefined;
  };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => forward(Buffer.concat(chunks), 0));
    function forward(body: Buffer, attempt: number): void {
      const port = pick();
      if (port === undefined) {
        if (attempt < 100) return void setTimeout(() => forward(body, attempt + 1), 100);
        return void res.writeHead(502).end('no gateway ready');
      }
      const upstream = http.request(
        { host: '127.0.0.1', port, method: req.method, path: req.url, headers: req.headers, agent },
        (answer) => {
          res.writeHead(answer.statusCode!, answer.headers);
          answer.pipe(res);
        },
      );
      upstream.on('error', (error: NodeJS.ErrnoException) => {
        // Refused: nothing reached the gateway, so another may take it. Anything else is a failure.
        if (error.code === 'ECONNREFUSED' && !res.headersSent) {
          ready.set(port, false);
          return forward(body, attempt + 1);
        }
        res.destroy(error);
      });
      res.on('close', () => upstream.destroy());
      upstream.end(body);
    }
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    allReady: () => ports.every((port) => ready.get(port)),
    async close() {
      clearInterval(poll);
      agent.destroy();
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    },
  };
}

describe('rolling restart under load (cluster, two replicas of everything)', () => {
  let web: FixtureWeb;
  let searxng: ReplayServer;
  let svc: RunningService;
  let balancer: Awaited<ReturnType<typeof startBalancer>>;

  beforeAll(async () => {
    web = await startFixtureWeb();
    // Slow enough that a deep run is still streaming when its gateway stops.
    searxng = await startSlowSearxng(web, 2_500);
    svc = await startService('cluster', {
      ...searxngEnv(searxng, web, []),
      REPLICAS,
      RUN_LEASE_SECONDS: '3',
      MAX_CONCURRENT_RUNS_PER_TEAM: '100',
      SHUTDOWN_DELAY_SECONDS: '1',
    });
    const port = Number(new URL(svc.baseUrl).port);
    balancer = await startBalancer([port, port + 1]);
    for (const deadline = Date.now() + 60_000; !balancer.allReady(); await sleep(100))
      if (Date.now() > deadline) throw new Error('the gateways did not become ready');
  });
  // A failed case leaves its load running: it ends here, before the cluster stops.
  let ending = false;
  afterAll(async () => {
    ending = true;
    await balancer?.close();
    await svc?.stop();
    await searxng?.close();
    await web?.stop();
  });

  const headers = () => ({ ...bearer(svc.demoKey), 'Content-Type': 'application/json' });
  const outcomes: Array<{ route: string; status: number; error?: string }> = [];
  const runs: string[] = [];
  const post = async (route: string, body: unknown) => {
    try {
      const response = await fetch(`${balancer.url}${route}`, {
        method: 'POST',
        headers: headers(),
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(60_000),
      });
      const json = (await response.json().catch(() => ({}))) as Record<string, any>;
      outcomes.push({ route, status: response.status });
      return { status: response.status, json };
    } catch (error) {
      outcomes.push({ route, status: 0, error: (error as Error).message });
      return { status: 0, json: {} as Record<string, any> };
    }
  };
  const deepRun = async () => {
    const r = await post('/v1/search', {
      depth: 'deep',
      queries: ['battery', 'tram'],
      max_subqueries: 2,
      max_fetches: 4,
    });
    if (r.status === 202) runs.push(r.json.search_id);
    return r.status === 202 ? (r.json.search_id as string) : undefined;
  };

  async function client(n: number, stop: () => boolean): Promise<void> {
    for (let i = 0; !stop(); i++) {
      const pick = (i + n) % 4;
      if (pick === 0) await deepRun();
      else if (pick === 1)
        await post('/v1/extract', { urls: [web.urls()[(i * 7 + n) % web.urls().length]], objective: 'what it makes' });
      else await post('/v1/search', { depth: 'instant', queries: [`rolling ${n} ${i}`] });
      await sleep(30);
    }
  }

  /**
   * Follows a run over SSE: first on the gateway at `port` (as if the balancer had sent it there),
   * then, each time the stream ends before the run did, back through the balancer with
   * Last-Event-ID. Every frame, how many times it connected, and when it ended.
   */
  function follow(
    runId: string,
    port: number,
  ): Promise<{ frames: Array<{ id: string; event: string }>; connections: number; endedAt: number }> {
    return new Promise((resolve, reject) => {
      const frames: Array<{ id: string; event: string }> = [];
      let connections = 0;
      let requests = 0;
      const path = `/v1/searches/${runId}/events`;
      // The first request goes to the gateway at `port`, every later one through the balancer.
      const source = new EventSource(`${balancer.url}${path}`, {
        fetch: (input, init) =>
          fetch(requests++ === 0 ? `http://127.0.0.1:${port}${path}` : input, {
            ...init,
            headers: { ...(init?.headers as Record<string, string>), ...bearer(svc.demoKey) },
          }),
      });
      const errors: string[] = [];
      source.onopen = () => connections++;
      source.onerror = (event) =>
        void errors.push(
          `${Date.now()}: ${(event as { code?: number }).code ?? ''} ${(event as { message?: string }).message ?? ''} state ${source.readyState}`,
        );
      // On a timeout, everything needed to tell a run that did not end from a stream that lost it.
      const timer = setTimeout(() => {
        source.close();
        const last = frames[frames.length - 1];
        void fetch(`${balancer.url}/v1/searches/${runId}`, { headers: bearer(svc.demoKey) })
          .then((r) => r.json() as Promise<{ status?: string }>)
          .catch((error: Error) => ({ status: `unknown (${error.message})` }))
          .then((view) =>
            reject(
              new Error(
                `run ${runId} (status now ${view.status}): no end on its stream within 120 s (${connections} connections, ${frames.length} frames, last ${last?.event ?? 'none'} ${last?.id ?? ''}; errors: ${errors.join('; ') || 'none'})`,
              ),
            ),
          );
      }, 120_000);
      for (const name of PUBLIC_NAMES)
        source.addEventListener(name, (message) => {
          frames.push({ id: message.lastEventId, event: name });
          if (TERMINAL.has(name)) {
            clearTimeout(timer);
            source.close();
            resolve({ frames, connections, endedAt: Date.now() });
          }
        });
    });
  }

  /** Stops one process with SIGTERM and waits for the supervisor's replacement and a ready cluster. */
  async function restartOne(service: string, pid: number): Promise<void> {
    const before = svc.servicePidHistory(service).length;
    process.kill(pid, 'SIGTERM');
    const deadline = Date.now() + 60_000;
    while (alive(pid) || svc.servicePidHistory(service).length <= before || !balancer.allReady()) {
      if (Date.now() > deadline) throw new Error(`${service} (pid ${pid}) was not replaced within 60 s`);
      await sleep(100);
    }
    await sleep(1_000);
  }

  it('restarts every replica in turn with no failed request, and streams resume on the other gateway', async () => {
    let stopped = false;
    const load = Promise.all([0, 1, 2].map((n) => client(n, () => stopped || ending)));
    await sleep(2_000);

    const restarted: string[] = [];
    for (const service of SERVICES) {
      const pids = svc.servicePidHistory(service).filter(alive);
      expect(pids).toHaveLength(2);
      for (const pid of pids) await restartOne(service, pid);
      restarted.push(service);
    }

    // Each gateway in turn, with runs being followed over SSE through the balancer.
    const followed: Array<{ stopped: number; stream: Promise<Awaited<ReturnType<typeof follow>>> }> = [];
    for (const [port, gateway] of [...svc.gatewayPids()]) {
      const mine: Array<Promise<Awaited<ReturnType<typeof follow>>>> = [];
      for (let i = 0; i < 3; i++) {
        const id = await deepRun();
        if (id) mine.push(follow(id, port));
      }
      const stopped = Date.now();
      followed.push(...mine.map((stream) => ({ stopped, stream })));
      await restartOne('gateway', gateway);
    }
    stopped = true;
    await load;
    const streams = await Promise.all(followed.map((f) => f.stream));
    // A stream still open when its gateway's live streams ended (SHUTDOWN_DELAY_SECONDS after the stop) came back.
    const open = streams.filter((s, i) => s.endedAt > followed[i]!.stopped + 1_000);

    const failed = outcomes.filter((o) => o.status === 0 || o.status >= 500);
    expect(failed).toEqual([]);
    for (const { frames } of streams) {
      const ids = frames.map((f) => f.id);
      expect(new Set(ids).size).toBe(ids.length);
      for (let i = 1; i < ids.length; i++) expect(BigInt(ids[i]!)).toBeGreaterThan(BigInt(ids[i - 1]!));
      expect(frames[0]!.event).toBe('run.queued');
      expect(TERMINAL.has(frames[frames.length - 1]!.event)).toBe(true);
    }
    const resumed = streams.filter((s) => s.connections > 1).length;
    expect(open.length).toBeGreaterThan(0);
    expect(open.filter((s) => s.connections < 2)).toEqual([]);

    // Every run the API accepted ends.
    for (const id of runs) {
      let view: Record<string, any> = {};
      for (const deadline = Date.now() + 120_000; Date.now() < deadline; await sleep(500)) {
        view = (await (await fetch(`${balancer.url}/v1/searches/${id}`, { headers: headers() })).json()) as Record<
          string,
          any
        >;
        if (['completed', 'failed', 'cancelled'].includes(view.status)) break;
      }
      expect({ id, status: view.status }).toEqual({
        id,
        status: expect.stringMatching(/^(completed|failed|cancelled)$/),
      });
    }
    console.log(
      `[rolling] ${restarted.length} services x 2 replicas and 2 gateways restarted in turn; ${outcomes.length} requests, failed 0; ${streams.length} SSE streams followed on the gateway then stopped, ${open.length} still open at its stop, ${resumed} resumed on the other gateway with Last-Event-ID, each event once and in order; ${runs.length} runs, all ended`,
    );
  });
});
