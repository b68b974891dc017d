import * as path from 'node:path';
import SwaggerParser from '@apidevtools/swagger-parser';
import { chargeDecider, chargeStream } from '@app/domain';
import { handleCommand, openSqliteEventStore, type SqliteEventStore } from '@app/eventstore';
import { bearer } from '../support/service-process';
import { type E2eContext, json } from './harness';

/**
 * The platform's HTTP black box, run against a mode (standalone: one process; cluster: one OS
 * process per service over a real NATS server). Everything goes through HTTP and the keys CLI;
 * charges are appended to the service's own sqlite log file, as a service would.
 */
export function platformSuite(ctx: E2eContext): void {
  describe(`platform over HTTP`, () => {
    let log: SqliteEventStore;
    const secrets = ctx.secrets;
    const svc = new Proxy({} as E2eContext['svc'], { get: (_, key) => ctx.svc[key as keyof E2eContext['svc']] });
    const get = (route: string, headers: Record<string, string> = {}) => fetch(`${svc.baseUrl}${route}`, { headers });
    const authed = (route: string, key = svc.demoKey) => get(route, bearer(key));

    const untilStatus = async (route: string, key: string, status: number, timeoutMs: number): Promise<number> => {
      const started = performance.now();
      for (;;) {
        if ((await authed(route, key)).status === status) return performance.now() - started;
        if (performance.now() - started > timeoutMs)
          throw new Error(`${route} did not answer ${status} within ${timeoutMs} ms`);
        await new Promise((r) => setTimeout(r, 10));
      }
    };

    const charge = (
      team: string,
      requestId: string,
      at: string,
      items: { sku: string; quantity: number; credits: number }[],
    ) =>
      handleCommand(
        log,
        chargeStream(team, requestId),
        chargeDecider,
        { type: 'Charge', team_id: team, request_id: requestId, items },
        { now: at },
      );

    beforeAll(() => {
      log = openSqliteEventStore(path.join(svc.dataDir, 'events.db'));
    });
    afterAll(async () => {
      await log?.close();
    });

    it('answers /v1/usage with the demo key', async () => {
      const response = await authed('/v1/usage');
      expect(response.status).toBe(200);
      const body = await json(response);
      expect(body).toEqual({
        from: expect.any(String),
        to: new Date().toISOString().slice(0, 10),
        total_credits: 0,
        days: [],
      });
      expect(response.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    });

    it('refuses a request without a key, a malformed key and an unknown key with 401', async () => {
      for (const headers of [
        {},
        { Authorization: 'Basic abc' },
        bearer('wr_notakey'),
        bearer(`wr_AAAAAAAAAAAA_${'a'.repeat(43)}`),
      ]) {
        const response = await get('/v1/usage', headers);
        expect(response.status).toBe(401);
        expect(response.headers.get('www-authenticate')).toBe('Bearer');
        expect(await response.json()).toEqual({ detail: expect.any(String) });
      }
    });

    it('answers a bad date with the pydantic 422 body', async () => {
      const response = await authed('/v1/usage?from=yesterday');
      expect(response.status).toBe(422);
      const body = await json(response);
      expect(body.detail).toHaveLength(1);
      expect(body.detail[0]).toMatchObject({ type: 'date_parsing', loc: ['query', 'from'], input: 'yesterday' });
      expect(typeof body.detail[0].msg).toBe('string');
      const reversed = await authed('/v1/usage?from=2026-02-01&to=2026-01-01');
      expect(reversed.status).toBe(422);
      expect((await json(reversed)).detail[0].loc).toEqual(['query', 'from']);
    });

    it('sums the team’s charges per day and SKU, and only its own', async () => {
      const other = await svc.keys('create', '--team', 'other-team', '--name', 'usage');
      expect(other.code).toBe(0);
      const otherKey = other.stdout.trim();
      secrets.push(otherKey);
      await charge('demo', 'req-a', '2026-03-01T10:00:00.000Z', [{ sku: 'sku_search', quantity: 1, credits: 1 }]);
      await charge('demo', 'req-b', '2026-03-01T23:59:00.000Z', [
        { sku: 'sku_search', quantity: 1, credits: 1 },
        { sku: 'sku_objective_rerank', quantity: 1, credits: 1 },
      ]);
      await charge('demo', 'req-c', '2026-03-03T08:00:00.000Z', [{ sku: 'sku_extract', quantity: 3, credits: 6 }]);
      // A retried request (same request id) is never charged twice.
      await charge('demo', 'req-c', '2026-03-03T08:00:05.000Z', [{ sku: 'sku_extract', quantity: 3, credits: 6 }]);
      await charge('other-team', 'req-a', '2026-03-01T12:00:00.000Z', [
        { sku: 'sku_search', quantity: 1, credits: 50 },
      ]);

      const route = '/v1/usage?from=2026-03-01&to=2026-03-31';
      await untilStatus(`/v1/usage/requests/req-c`, svc.demoKey, 200, 2000);
      const body = await json(await authed(route));
      expect(body).toEqual({
        from: '2026-03-01',
        to: '2026-03-31',
        total_credits: 9,
        days: [
          { date: '2026-03-01', sku: 'sku_objective_rerank', quantity: 1, credits: 1 },
          { date: '2026-03-01', sku: 'sku_search', quantity: 2, credits: 2 },
          { date: '2026-03-03', sku: 'sku_extract', quantity: 3, credits: 6 },
        ],
      });
      const narrowed = await json(await authed('/v1/usage?from=2026-03-02&to=2026-03-03'));
      expect(narrowed.total_credits).toBe(6);
      await untilStatus(route, otherKey, 200, 1000);
      expect((await json(await authed(route, otherKey))).total_credits).toBe(50);
    });

    it('shows one request’s charge, and 404 for another team’s request id', async () => {
      const own = await authed('/v1/usage/requests/req-b');
      expect(own.status).toBe(200);
      expect(await own.json()).toEqual({
        request_id: 'req-b',
        at: '2026-03-01T23:59:00.000Z',
        credits: 2,
        charges: 1,
        usage: [
          { sku: 'sku_search', quantity: 1, credits: 1 },
          { sku: 'sku_objective_rerank', quantity: 1, credits: 1 },
        ],
      });
      await charge('other-team', 'only-theirs', '2026-03-05T00:00:00.000Z', [
        { sku: 'sku_search', quantity: 1, credits: 1 },
      ]);
      const theirs = await authed('/v1/usage/requests/only-theirs');
      expect(theirs.status).toBe(404);
      expect(await theirs.json()).toEqual({ detail: expect.stringContaining('only-theirs') });
      const bad = await authed('/v1/usage/requests/bad%20id');
      expect(bad.status).toBe(422);
      expect((await json(bad)).detail[0]).toMatchObject({
        type: 'string_pattern_mismatch',
        loc: ['path', 'request_id'],
      });
    });

    it('accepts a CLI-created key within 1 s and refuses it within 1 s of revoke', async () => {
      const created = await svc.keys('create', '--team', 'acme', '--name', 'ci');
      expect(created.code).toBe(0);
      const key = created.stdout.trim();
      secrets.push(key);
      expect(created.stdout).toMatch(/^wr_[A-Za-z0-9]{12}_[A-Za-z0-9_-]{43}\n$/);
      expect(await untilStatus('/v1/usage', key, 200, 1000)).toBeLessThan(1000);

      const keyId = key.slice(3, 15);
      const listed = await svc.keys('list', '--team', 'acme');
      expect(listed.stdout).toMatch(new RegExp(`^${keyId} active \\d{4}-\\d\\d-\\d\\dT\\S+ ci$`, 'm'));
      expect(listed.stdout).not.toContain(key.slice(16));

      expect((await svc.keys('revoke', keyId)).code).toBe(0);
      expect(await untilStatus('/v1/usage', key, 401, 1000)).toBeLessThan(1000);
      expect((await svc.keys('list', '--team', 'acme')).stdout).toMatch(new RegExp(`^${keyId} revoked `, 'm'));
      const unknown = await svc.keys('revoke', 'AAAAAAAAAAAA');
      expect(unknown.code).toBe(1);
      expect(unknown.stderr).toContain('AAAAAAAAAAAA');
    });

    it('rotates a key: both work during the overlap, then only the new one', async () => {
      const first = (await svc.keys('create', '--team', 'rotating')).stdout.trim();
      secrets.push(first);
      await untilStatus('/v1/usage', first, 200, 1000);
      // The overlap outlasts the CLI calls below on a loaded machine (each starts a node process).
      const rotated = await svc.keys('rotate', first.slice(3, 15), '--overlap', '8s');
      expect(rotated.code).toBe(0);
      const second = rotated.stdout.trim();
      secrets.push(second);
      await untilStatus('/v1/usage', second, 200, 1000);
      expect((await authed('/v1/usage', first)).status).toBe(200);
      expect((await svc.keys('list', '--team', 'rotating')).stdout).toMatch(
        new RegExp(`^${first.slice(3, 15)} expiring `, 'm'),
      );
      await untilStatus('/v1/usage', first, 401, 12_000);
      expect((await authed('/v1/usage', second)).status).toBe(200);
    });

    it('makes webhook secrets with the CLI and prints only the secret', async () => {
      const made = await svc.keys('webhook-secret', '--team', 'acme');
      expect(made.code).toBe(0);
      expect(made.stdout).toMatch(/^whsec_[A-Za-z0-9+/]+=*\n$/);
      secrets.push(made.stdout.trim());
      const usage = await svc.keys('frobnicate');
      expect(usage.code).toBe(2);
      expect(usage.stderr).toContain('usage:');
      // A flag the command does not take is refused, named, and nothing is made.
      const before = (await svc.keys('list', '--team', 'acme')).stdout;
      const unknownFlag = await svc.keys('create', '--team', 'acme', '--max-spend', '50');
      expect(unknownFlag.code).toBe(2);
      expect(unknownFlag.stdout).toBe('');
      expect(unknownFlag.stderr).toContain(
        'keys create does not take --max-spend (it takes --team, --name, --max-credits, --per)',
      );
      expect((await svc.keys('list', '--team', 'acme')).stdout).toBe(before);
      const onRevoke = await svc.keys('revoke', 'AAAAAAAAAAAA', '--team', 'acme');
      expect(onRevoke.code).toBe(2);
      expect(onRevoke.stderr).toContain('keys revoke does not take --team (it takes no flag)');
    });

    it('echoes a safe X-Request-Id and replaces an unsafe one', async () => {
      const echoed = await get('/v1/usage', { ...bearer(svc.demoKey), 'X-Request-Id': 'client-req.42' });
      expect(echoed.headers.get('x-request-id')).toBe('client-req.42');
      const replaced = await get('/healthz', { 'X-Request-Id': 'bad id with spaces' });
      expect(replaced.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    });

    it('serves health, readiness, metrics and a valid OpenAPI document without a key', async () => {
      expect(await json(await get('/healthz'))).toEqual({ status: 'ok' });
      const ready = await json(await get('/readyz'));
      expect(ready.status).toBe('ready');
      if (svc.env.MONGO_URL) {
        // Read models in MongoDB: the projector service keeps them, the gateway projects nothing itself.
        expect(ready.checks.projector).toBeUndefined();
        expect(ready.checks.bus.projector).toMatchObject({ ok: true });
      } else expect(ready.checks.projector).toMatchObject({ ok: true, status: 'live' });
      expect(Object.keys(ready.checks.bus).sort()).toEqual([
        'extraction',
        'findall',
        'monitors',
        'projector',
        'research',
        'search',
        'webhooks',
      ]);
      expect((await authed('/v1/usage')).status).toBe(200);
      const metrics = await (await get('/metrics')).text();
      expect(metrics).toMatch(/http_requests_total\{[^}]*route="\/v1\/usage"[^}]*status="200"[^}]*\} \d+/);
      const openapi = await json(await get('/v1/openapi.json'));
      expect(openapi.info.version).toBe('1.0.0');
      await SwaggerParser.validate(structuredClone(openapi));
      expect(openapi.paths['/v1/usage'].get.responses).toHaveProperty('422');
      // Only what the HTTP API uses: no bus message classes (an empty SearchRequest beside the real SearchBody).
      expect(Object.keys(openapi.components.schemas)).toEqual(
        expect.arrayContaining(['SearchBody', 'SearchRunViewDto', 'FindAllRun', 'Monitor', 'ErrorDetail']),
      );
      expect(Object.keys(openapi.components.schemas)).not.toContain('SearchRequest');
      const text = JSON.stringify(openapi);
      for (const name of Object.keys(openapi.components.schemas))
        expect(text).toContain(`"#/components/schemas/${name}"`);
      const unknown = await authed('/v1/nowhere');
      expect(unknown.status).toBe(404);
      expect(await unknown.json()).toEqual({ detail: 'Not Found' });
    });
  });
}
