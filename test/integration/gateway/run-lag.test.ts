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
import { searchRuns } from '@app/domain';

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

  /**
   * A client that sees a run's stream end and then reads the run (an MCP tool, a CLI) must find it
   * ended: the terminal frame waits (bounded) for the read model to hold it. The lag is injected the
   * same way: the read store's writes stall until released.
   */
  it("sends a run's terminal event only once the read model holds it, so a GET after it sees the end", async () => {
    const auth = { Authorization: `Bearer ${key}` };
    const created = await fetch(`${base}/v1/search`, {
      method: 'POST',
      headers: { ...auth, 'Content-Type': 'application/json' },
      body: JSON.stringify({ depth: 'deep', queries: ['a stream that ends'] }),
    });
    const { search_id: id } = (await created.json()) as { search_id: string };
    const stream = await fetch(`${base}/v1/searches/${id}/events`, { headers: auth });
    expect(stream.status).toBe(200);

    const reads = app.get<ReadStore>(READ_STORE);
    const events = app.get<EventStore>(EVENT_STORE);
    const upsert = reads.upsert.bind(reads);
    let release!: () => void;
    const stalled = new Promise<void>((resolve) => (release = resolve));
    let applied = false;
    reads.upsert = async (...args) => {
      await stalled;
      const done = await upsert(...args);
      applied = true;
      return done;
    };
    try {
      const cancelled = fetch(`${base}/v1/searches/${id}/cancel`, { method: 'POST', headers: auth });
      const streamName = `${searchRuns.streamPrefix}${id}`;
      for (let i = 0; i < 200; i++) {
        const recorded = await events.readStream(streamName);
        if (recorded.some((event) => /cancel/i.test(event.type))) break;
        await new Promise((r) => setTimeout(r, 5));
      }
      // The cancel is in the log; the read model applies it 40 ms later (READ_YOUR_WRITES_MS is 100).
      setTimeout(release, 40);
      const reader = stream.body!.getReader();
      const decoder = new TextDecoder();
      let text = '';
      let appliedWhenSent: boolean | undefined;
      while (!/event: run\.cancelled/.test(text)) {
        const chunk = await reader.read();
        if (chunk.done) break;
        text += decoder.decode(chunk.value, { stream: true });
        if (/event: run\.cancelled/.test(text)) appliedWhenSent = applied;
      }
      expect(appliedWhenSent).toBe(true);
      const view = (await (await fetch(`${base}/v1/searches/${id}`, { headers: auth })).json()) as { status: string };
      expect(view.status).toBe('cancelled');
      await reader.cancel();
      await cancelled;
    } finally {
      reads.upsert = upsert;
      release();
    }
  });

  /**
   * Behind a load balancer a client's create can reach one gateway and its next call another,
   * whose read model has not applied the run yet. That replica must find the run in the log and
   * wait for its read model, not answer 404 for a run the API has just accepted (an SSE client
   * given a 404 gives up for good).
   */
  describe("a run recorded through another replica, not yet in this one's read model", () => {
    const auth = (k: string) => ({ Authorization: `Bearer ${k}` });
    let other: string;
    beforeAll(async () => {
      other = (await new TeamAdmin(app.get<EventStore>(EVENT_STORE), app.get(SecretBox)).createKey('other-team')).key;
      for (let i = 0; i < 200 && (await fetch(`${base}/v1/usage`, { headers: auth(other) })).status !== 200; i++)
        await new Promise((r) => setTimeout(r, 10));
    });

    /** A run whose created event is in the log while the read model's writes stall until `release`. */
    async function stalledRun() {
      const reads = app.get<ReadStore>(READ_STORE);
      const events = app.get<EventStore>(EVENT_STORE);
      const upsert = reads.upsert.bind(reads);
      let release!: () => void;
      const stalled = new Promise<void>((resolve) => (release = resolve));
      reads.upsert = async (...args) => {
        await stalled;
        return upsert(...args);
      };
      const head = await events.headPosition();
      const created = await fetch(`${base}/v1/search`, {
        method: 'POST',
        headers: { ...auth(key), 'Content-Type': 'application/json' },
        body: JSON.stringify({ depth: 'deep', queries: ['another replica'] }),
      });
      expect(created.status).toBe(503);
      const recorded = await events.readAll({ after: head });
      const stream = recorded.find((event) => event.stream.startsWith(searchRuns.streamPrefix))!.stream;
      return {
        id: stream.slice(searchRuns.streamPrefix.length),
        release: () => {
          reads.upsert = upsert;
          release();
        },
      };
    }

    it('waits for the read model: the view and the event stream answer 200, not 404', async () => {
      const run = await stalledRun();
      try {
        const view = fetch(`${base}/v1/searches/${run.id}`, { headers: auth(key) });
        const stream = fetch(`${base}/v1/searches/${run.id}/events`, { headers: auth(key) });
        setTimeout(run.release, 30);
        const answered = await view;
        expect(answered.status).toBe(200);
        expect(await answered.json()).toMatchObject({ search_id: run.id });
        const events = await stream;
        expect(events.status).toBe(200);
        expect(events.headers.get('content-type')).toContain('text/event-stream');
        await events.body?.cancel();
      } finally {
        run.release();
      }
    });

    it('a read model that stays behind gives 503 with Retry-After; another team still gets 404 at once', async () => {
      const run = await stalledRun();
      try {
        const started = Date.now();
        const theirs = await fetch(`${base}/v1/searches/${run.id}`, { headers: auth(other) });
        expect(theirs.status).toBe(404);
        expect(Date.now() - started).toBeLessThan(100);
        const lagging = await fetch(`${base}/v1/searches/${run.id}`, { headers: auth(key) });
        expect(lagging.status).toBe(503);
        expect(Number(lagging.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
        const absent = await fetch(`${base}/v1/searches/search_00000000-0000-4000-8000-000000000000`, {
          headers: auth(key),
        });
        expect(absent.status).toBe(404);
      } finally {
        run.release();
      }
    });
  });
});
