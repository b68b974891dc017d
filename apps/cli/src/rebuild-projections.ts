/**
 * `npm run projections:rebuild`: clears every read model and replays the whole event log into it.
 * With MONGO_URL this rebuilds the shared MongoDB read models (run it with the projector service
 * stopped). Without it the read models live in each process's memory and are rebuilt at every
 * boot anyway; the command then replays into memory to check the log projects cleanly, and reports.
 */
import { loadConfigOrExit } from '@app/platform';
import { openEventStore } from '@app/eventstore';
import { openReadStore, Projector, type ReadStore, platformProjections } from '@app/readmodels';

async function main(): Promise<void> {
  const config = loadConfigOrExit();
  const events = await openEventStore(config.eventstoreUrl);
  const reads: ReadStore = await openReadStore(config.mongoUrl);
  const projections = platformProjections();
  const projector = new Projector(events, reads, projections, {
    logger: { log: () => undefined, warn: console.warn, error: console.error },
  });
  const started = performance.now();
  try {
    await projector.rebuild();
    const seconds = (performance.now() - started) / 1000;
    const head = await events.headPosition();
    const counts = await Promise.all(
      projections.map(async (p) => `${p.collection}=${await reads.count(p.collection)}`),
    );
    process.stdout.write(
      `rebuilt ${projections.length} projections into ${config.mongoUrl ? 'MongoDB' : 'memory (a check: memory read models rebuild at every boot)'} ` +
        `up to position ${head} in ${seconds.toFixed(2)} s (${counts.join(', ')})\n`,
    );
  } finally {
    await projector.stop();
    await reads.close();
    await events.close();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`error: ${(error as Error).message}\n`);
  process.exit(1);
});
