import * as http from 'node:http';

export interface HealthServer {
  port: number;
  close(): Promise<void>;
}

/**
 * A bus service's probes over HTTP, for Kubernetes (`HEALTH_PORT`; the gateway has its own
 * /healthz and /readyz): GET /livez answers while the event loop does; GET /readyz runs `ready`
 * (bounded by `timeoutMs`) and answers 200, or 503 with the reason, so a pod whose bus or event
 * log stopped answering is taken out of rotation. Nothing else is served.
 */
export async function startHealthServer(
  port: number,
  ready: () => Promise<void>,
  timeoutMs = 2_000,
): Promise<HealthServer> {
  const server = http.createServer((request, response) => {
    const send = (status: number, body: Record<string, unknown>) => {
      response.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' });
      response.end(JSON.stringify(body));
    };
    if (request.method !== 'GET') return send(405, { detail: 'Method Not Allowed' });
    if (request.url === '/livez') return send(200, { status: 'ok' });
    if (request.url !== '/readyz') return send(404, { detail: 'Not Found' });
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`not ready within ${timeoutMs} ms`)), timeoutMs);
    });
    Promise.race([ready(), timeout])
      .then(
        () => send(200, { status: 'ready' }),
        (error: unknown) =>
          send(503, { status: 'not_ready', detail: error instanceof Error ? error.message : String(error) }),
      )
      .finally(() => clearTimeout(timer));
  });
  server.keepAliveTimeout = 5_000;
  // Probes never keep a draining process alive.
  server.unref();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, resolve);
  });
  const address = server.address();
  return {
    port: typeof address === 'object' && address ? address.port : port,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
