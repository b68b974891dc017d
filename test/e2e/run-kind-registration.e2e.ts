import * as fs from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { Webhook } from 'standardwebhooks';
import WebSocket from 'ws';
import { InProcessServer } from '@app/bus';
import { loadConfig } from '@app/config';
import { RUN_KINDS } from '@app/domain';
import { EVENT_STORE, type EventStore } from '@app/eventstore';
import { JsonLogger, createRootLogger } from '@app/platform/logging/logger';
import { SecretBox } from '@app/platform/secrets';
import { TeamAdmin } from '@app/platform/teams/team-admin';
import { createHttpApp } from '../../apps/gateway/src/http/create-http-app';
import { mountRunSockets } from '../../apps/gateway/src/streams/run-sockets';
import { StandaloneModule } from '../../apps/standalone/src/standalone.module';
import { echoRuns, type EchoView } from '../support/echo-kind/echo.kind';
import { EchoModule, HTTP_RUN_KINDS_WITH_ECHO } from '../support/echo-kind/echo.module';

/**
 * A run kind added the way the structure promises: its own folder (test/support/echo-kind: the
 * registration, how the gateway serves it, an executor, a route file) and a line in the list of kinds. Nothing else in the
 * service knows of it, yet the worker runs it, the gateway lists, shows, cancels and streams it
 * (SSE and WebSocket), the log keeps its history, the projection fills its read model and the
 * webhooks service announces its end, signed with the team's secret.
 */
