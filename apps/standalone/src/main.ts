import { InProcessServer } from '@app/bus';
import { EVENT_STORE, type EventStore } from '@app/eventstore';
import type { AddressInfo } from 'node:net';
import {
  exitOnBootFailure,
  jsonLogger,
  loadConfigOrExit,
  logFormatOf,
  readyBanner,
  baseUrlOf,
  SecretBox,
  bootstrapDemoTeam,
} from '@app/platform';
import { createHttpApp } from '../../gateway/src/http/create-http-app';
import { mountRunSockets } from '../../gateway/src/streams/run-sockets';
import { mountOpenApi } from '../../gateway/src/openapi/openapi';
import { StandaloneModule } from './standalone.module';

// `npm start`: the whole service in one process on the embedded defaults (in-process bus,
// sqlite log in DATA_DIR, memory read models rebuilt from the log at boot).
const config = { ...loadConfigOrExit(), bus: 'inprocess' as const };
const logger = jsonLogger('standalone', config);

async function main() {
  const app = await createHttpApp(StandaloneModule.forConfig(config), config, logger);
  app.connectMicroservice({ strategy: new InProcessServer({ queue: 'standalone' }) }, { inheritAppConfig: true });
  await app.startAllMicroservices();
  mountOpenApi(app, config.openapiResponseCheck);
  mountRunSockets(app);
  await app.init();
  const demoKey = await bootstrapDemoTeam(app.get<EventStore>(EVENT_STORE), app.get(SecretBox), (line) =>
    process.stdout.write(line + '\n'),
  );
  await app.listen(config.port, config.host);
  const port = (app.getHttpServer().address() as AddressInfo).port;
  logger.log({ msg: 'standalone listening', port, data_dir: config.dataDir }, 'Boot');
  // A person at a terminal gets the console, the key and a call to try; logs for machines stay JSON only.
  if (logFormatOf(config.logFormat) === 'pretty') {
    process.stdout.write(readyBanner(baseUrlOf(config.host, port), demoKey) + '\n');
  }
}

main().catch(exitOnBootFailure(logger));
