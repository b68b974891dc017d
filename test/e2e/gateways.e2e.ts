import { startFixtureWeb, type FixtureWeb } from '../support/fixture-web';
import type { ReplayServer } from '../support/replay-server';
import { bearer, type RunningService, startService } from '../support/service-process';
import { startSlowSearxng, searxngEnv } from '../support/slow-searxng';
import { json } from './harness';

jest.setTimeout(120_000);

interface Frame {
  id: number;
  event: string;
}

/**
 * Reads a run's SSE stream from `url` (resuming after `lastId` when given) until `until` says
 * stop or the stream ends or breaks; returns the frames with an id.
 */
async function readStream(
  url: string,
  key: string,
  lastId: number | undefined,
  until: (frames: Frame[]) => boolean,
): Promise<Frame[]> {
  const frames: Frame[] = [];
  const controller = new AbortController();
  try {
    const response = await fetch(url, {
      headers: {
        ...bearer(key),
        Accept: 'text/event-stream',
        ...(lastId !== undefined && { 'Last-Event-ID': String(lastId) }),
      },
      signal: controller.signal,
    });
    const reader = response.body!.getReader();
    const decoder = new TextDecoder();
    let buffer = '';
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      buffer += decoder.decode(value, { stream: true });
      let cut: number;
      while ((cut = buffer.indexOf('\n\n')) >= 0) {
        const block = buffer.slice(0, cut);
        buffer = buffer.slice(cut + 2);
        const id = /^id: (\d+)$/m.exec(block)?.[1];
        const event = /^event: (.+)$/m.exec(block)?.[1];
        if (id !== undefined && event) frames.push({ id: Number(id), event });
      }
      if (until(frames)) break;
    }
  } catch {
    // The gateway serving the stream was killed: what arrived is what the client has.
  } finally {
    controller.abort();
  }
  return frames;
}

const ended = (frames: Frame[]) => frames.some((f) => /^run\.(completed|failed|cancelled)$/.test(f.event));

/**
 * Two gateways (cluster, REPLICAS=gateway=2: PORT and PORT + 1), as pods behind a load balancer:
 * any gateway serves any run and its live stream, because streams and read models come from the
 * event log, not from the process that took the POST.
 */
describe('gateway replicas (cluster, REPLICAS=gateway=2)', () => {
  let web: FixtureWeb;
  let stub: ReplayServer;
  let svc: RunningService;
  let other: string;

  beforeAll(async () => {
    web = await startFixtureWeb();
    stub = await startSlowSearxng(web, 300);
    svc = await startService('cluster', {
      REPLICAS: 'gateway=2',
      ...searxngEnv(stub, web),
    });
    const url = new URL(svc.baseUrl);
    url.port = String(Number(url.port) + 1);
    other = url.toString().replace(/\/$/, '');
    // startService waits for every gateway replica's /readyz (test/support/service-process.ts).
  }, 120_000);
  afterAll(async () => {
    await svc?.stop();
    await stub?.close();
    await web?.stop();
  });

  const gatewayPid = (port: number) => svc.gatewayPids().get(port);

  it('two gateway processes serve the same API', async () => {
    const first = gatewayPid(Number(new URL(svc.baseUrl).port));
    const second = gatewayPid(Number(new URL(other).port));
    expect(first).toEqual(expect.any(Number));
    expect(second).toEqual(expect.any(Number));
    expect(first).not.toBe(second);
  });

  it('a run started through one gateway streams live from the other; a client whose gateway is killed resumes on the other with Last-Event-ID, losing and repeating nothing', async () => {
    const headers = { ...bearer(svc.demoKey), 'Content-Type': 'application/json' };
    const run = await json(
      await fetch(`${svc.baseUrl}/v1/search`, {
        method: 'POST',
        headers,
        body: JSON.stringify({
          depth: 'deep',
          queries: ['battery', 'robot', 'solar'],
          max_subqueries: 6,
          max_fetches: 12,
        }),
      }),
    );
    expect(run.search_id).toEqual(expect.any(String));
    const path = `/v1/searches/${run.search_id}/events`;

    // Live on the gateway that took the POST, until a few events have arrived; then that gateway dies.
    const victim = gatewayPid(Number(new URL(svc.baseUrl).port))!;
    const before = readStream(
      `${svc.baseUrl}${path}`,
      svc.demoKey,
      undefined,
      (frames) => frames.length >= 3 || ended(frames),
    );
    const head = await before;
    // Mid-run: the stream is cut before its end.
    expect(head.length).toBeGreaterThanOrEqual(3);
    expect(ended(head)).toBe(false);
    process.kill(victim, 'SIGKILL');

    // The client reconnects to the other gateway, resuming after the last id it saw.
    const last = head[head.length - 1].id;
    const tail = await readStream(`${other}${path}`, svc.demoKey, last, ended);
    expect(tail.length).toBeGreaterThan(0);
    const seen = [...head, ...tail];
    expect(ended(seen)).toBe(true);
    expect(tail.every((f) => f.id > last)).toBe(true);

    // The whole stream, read afresh from the second gateway: the client saw exactly it.
    const whole = await readStream(`${other}${path}`, svc.demoKey, undefined, ended);
    expect(seen.map((f) => f.id)).toEqual(whole.map((f) => f.id));
    expect(seen.map((f) => f.event)).toEqual(whole.map((f) => f.event));
    const view = await json(await fetch(`${other}/v1/searches/${run.search_id}`, { headers }));
    expect(view.status).toBe('completed');
  });
});
