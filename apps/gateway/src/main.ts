import { Module } from '@nestjs/common';
import { BusModule } from '@app/bus';
import { exitOnBootFailure, jsonLogger, loadConfigOrExit, CoreModule, ProjectionModule } from '@app/platform';
import { createHttpApp } from './http/create-http-app';
import { mountRunSockets } from './streams/run-sockets';
import { mountOpenApi } from './openapi/openapi';
import { GatewayModule } from './gateway.module';

// Cluster mode: the HTTP gateway as its own process. Without MONGO_URL it projects the log into
// its own memory; with it, the projector service does and every gateway reads MongoDB.
const config = loadConfigOrExit();
const logger = jsonLogger('gateway', config);

@Module({
  imports: [
    CoreModule.forRoot(config),
    BusModule.forRoot({
      transport: config.bus,
      natsServers: config.natsServers,
      service: 'gateway',
      timeoutMs: config.busTimeoutMs,
      largePayloads: config.largePayloads,
    }),
    ...(config.mongoUrl ? [] : [ProjectionModule.forRoot('gateway')]),
    GatewayModule.forRoot(),
  ],
})
class GatewayRoot {}

createHttpApp(GatewayRoot, config, logger)
  .then(async (app) => {
    mountOpenApi(app, config.openapiResponseCheck);
    mountRunSockets(app);
    await app.listen(config.port, config.host);
    logger.log({ msg: 'gateway listening', port: config.port, bus: config.bus }, 'Boot');
  })
  .catch(exitOnBootFailure(logger));
