import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Module } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { BusModule, InProcessServer } from '@app/bus';
import { loadConfig } from '@app/config';
import { EVENT_STORE, type EventStore } from '@app/eventstore';
import { CoreModule } from '@app/platform/core/core.module';
import { ProjectionModule } from '@app/platform/core/projection.module';
import { JsonLogger, createRootLogger } from '@app/platform/logging/logger';
import { SecretBox } from '@app/platform/secrets';
import { TeamAdmin } from '@app/platform/teams/team-admin';
import { READ_STORE, type ReadStore } from '@app/readmodels';
import { GatewayModule } from '../../../apps/gateway/src/gateway.module';
import { createHttpApp } from '../../../apps/gateway/src/http/create-http-app';
import { runBusHandler } from '@app/runs';

/**
 * A run is requested (its event is in the log) but the read model has not caught up when the
 * read-your-writes wait ends: the POST must answer 503 with Retry-After, never 500. The lag is
 * injected into the real in-memory read store (its writes stall), as a loaded MongoDB's would.
 */
describe('a run whose read model lags behind its request', () => {
  let app: NestFastifyApplication;
  let base: string;
  let key: string;
  let dataDir: string;

  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'wr-run-lag-'));
    const config = {
      ...loadConfig({ DATA_DIR: dataDir, RATE_LIMIT_RPS: '0', READ_YOUR_WRITES_MS: '100' }),
      host: '127.0.0.1',
      port: 0,
    };
    @Module({ controllers: [runBusHandler('research')] })
    class ResearchRequests {}
    @Module({
      imports: [
        CoreModule.forRoot(config),
        BusModule.forRoot({ transport: 'inprocess', service: 'test', timeoutMs: config.busTimeoutMs }),
        ProjectionModule.forRoot(),
        GatewayModule.forRoot(),
        ResearchRequests,
      ],
    })
    class Root {}
    app = await createHttpApp(Root, config, new JsonLogger(createRootLogger('test', 'silent')));
    app.connectMicroservice({ strategy: new InProcessServer({ queue: 'test' }) }, { inheritAppConfig: true });
    await app.startAllMicroservices();
    await app.listen(0, '127.0.0.1');
    base = (await app.getUrl()).replace('[::1]', '127.0.0.1');
    key = (await new TeamAdmin(app.get<EventStore>(EVENT_STORE), app.get(SecretBox)).createKey('lagging')).key;
    for (
      let i = 0;
      i < 200 && (await fetch(`${base}/v1/usage`, { headers: { Authorization: `Bearer ${key}` } })).status !== 200;
      i++
    ) {
      await new Promise((r) => setTimeout(r, 10));
    }
  }, 30_000);

  afterAll(async () => {
    await app?.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('answers 503 with Retry-After, and the run is readable once the read model catches up', async () => {
    const reads = app.get<ReadStore>(READ_STORE);
    const upsert = reads.upsert.bind(reads);
    let release!: () => void;
    const stalled = new Promise<void>((resolve) => (release = resolve));
    reads.upsert = async (...args) => {
      await stalled;
      return upsert(...args);
    };
    try {
      const response = await fetch(`${base}/v1/search`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ depth: 'deep', queries: ['lagging read model'] }),
      });
      expect(response.status).toBe(503);
      expect(Number(response.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      expect(await response.json()).toEqual({ detail: expect.stringContaining('retry') });
    } finally {
      reads.upsert = upsert;
      release();
    }
    let list: { searches: unknown[] } = { searches: [] };
    for (let i = 0; i < 100 && list.searches.length === 0; i++) {
      list = (await (await fetch(`${base}/v1/searches`, { headers: { Authorization: `Bearer ${key}` } })).json()) as {
        searches: unknown[];
      };
      await new Promise((r) => setTimeout(r, 20));
    }
    expect(list.searches).toHaveLength(1);
  });
});
