import {
  APIConnectionError,
  APIError,
  APITimeoutError,
  AuthenticationError,
  BadRequestError,
  BudgetExceededError,
  ConflictError,
  InternalServerError,
  NotFoundError,
  PermissionDeniedError,
  RateLimitError,
  UnprocessableEntityError,
} from './errors';
import { loopback, reply } from './testing/loopback';
import { backoffMs, retryAfterMs, Transport } from './transport';

const KEY = 'wr_abcdefghijkl_secret';
const transport = (url: string, options: Partial<ConstructorParameters<typeof Transport>[0]> = {}) =>
  new Transport({ baseURL: url, apiKey: KEY, ...options });
const servers: Array<{ close(): Promise<void> }> = [];
const serve = async (...args: Parameters<typeof loopback>) => {
  const server = await loopback(...args);
  servers.push(server);
  return server;
};
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

describe('Transport against a loopback HTTP server', () => {
  it('sends the key, JSON body and a generated Idempotency-Key on a POST; none on a GET; a /v1 base is accepted', async () => {
    const server = await serve(reply(200, { ok: 1 }));
    const client = transport(`${server.url}/v1/`);
    await expect(client.json({ method: 'POST', path: '/v1/search', body: { queries: ['a'] } })).resolves.toEqual({
      ok: 1,
    });
    await client.json({ method: 'POST', path: '/v1/search', body: { queries: ['a'] } });
    await client.json({ method: 'GET', path: '/v1/usage', query: { from: '2026-01-01', to: undefined } });
    const [first, second, get] = server.seen;
    expect(first!.url).toBe('/v1/search');
    expect(first!.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(first!.headers['content-type']).toBe('application/json');
    expect(JSON.parse(first!.body)).toEqual({ queries: ['a'] });
    expect(first!.headers['idempotency-key']).toMatch(/^[!-~]{1,255}$/);
    expect(second!.headers['idempotency-key']).not.toBe(first!.headers['idempotency-key']);
    expect(get!.url).toBe('/v1/usage?from=2026-01-01');
    expect(get!.headers['idempotency-key']).toBeUndefined();
  });

  it('retries a 429 after its Retry-After with the same Idempotency-Key, and answers the retry', async () => {
    const server = await serve(
      reply(429, { detail: 'Rate limit exceeded' }, { 'Retry-After': '1' }),
      reply(200, { search_id: 's1' }),
    );
    await expect(transport(server.url).json({ method: 'POST', path: '/v1/search', body: {} })).resolves.toEqual({
      search_id: 's1',
    });
    expect(server.seen).toHaveLength(2);
    expect(server.seen[1]!.at - server.seen[0]!.at).toBeGreaterThanOrEqual(950);
    expect(server.seen[1]!.headers['idempotency-key']).toBe(server.seen[0]!.headers['idempotency-key']);
  });

  it('retries a 503 without Retry-After after a backoff, up to maxRetries, then throws the 503 as an APIError', async () => {
    const server = await serve(reply(503, { detail: 'search did not answer in time' }));
    const error = (await transport(server.url, { maxRetries: 2 })
      .json({ method: 'POST', path: '/v1/search', body: {}, options: { idempotencyKey: 'mine-1' } })
      .catch((e: unknown) => e)) as APIError;
    expect(error).toBeInstanceOf(APIError);
    expect(error.status).toBe(503);
    expect(error.detail).toBe('search did not answer in time');
    expect(error.requestId).toBe('req-503');
    expect(server.seen.map((s) => s.headers['idempotency-key'])).toEqual(['mine-1', 'mine-1', 'mine-1']);
    // Backoff: 3/4 to all of 500 ms, then of 1 s.
    expect(server.seen[1]!.at - server.seen[0]!.at).toBeGreaterThanOrEqual(370);
    expect(server.seen[2]!.at - server.seen[1]!.at).toBeGreaterThanOrEqual(740);
  });

  it('throws at once when Retry-After is beyond maxRetryDelay (the wait is bounded)', async () => {
    const server = await serve(reply(429, { detail: 'Rate limit exceeded' }, { 'Retry-After': '120' }), reply(200, {}));
    const started = Date.now();
    const error = (await transport(server.url, { maxRetryDelay: 5_000 })
      .json({ method: 'GET', path: '/v1/usage' })
      .catch((e: unknown) => e)) as APIError;
    expect(error.status).toBe(429);
    expect(server.seen).toHaveLength(1);
    expect(Date.now() - started).toBeLessThan(1_000);
  });

  it('retries a 409 that says when (Retry-After: the same key still being answered); throws one that does not', async () => {
    const busy = await serve(
      reply(409, { detail: 'A request with this Idempotency-Key is still being processed' }, { 'Retry-After': '0' }),
      reply(200, { replayed: true }),
    );
    await expect(transport(busy.url).json({ method: 'POST', path: '/v1/tasks', body: {} })).resolves.toEqual({
      replayed: true,
    });
    expect(busy.seen[1]!.headers['idempotency-key']).toBe(busy.seen[0]!.headers['idempotency-key']);
    const state = await serve(
      reply(409, { detail: 'Search run s1 is completed; it cannot be cancelled' }),
      reply(200, {}),
    );
    const error = (await transport(state.url)
      .json({ method: 'POST', path: '/v1/searches/s1/cancel' })
      .catch((e: unknown) => e)) as APIError;
    expect(error.status).toBe(409);
    expect(error.detail).toBe('Search run s1 is completed; it cannot be cancelled');
    expect(state.seen).toHaveLength(1);
  });

  it('throws a 422 at once as an APIError whose detail is the service list', async () => {
    const issues = [
      {
        type: 'too_short',
        loc: ['body', 'queries'],
        msg: 'List should have at least 1 item after validation, not 0',
        input: [],
        ctx: { min_length: 1 },
      },
    ];
    const server = await serve(reply(422, { detail: issues }, { 'X-Request-Id': 'abc-422' }));
    const error = (await transport(server.url)
      .json({ method: 'POST', path: '/v1/search', body: { queries: [] } })
      .catch((e: unknown) => e)) as APIError;
    expect(error).toBeInstanceOf(APIError);
    expect(error.status).toBe(422);
    expect(error.detail).toEqual(issues);
    expect(error.requestId).toBe('abc-422');
    expect(error.message).toBe(
      '422 body.queries: List should have at least 1 item after validation, not 0 (request abc-422)',
    );
    expect(server.seen).toHaveLength(1);
  });

  it.each([
    [400, BadRequestError],
    [401, AuthenticationError],
    [402, BudgetExceededError],
    [403, PermissionDeniedError],
    [404, NotFoundError],
    [409, ConflictError],
    [422, UnprocessableEntityError],
    [429, RateLimitError],
    [500, InternalServerError],
    [502, InternalServerError],
  ] as const)('throws a %d as its own APIError subclass', async (status, ErrorClass) => {
    const server = await serve(reply(status, { detail: `refused with ${status}` }));
    const error = await transport(server.url, { maxRetries: 0 })
      .json({ method: 'GET', path: '/v1/usage' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ErrorClass);
    expect(error).toBeInstanceOf(APIError);
    expect(error).toMatchObject({ status, detail: `refused with ${status}`, name: ErrorClass.name });
  });

  it('keeps an unusual status as a plain APIError', async () => {
    const server = await serve(reply(418, { detail: 'a teapot' }));
    const error = await transport(server.url)
      .json({ method: 'GET', path: '/v1/usage' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(APIError);
    expect((error as APIError).name).toBe('APIError');
  });

  it('keeps the status of an error body that is not the service JSON (a proxy page)', async () => {
    const server = await serve((_req, res) =>
      res.writeHead(502, 'Bad Gateway', { 'Content-Type': 'text/html' }).end('<html>bad gateway</html>'),
    );
    const error = (await transport(server.url)
      .json({ method: 'GET', path: '/v1/usage' })
      .catch((e: unknown) => e)) as APIError;
    expect(error.status).toBe(502);
    expect(error.detail).toBe('Bad Gateway');
    expect(error.body).toBe('<html>bad gateway</html>');
    expect(error.requestId).toBeUndefined();
  });

  it('answers undefined for a 204', async () => {
    const server = await serve((_req, res) => res.writeHead(204).end());
    await expect(transport(server.url).json({ method: 'DELETE', path: '/v1/monitors/m1' })).resolves.toBeUndefined();
  });

  it('gives up after timeout ms with an APITimeoutError (no retry)', async () => {
    const server = await serve(() => undefined);
    const started = Date.now();
    const error = await transport(server.url, { timeout: 300 })
      .json({ method: 'GET', path: '/v1/usage' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(APITimeoutError);
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(server.seen).toHaveLength(1);
  });

  it('retries a connection dropped before an answer, then throws an APIConnectionError', async () => {
    const server = await serve((req) => req.socket.destroy());
    const error = await transport(server.url, { maxRetries: 1 })
      .json({ method: 'POST', path: '/v1/extract', body: {} })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(APIConnectionError);
    expect(error).not.toBeInstanceOf(APITimeoutError);
    expect(server.seen).toHaveLength(2);
    expect(server.seen[1]!.headers['idempotency-key']).toBe(server.seen[0]!.headers['idempotency-key']);
  });

  it("stops waiting for a retry when the caller's signal aborts", async () => {
    const server = await serve(reply(503, { detail: 'busy' }, { 'Retry-After': '30' }));
    const controller = new AbortController();
    const started = Date.now();
    setTimeout(() => controller.abort(new Error('caller gave up')), 200);
    await expect(
      transport(server.url).json({ method: 'GET', path: '/v1/usage', options: { signal: controller.signal } }),
    ).rejects.toThrow('caller gave up');
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(server.seen).toHaveLength(1);
  });

  it('sends nothing when the signal is already aborted', async () => {
    const server = await serve(reply(200, {}));
    await expect(
      transport(server.url).json({
        method: 'GET',
        path: '/v1/usage',
        options: { signal: AbortSignal.abort(new Error('already gone')) },
      }),
    ).rejects.toThrow('already gone');
    expect(server.seen).toHaveLength(0);
  });

  it('refuses options out of bounds, naming the option and the bound', () => {
    expect(() => transport('http://127.0.0.1:1', { maxRetries: -1 })).toThrow(
      'maxRetries must be a number from 0 to 10, got -1',
    );
    expect(() => transport('http://127.0.0.1:1', { timeout: 0 })).toThrow(
      'timeout must be a number from 1 to 3600000, got 0',
    );
    expect(() => new Transport({ baseURL: 'http://127.0.0.1:1', apiKey: '' })).toThrow('apiKey is required');
  });
});

describe('retryAfterMs and backoffMs', () => {
  it('reads delta-seconds and HTTP dates; ignores what it cannot read', () => {
    const now = Date.parse('2026-11-26T12:00:00Z');
    expect(retryAfterMs('3', now)).toBe(3_000);
    expect(retryAfterMs('Thu, 26 Nov 2026 12:00:05 GMT', now)).toBe(5_000);
    expect(retryAfterMs('Thu, 26 Nov 2026 11:00:00 GMT', now)).toBe(0);
    expect(retryAfterMs('soon', now)).toBeUndefined();
    expect(retryAfterMs(null, now)).toBeUndefined();
  });

  it('doubles per attempt with jitter, capped at 8 s', () => {
    expect(backoffMs(0, () => 0)).toBe(375);
    expect(backoffMs(0, () => 1)).toBe(500);
    expect(backoffMs(2, () => 1)).toBe(2_000);
    expect(backoffMs(10, () => 1)).toBe(8_000);
  });
});
