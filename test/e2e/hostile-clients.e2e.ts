import * as net from 'node:net';
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
      routes: [{ path: '/search', delayMs: 3_500, respond: (req) => ({ body: { query: String(req.query.q ?? ''), number_of_results: 0, results: [], answers: [], corrections: [], infoboxes: [], suggestions: [], unresponsive_engines: [] } }) }],
    });
    svc = await startService('standalone', {
      HEADERS_TIMEOUT_MS: '1000',
      REQUEST_READ_TIMEOUT_MS: '2000',
      SEARCH_PROVIDER: 'searxng',
      SEARXNG_URL: searxng.url,
      SEARXNG_RPS: '0',
      LOG_LEVEL: 'warn',
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
    const { answer } = await hold('POST /v1/search HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000000\r\n\r\n{"objective":', 3_000);
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
    const response = await fetch(`${svc.baseUrl}/v1/search`, { method: 'POST', headers: { ...bearer(svc.demoKey), 'Content-Type': 'application/json' }, body: JSON.stringify({ queries: ['anything at all'], depth: 'fast' }) });
    expect(response.status).toBe(200);
    expect(searxng.requests.length).toBeGreaterThan(0);
  });
});
