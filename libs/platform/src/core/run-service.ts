import { type DynamicModule, Module, type Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { BusClient, BusModule, microserviceOptions } from '@app/bus';
import { serviceReady, type ServiceName } from '@app/contracts';
import { EVENT_STORE, type EventStore } from '@app/eventstore';
import { exitOnBootFailure, jsonLogger, loadConfigOrExit } from './boot';
import { CoreModule } from './core.module';
import { startHealthServer } from './health-server';

/**
 * The whole main.ts of a bus service in cluster mode: its module on the configured transport
 * (NATS queue group named after the service), with the core providers, draining on SIGTERM.
 */
export function runService(
  name: ServiceName,
  serviceModule: (config: ReturnType<typeof loadConfigOrExit>) => Type<unknown> | DynamicModule,
): void {
  const config = loadConfigOrExit();
  const logger = jsonLogger(name, config);

  @Module({
    imports: [
      CoreModule.forRoot(config),
      BusModule.forRoot({
        transport: config.bus,
        natsServers: config.natsServers,
        service: name,
        timeoutMs: config.busTimeoutMs,
        largePayloads: config.largePayloads,
      }),
      serviceModule(config),
    ],
  })
  class ServiceRoot {}
  Object.defineProperty(ServiceRoot, 'name', { value: `${name}Root` });

  NestFactory.createMicroservice(ServiceRoot, { ...microserviceOptions(config, name), logger, bufferLogs: true })
    .then(async (app) => {
      app.enableShutdownHooks();
      await app.listen();
      logger.log({ msg: 'service listening', service: name, bus: config.bus }, 'Boot');
      if (config.healthPort !== undefined) {
        const bus = app.get(BusClient);
        const events = app.get<EventStore>(EVENT_STORE);
        // Unref'd: it never keeps a draining process alive, and /readyz fails once the bus closes.
        const health = await startHealthServer(config.healthPort, async () => {
          await Promise.all([serviceReady(bus, name, 2_000), events.ping()]);
        });
        logger.log({ msg: 'health probes listening', service: name, port: health.port }, 'Boot');
      }
    })
    .catch(exitOnBootFailure(logger));
}