describe('a run kind registered once (the echo kind of the tests)', () => {
  const kinds = [...RUN_KINDS, echoRuns];
  let app: NestFastifyApplication;
  let base: string;
  let key: string;
  let secret: string;
  let dataDir: string;
  let receiver: http.Server;
  let hookPort: number;
  const hooks: { headers: http.IncomingHttpHeaders; body: string }[] = [];

  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'wr-echo-kind-'));
    receiver = http.createServer((req, res) => {
      let body = '';
      req.on('data', (chunk) => (body += chunk));
      req.on('end', () => {
        hooks.push({ headers: req.headers, body });
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    hookPort = (receiver.address() as AddressInfo).port;
    const config = {
      ...loadConfig({
        DATA_DIR: dataDir,
        RATE_LIMIT_RPS: '0',
        FETCH_ALLOW_HOSTS: `127.0.0.1:${hookPort}`,
        WEBHOOK_BACKOFF_SECONDS: '1',
      }),
      bus: 'inprocess' as const,
      host: '127.0.0.1',
      port: 0,
    };
    app = await createHttpApp(
      StandaloneModule.forConfig(config, kinds, [EchoModule.forKinds(kinds)], HTTP_RUN_KINDS_WITH_ECHO),
      config,
      new JsonLogger(createRootLogger('test', 'silent')),
    );
    app.connectMicroservice({ strategy: new InProcessServer({ queue: 'standalone' }) }, { inheritAppConfig: true });
    await app.startAllMicroservices();
    mountRunSockets(app);
    await app.listen(0, '127.0.0.1');
    base = (await app.getUrl()).replace('[::1]', '127.0.0.1');
    const created = await new TeamAdmin(app.get<EventStore>(EVENT_STORE), app.get(SecretBox)).createKey('echoes');
    key = created.key;
    secret = created.webhookSecret!;
    for (let i = 0; i < 300 && (await get('/v1/usage')).status !== 200; i++)
      await new Promise((r) => setTimeout(r, 10));
  }, 60_000);

  afterAll(async () => {
    await app?.close();
    await new Promise((resolve) => receiver?.close(resolve));
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  const get = (route: string, headers: Record<string, string> = {}) =>
    fetch(`${base}${route}`, { headers: { Authorization: `Bearer ${key}`, ...headers } });
  const post = (route: string, body: unknown) =>
    fetch(`${base}${route}`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    });
  const until = async <T>(what: string, probe: () => Promise<T | undefined>): Promise<T> => {
    for (let i = 0; i < 500; i++) {
      const value = await probe();
      if (value !== undefined) return value;
      await new Promise((r) => setTimeout(r, 20));
    }
    throw new Error(`timed out waiting for ${what}`);
  };

  it('runs end to end: route, worker, projection, list, SSE, WebSocket, history, cancel, webhook', async () => {
    const hookUrl = `http://127.0.0.1:${hookPort}/echo`;
    const created = await post('/v1/echoes', { text: 'one registration is enough', webhook: hookUrl });
    expect(created.status).toBe(202);
    const queued = (await created.json()) as EchoView;
    expect(queued).toMatchObject({ status: 'queued', text: 'one registration is enough', words: [], credits: 0 });
    expect(queued.echo_id).toMatch(/^echo_[0-9a-f-]{36}$/);
    const id = queued.echo_id;

    // The worker (the research service's, which found the kind's executor) runs it; the projection shows it.
    const done = await until('the echo run to complete', async () => {
      const view = (await (await get(`/v1/echoes/${id}`)).json()) as EchoView;
      return view.status === 'completed' ? view : undefined;
    });
    expect(done).toEqual({
      echo_id: id,
      status: 'completed',
      text: 'one registration is enough',
      words: ['one', 'registration', 'is', 'enough'],
      credits: 4,
    });

    const list = (await (await get('/v1/echoes')).json()) as {
      echoes: EchoView[];
      total: number;
      limit: number;
      offset: number;
    };
    expect(list).toMatchObject({ total: 1, limit: 10, offset: 0 });
    expect(list.echoes.map((e) => e.echo_id)).toEqual([id]);

    // SSE from the start: the lifecycle's public events and the kind's own, ending with the full view.
    const sse = await (await get(`/v1/echoes/${id}/events`)).text();
    const names = [...sse.matchAll(/^event: (.+)$/gm)].map((m) => m[1]);
    expect(names).toEqual([
      'run.queued',
      'run.started',
      'echo.word',
      'echo.word',
      'echo.word',
      'echo.word',
      'run.completed',
    ]);
    expect(sse).toContain(`"echo_id":"${id}"`);

    // The recorded page: the same events as JSON.
    const recorded = (await (await get(`/v1/echoes/${id}/recorded?limit=2&offset=2`)).json()) as {
      events: { event: string; data: unknown }[];
      total: number;
    };
    expect(recorded.total).toBe(7);
    expect(recorded.events).toEqual([
      expect.objectContaining({ event: 'echo.word', data: { index: 0, word: 'one' } }),
      expect.objectContaining({ event: 'echo.word', data: { index: 1, word: 'registration' } }),
    ]);

    // The WebSocket beside the SSE stream, from the same declaration.
    const socketEvents = await new Promise<string[]>((resolve, reject) => {
      const ws = new WebSocket(`${base.replace('http', 'ws')}/v1/echoes/${id}/ws`, {
        headers: { Authorization: `Bearer ${key}` },
      });
      const seen: string[] = [];
      ws.on('message', (data) => {
        const message = JSON.parse(String(data)) as { event: string };
        seen.push(message.event);
        if (message.event === 'run.completed') {
          ws.close();
          resolve(seen);
        }
      });
      ws.on('error', reject);
    });
    expect(socketEvents).toEqual(names);

    // The audit history from the log, with the request's metadata.
    const history = (await (await get(`/v1/echoes/${id}/history`)).json()) as {
      events: { type: string }[];
      total: number;
    };
    expect(history.events.map((e) => e.type)).toEqual([
      'EchoRunRequested',
      'EchoRunStarted',
      'EchoWordRecorded',
      'EchoWordRecorded',
      'EchoWordRecorded',
      'EchoWordRecorded',
      'CreditsCharged',
      'EchoRunCompleted',
    ]);

    // Cancel goes through the kind's service: a completed run is a 409.
    expect((await post(`/v1/echoes/${id}/cancel`, {})).status).toBe(409);
    // Another team's key, or an unknown id, sees nothing.
    expect((await get('/v1/echoes/echo_nope')).status).toBe(404);

    // The webhooks service announced its end, signed with the team's secret.
    const hook = await until('the webhook', async () => hooks[0]);
    const verified = new Webhook(secret).verify(hook.body, hook.headers as Record<string, string>) as {
      type: string;
      data: EchoView;
    };
    expect(verified.type).toBe('echo_run.completed');
    expect(verified.data).toEqual(done);
  }, 60_000);
});
