import { startHealthServer } from './health-server';

describe('startHealthServer', () => {
  it('answers /livez always, /readyz by the check (503 with the reason, or when it does not answer in time)', async () => {
    let state: 'ok' | 'down' | 'hang' = 'ok';
    const server = await startHealthServer(
      0,
      () =>
        state === 'ok'
          ? Promise.resolve()
          : state === 'down'
            ? Promise.reject(new Error('bus: no responders'))
            : new Promise(() => undefined),
      200,
    );
    const get = async (path: string, method = 'GET') => {
      const response = await fetch(`http://127.0.0.1:${server.port}${path}`, { method });
      return { status: response.status, body: (await response.json()) as Record<string, unknown> };
    };
    try {
      expect(await get('/livez')).toEqual({ status: 200, body: { status: 'ok' } });
      expect(await get('/readyz')).toEqual({ status: 200, body: { status: 'ready' } });
      state = 'down';
      expect(await get('/readyz')).toEqual({
        status: 503,
        body: { status: 'not_ready', detail: 'bus: no responders' },
      });
      state = 'hang';
      expect(await get('/readyz')).toEqual({
        status: 503,
        body: { status: 'not_ready', detail: 'not ready within 200 ms' },
      });
      expect((await get('/livez')).status).toBe(200);
      expect((await get('/other')).status).toBe(404);
      expect((await get('/readyz', 'POST')).status).toBe(405);
    } finally {
      await server.close();
    }
  });
});
