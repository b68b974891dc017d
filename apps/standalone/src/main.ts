import { InProcessServer } from '@app/bus';
import { EVENT_STORE, type EventStore } from '@app/eventstore';
import { exitOnBootFailure, jsonLogger, loadConfigOrExit, SecretBox, bootstrapDemoTeam } from '@app/platform';
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
  mountOpenApi(app);
  mountRunSockets(app);
  await app.init();
  await bootstrapDemoTeam(app.get<EventStore>(EVENT_STORE), app.get(SecretBox), (line) => process.stdout.write(line + '\n'));
  await app.listen(config.port, config.host);
  logger.log({ msg: 'standalone listening', port: config.port, data_dir: config.dataDir }, 'Boot');
}

main().catch(exitOnBootFailure(logger));
