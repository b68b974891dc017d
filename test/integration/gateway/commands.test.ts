import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Body, Controller, HttpCode, Inject, Module, Post, Req, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { Ctx, MessagePattern, Payload } from '@nestjs/microservices';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { BusController, BusModule, busHeaders, InProcessServer } from '@app/bus';
import { loadConfig } from '@app/config';
import { EVENT_STORE, type EventStore } from '@app/eventstore';
import { chargeContextFrom, chargeRequest } from '@app/platform/charging/charge-request';
import { READ_STORE, type ReadStore } from '@app/readmodels';
import { CoreModule } from '@app/platform/core/core.module';
import { ProjectionModule } from '@app/platform/core/projection.module';
import { IntField, StrField } from '@app/platform/http';
import { JsonLogger, createRootLogger } from '@app/platform/logging/logger';
import { SecretBox } from '@app/platform/secrets';
import { TeamAdmin } from '@app/platform/teams/team-admin';
import type { BaseRpcContext } from '@nestjs/microservices';
import { Auth, type AuthContext, type AuthedRequest } from '../../../apps/gateway/src/auth/auth.context';
import { type CommandReply, ServiceCalls } from '../../../apps/gateway/src/commands/service-calls';
import { GatewayModule } from '../../../apps/gateway/src/gateway.module';
import { createHttpApp } from '../../../apps/gateway/src/http/create-http-app';

/**
 * The gateway's command path end to end inside one process, on a real sqlite log: a POST calls a
 * bus handler that charges credits, the reply's append position gates the answer until the read
 * model has it (read-your-writes), Idempotency-Key replays, and bus failures map to HTTP.
 * The `widgets` routes exist only in this test: no product route is a POST yet.
 */
class WidgetBody {
  @StrField({ minLength: 1 }) name!: string;
  @IntField({ ge: 0, default: 0 }) delay_ms!: number;
}

let handled = 0;

@BusController()
class WidgetHandler {
  constructor(@Inject(EVENT_STORE) private readonly events: EventStore) {}

  @MessagePattern('widgets.create')
  async create(
    @Payload() body: { name: string; delay_ms: number },
    @Ctx() ctx: BaseRpcContext,
  ): Promise<CommandReply & { n: number }> {
    const headers = busHeaders(ctx);
    handled++;
    await new Promise((r) => setTimeout(r, body.delay_ms));
    const position = await chargeRequest(this.events, chargeContextFrom(headers), [
      { sku: 'sku_search', quantity: 1, credits: 1 },
    ]);
    return { position, n: handled };
  }

  @MessagePattern('widgets.refuse')
  refuse() {
    return { error: { status: 409, detail: 'widget is locked' } };
  }

  @MessagePattern('widgets.silent')
  silent() {
    return new Promise(() => undefined);
  }
}

@Controller('v1/widgets')
class WidgetController {
  constructor(private readonly calls: ServiceCalls) {}

  @Post()
  @HttpCode(200)
  create(@Auth() auth: AuthContext, @Req() req: AuthedRequest, @Body() body: WidgetBody) {
    return this.calls.command('widgets.create', body, auth, req.id);
  }

  @Post('refuse')
  refuse(@Auth() auth: AuthContext, @Req() req: AuthedRequest) {
    return this.calls.call('widgets.refuse', {}, auth, req.id);
  }

  @Post('silent')
  silent(@Auth() auth: AuthContext, @Req() req: AuthedRequest) {
    return this.calls.call('widgets.silent', {}, auth, req.id);
  }

  /** An answer larger than an Idempotency-Key's replay keeps (100 kB). */
  @Post('large')
  @HttpCode(200)
  large() {
    largeAnswers++;
    return { blob: 'x'.repeat(100_000) };
  }

  @Post('boom')
  boom(): never {
    throw new Error('the handler broke');
  }

  /** A reply written by hand, as a streamed chat completion is: 150 ms of chunks. */
  @Post('stream')
  stream(@Res() reply: FastifyReply) {
    streamed++;
    reply.hijack();
    reply.raw.writeHead(200, { 'content-type': 'text/plain' });
    reply.raw.write('one ');
    setTimeout(() => reply.raw.end('two'), 150);
  }
}

let streamed = 0;
let largeAnswers = 0;

