import { parentPort, workerData } from 'node:worker_threads';
import { extractAny } from '@app/extraction';
import { prepareFile, toWire } from './extraction-pool';

/** An extraction worker (see ExtractionPool): reads, extracts and analyses the folder files it is sent. */
const { dir, source } = workerData as { dir: string; source: string };
parentPort!.on('message', async (files: string[]) => {
  const out = [];
  for (const file of files) out.push(toWire(await prepareFile(dir, file, source, extractAny, true)));
  parentPort!.postMessage(out);
});
