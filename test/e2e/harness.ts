import * as fs from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';
import { type FixtureWeb, fixtureSeeds, startFixtureWeb } from '../support/fixture-web';
import { bearer, type Mode, type RunningService, startService } from '../support/service-process';

/**
 * One running service (a mode) and the fixture web it may fetch, shared by the black-box suites
 * of a mode's e2e file. Every key and webhook secret a suite sees is registered in `secrets`;
 * after the suites, no log line of any process of the run may contain one.
 */
export interface E2eContext {
  svc: RunningService;
  web: FixtureWeb;
  secrets: string[];
  /** A webhook receiver on loopback (allowed by FETCH_ALLOW_HOSTS): fails each delivery's first two attempts. */
  hookPort: number;
  hooks: { headers: http.IncomingHttpHeaders; body: string; status: number }[];
}

export const json = (response: Response): Promise<any> => response.json();

/** A call to the service as its demo key: `call('POST', '/v1/tasks', body)`. */
export const apiCall =
  (ctx: E2eContext) =>
  (method: string, route: string, body?: unknown): Promise<Response> =>
    fetch(`${ctx.svc.baseUrl}${route}`, {
      method,
      headers: { ...bearer(ctx.svc.demoKey), 'Content-Type': 'application/json' },
      ...(body !== undefined && { body: JSON.stringify(body) }),
    });

export function useService(mode: Mode, env: Record<string, string> = {}): E2eContext {
  const ctx = { secrets: [] as string[], hooks: [] } as unknown as E2eContext;
  let receiver: http.Server | undefined;
  beforeAll(
    async () => {
      ctx.web = await startFixtureWeb();
      const attempts = new Map<string, number>();
      receiver = http.createServer((req, res) => {
        let body = '';
        req.on('data', (chunk) => (body += chunk));
        req.on('end', () => {
          const id = String(req.headers['webhook-id']);
          const n = (attempts.get(id) ?? 0) + 1;
          attempts.set(id, n);
          const status = n <= 2 ? 500 : 204;
          ctx.hooks.push({ headers: req.headers, body, status });
          res.writeHead(status).end();
        });
      });
      await new Promise<void>((resolve) => receiver!.listen(0, '127.0.0.1', resolve));
      ctx.hookPort = (receiver.address() as AddressInfo).port;
      ctx.svc = await startService(mode, {
        FETCH_ALLOW_HOSTS: [...ctx.web.allowHosts, `127.0.0.1:${ctx.hookPort}`].join(','),
        LOCAL_INDEX_SEEDS: fixtureSeeds(ctx.web),
        WEBHOOK_BACKOFF_SECONDS: '1',
        ...env,
      });
      ctx.secrets.push(ctx.svc.demoKey, ctx.svc.demoWebhookSecret);
      // startService alone may wait 60 s for a cluster's processes to answer /readyz (two cores, another worker beside it).
    },
    mode === 'cluster' ? 120_000 : 60_000,
  );

  afterAll(async () => {
    await ctx.svc?.stop();
    await ctx.web?.stop();
    receiver?.close();
    if (!ctx.svc) return;
    // Outside the JSON logs, only the two first-boot lines print the demo credentials, by design.
    const leaks: string[] = [];
    let lines = 0;
    for (const file of ctx.svc.logFiles) {
      for (const line of fs.readFileSync(file, 'utf8').split('\n')) {
        if (!line) continue;
        lines++;
        if (/^Demo (API key|webhook secret): /.test(line)) continue;
        for (const secret of ctx.secrets) {
          const secretPart = secret.startsWith('wr_') ? secret.slice(16) : secret.slice(6);
          if (line.includes(secretPart)) leaks.push(`${path.basename(file)}: ${line.slice(0, 200)}`);
        }
      }
    }
    expect(lines).toBeGreaterThan(20);
    expect(ctx.secrets.length).toBeGreaterThanOrEqual(2);
    expect(leaks).toEqual([]);
  }, 30_000);
  return ctx;
}