describe('gateway command path', () => {
  let app: NestFastifyApplication;
  let base: string;
  let key: string;
  let dataDir: string;

  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'wr-commands-'));
    const config = {
      ...loadConfig({ DATA_DIR: dataDir, RATE_LIMIT_RPS: '0', BUS_TIMEOUT_MS: '300' }),
      host: '127.0.0.1',
      port: 0,
    };

    @Module({ imports: [GatewayModule.forRoot()], controllers: [WidgetHandler, WidgetController] })
    class WidgetModule {}
    @Module({
      imports: [
        CoreModule.forRoot(config),
        BusModule.forRoot({ transport: 'inprocess', service: 'test', timeoutMs: config.busTimeoutMs }),
        ProjectionModule.forRoot(),
        GatewayModule.forRoot(),
        WidgetModule,
      ],
    })
    class Root {}

    app = await createHttpApp(Root, config, new JsonLogger(createRootLogger('test', 'silent')));
    app.connectMicroservice({ strategy: new InProcessServer({ queue: 'test' }) }, { inheritAppConfig: true });
    await app.startAllMicroservices();
    await app.listen(0, '127.0.0.1');
    base = await app.getUrl();
    base = base.replace('[::1]', '127.0.0.1');
    key = (await new TeamAdmin(app.get<EventStore>(EVENT_STORE), app.get(SecretBox)).createKey('widgets')).key;
    const deadline = Date.now() + 2000;
    while ((await fetch(`${base}/v1/usage`, { headers: { Authorization: `Bearer ${key}` } })).status !== 200) {
      if (Date.now() > deadline) throw new Error('key never became valid');
      await new Promise((r) => setTimeout(r, 10));
    }
  }, 30_000);

  afterAll(async () => {
    await app?.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  const post = (route: string, body: unknown, headers: Record<string, string> = {}) =>
    fetch(`${base}${route}`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json', ...headers },
      body: JSON.stringify(body),
    });

  it('sees each command’s charge in a GET right after its POST', async () => {
    for (let i = 0; i < 20; i++) {
      const response = await post('/v1/widgets', { name: `w${i}` }, { 'X-Request-Id': `ryw-${i}` });
      expect(response.status).toBe(200);
      const charge = await fetch(`${base}/v1/usage/requests/ryw-${i}`, { headers: { Authorization: `Bearer ${key}` } });
      expect(charge.status).toBe(200);
      const usage = (await (
        await fetch(`${base}/v1/usage`, { headers: { Authorization: `Bearer ${key}` } })
      ).json()) as { total_credits: number };
      expect(usage.total_credits).toBe(i + 1);
      void charge;
    }
  });

  it('holds the answer until the read model has applied the command’s events', async () => {
    // Fault injection: the read store's writes become slow, as a loaded MongoDB's would.
    const reads = app.get<ReadStore>(READ_STORE);
    const upsert = reads.upsert.bind(reads);
    reads.upsert = async (...args) => {
      await new Promise((r) => setTimeout(r, 400));
      return upsert(...args);
    };
    try {
      let answered = false;
      const pending = post('/v1/widgets', { name: 'held' }, { 'X-Request-Id': 'held-1' }).then((response) => {
        answered = true;
        return response;
      });
      await new Promise((r) => setTimeout(r, 200));
      expect(answered).toBe(false);
      const response = await pending;
      expect(response.status).toBe(200);
      const usage = (await (
        await fetch(`${base}/v1/usage?from=2020-01-01&to=2099-01-01`, { headers: { Authorization: `Bearer ${key}` } })
      ).json()) as {
        total_credits: number;
      };
      expect(usage.total_credits).toBe(21);
    } finally {
      reads.upsert = upsert;
    }
  });

  it('charges every call, even when a client reuses its X-Request-Id', async () => {
    for (let i = 0; i < 2; i++)
      expect((await post('/v1/widgets', { name: 'same' }, { 'X-Request-Id': 'reused-id' })).status).toBe(200);
    const charge = (await (
      await fetch(`${base}/v1/usage/requests/reused-id`, { headers: { Authorization: `Bearer ${key}` } })
    ).json()) as {
      credits: number;
      charges: number;
    };
    expect(charge).toMatchObject({ credits: 2, charges: 2 });
  });

  it('replays the first response for the same Idempotency-Key and body, charging once', async () => {
    const before = handled;
    const first = await post('/v1/widgets', { name: 'once' }, { 'Idempotency-Key': 'idem-1' });
    const firstBody = await first.json();
    const second = await post('/v1/widgets', { name: 'once' }, { 'Idempotency-Key': 'idem-1' });
    expect(second.status).toBe(200);
    expect(second.headers.get('idempotent-replayed')).toBe('true');
    expect(await second.json()).toEqual(firstBody);
    expect(handled).toBe(before + 1);
  });

  it('refuses the same key with another body: 422 idempotency_key_reuse', async () => {
    await post('/v1/widgets', { name: 'a' }, { 'Idempotency-Key': 'idem-2' });
    const reused = await post('/v1/widgets', { name: 'b' }, { 'Idempotency-Key': 'idem-2' });
    expect(reused.status).toBe(422);
    expect(((await reused.json()) as { detail: unknown[] }).detail[0]).toMatchObject({
      type: 'idempotency_key_reuse',
      loc: ['header', 'idempotency-key'],
    });
  });

  it('answers 409 while the first request with the key is still running', async () => {
    const slow = post('/v1/widgets', { name: 'slow', delay_ms: 150 }, { 'Idempotency-Key': 'idem-3' });
    await new Promise((r) => setTimeout(r, 50));
    const concurrent = await post('/v1/widgets', { name: 'slow', delay_ms: 150 }, { 'Idempotency-Key': 'idem-3' });
    expect(concurrent.status).toBe(409);
    // Says when to try again (a retry then gets the first answer replayed): clients retry such a 409.
    expect(concurrent.headers.get('retry-after')).toBe('1');
    expect((await slow).status).toBe(200);
  });

  it('keeps a validation failure for the key, and lets a server failure be retried', async () => {
    const invalid = await post('/v1/widgets', { name: '' }, { 'Idempotency-Key': 'idem-4' });
    expect(invalid.status).toBe(422);
    const again = await post('/v1/widgets', { name: '' }, { 'Idempotency-Key': 'idem-4' });
    expect(again.status).toBe(422);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    // A 500 frees the key: the retry runs again.
    expect((await post('/v1/widgets/boom', {}, { 'Idempotency-Key': 'idem-5' })).status).toBe(500);
    expect((await post('/v1/widgets/boom', {}, { 'Idempotency-Key': 'idem-5' })).status).toBe(500);
  });

  it('keeps the key claimed after a bus timeout (503): the work may still finish, so a quick retry gets 409, not a second run', async () => {
    expect((await post('/v1/widgets/silent', {}, { 'Idempotency-Key': 'idem-timeout' })).status).toBe(503);
    const retry = await post('/v1/widgets/silent', {}, { 'Idempotency-Key': 'idem-timeout' });
    expect(retry.status).toBe(409);
    expect(((await retry.json()) as { detail: string }).detail).toMatch(/still being processed/);
  });

  it('keeps an answer over IDEMPOTENCY_MAX_BODY_BYTES by its size and hash only; a repeat is told it was answered once', async () => {
    const first = await post('/v1/widgets/large', {}, { 'Idempotency-Key': 'idem-large' });
    expect(first.status).toBe(200);
    expect(((await first.json()) as { blob: string }).blob).toHaveLength(100_000);
    const again = await post('/v1/widgets/large', {}, { 'Idempotency-Key': 'idem-large' });
    expect(again.status).toBe(409);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    // Final: no Retry-After, so a client does not retry it.
    expect(again.headers.get('retry-after')).toBeNull();
    expect(((await again.json()) as { detail: string }).detail).toMatch(
      /answered \(status 200, 100011 bytes\) and charged once; its answer was over 65536 bytes/,
    );
    expect(largeAnswers).toBe(1);
    const recorded = (await app.get<EventStore>(EVENT_STORE).readAll()).filter(
      (e) => e.type === 'IdempotentResponseRecorded',
    );
    expect(Math.max(...recorded.map((e) => JSON.stringify(e.data).length))).toBeLessThan(2_000);
  });

  it('frees the key of a reply written by hand once it ends (it cannot be replayed), and answers 409 until then', async () => {
    const first = post('/v1/widgets/stream', {}, { 'Idempotency-Key': 'idem-6' });
    await new Promise((r) => setTimeout(r, 50));
    expect((await post('/v1/widgets/stream', {}, { 'Idempotency-Key': 'idem-6' })).status).toBe(409);
    expect(await (await first).text()).toBe('one two');
    await new Promise((r) => setTimeout(r, 50));
    const again = await post('/v1/widgets/stream', {}, { 'Idempotency-Key': 'idem-6' });
    expect(again.status).toBe(200);
    expect(again.headers.get('idempotent-replayed')).toBeNull();
    expect(await again.text()).toBe('one two');
    expect(streamed).toBe(2);
  });

  it('takes no claim for a request without the header, nor for a replay', async () => {
    const streamsBefore = (await app.get<EventStore>(EVENT_STORE).readAll()).filter((e) =>
      e.stream.startsWith('idempotency-'),
    ).length;
    expect((await post('/v1/widgets', { name: 'plain' })).status).toBe(200);
    expect(
      (await post('/v1/widgets', { name: 'once' }, { 'Idempotency-Key': 'idem-1' })).headers.get('idempotent-replayed'),
    ).toBe('true');
    const streamsAfter = (await app.get<EventStore>(EVENT_STORE).readAll()).filter((e) =>
      e.stream.startsWith('idempotency-'),
    ).length;
    expect(streamsAfter).toBe(streamsBefore);
  });

  it('maps a bus timeout to 503 with Retry-After and an error reply to its status', async () => {
    const timeout = await post('/v1/widgets/silent', {});
    expect(timeout.status).toBe(503);
    expect(Number(timeout.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await timeout.json()).toEqual({ detail: expect.any(String) });
    const refused = await post('/v1/widgets/refuse', {});
    expect(refused.status).toBe(409);
    expect(await refused.json()).toEqual({ detail: 'widget is locked' });
  });
});
