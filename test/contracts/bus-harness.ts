/**
 * What the bus test files (bus.contract.test.ts, bus-client.test.ts) share: a NATS server started
 * for the file, a scratch data dir, and a service app started on the bus with the modules given.
 */
import { DynamicModule, INestMicroservice, Module, Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { BusModule, BusTransportConfig, microserviceOptions } from '@app/bus';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { loadConfig } from '@app/config';
import { CoreModule } from '@app/platform/core/core.module';
import { startNatsServer, type NatsServerHandle } from '../support/nats-server';

export const DATA_DIR = fs.mkdtempSync(path.join(os.tmpdir(), 'wr-contracts-'));
const quiet = { logger: false as const };

export async function startService(
  config: BusTransportConfig,
  service: string,
  modules: Array<DynamicModule | Type>,
): Promise<INestMicroservice> {
  @Module({
    imports: [
      CoreModule.forRoot(loadConfig({ DATA_DIR, RATE_LIMIT_RPS: '0', MAX_CONCURRENT_RUNS_PER_TEAM: '1000' })),
      BusModule.forRoot({ transport: config.bus, natsServers: config.natsServers, service, timeoutMs: 3000 }),
      ...modules,
    ],
  })
  class ServiceApp {}
  // A test's stalled handler ('never answers') would hold close() for the whole drain: 1 s here.
  const app = await NestFactory.createMicroservice(ServiceApp, {
    ...microserviceOptions({ busDrainMs: 1_000, ...config }, service),
    ...quiet,
  });
  await app.listen();
  return app;
}

export let nats: NatsServerHandle;
/** Starts a NATS server before the calling test file's tests and stops it after them. */
export function useNatsServer(): void {
  beforeAll(async () => {
    nats = await startNatsServer();
  });
  afterAll(async () => {
    await nats?.stop();
  });
}
