// What a boot loads. Libraries that take tenths of a second to load and that many deployments
// never use (the answer engine's parsers, the MongoDB, EventStoreDB and OpenAI clients, the
// browser driver, the MCP SDK, mingo) are loaded where first used, not with the process: together
// they took 1.5 s of a 3 s start. This requires the standalone service's modules (built, as
// `npm start` runs them) in a fresh process and lists the packages that came with them.
import { spawnSync } from 'node:child_process';
import * as path from 'node:path';

const root = path.resolve(__dirname, '../..');
const LOADED_ON_FIRST_USE = [
  'compromise',
  'chrono-node',
  'mingo',
  'mongodb',
  '@eventstore/db-client',
  '@grpc/grpc-js',
  'puppeteer-core',
  '@modelcontextprotocol/sdk',
  'openai',
];

function packagesLoadedBy(modules: string[]): string[] {
  const script = `
    for (const m of ${JSON.stringify(modules)}) require(m);
    const names = new Set();
    for (const file of Object.keys(require.cache)) {
      const m = /node_modules\\/((?:@[^/]+\\/)?[^/]+)\\//.exec(file);
      if (m) names.add(m[1]);
    }
    process.stdout.write(JSON.stringify([...names].sort()));`;
  const run = spawnSync(process.execPath, ['-e', script], { cwd: root, encoding: 'utf8', timeout: 60_000 });
  if (run.status !== 0) throw new Error(`the modules did not load (status ${run.status}): ${run.stderr}`);
  return JSON.parse(run.stdout) as string[];
}

describe('boot loads', () => {
  it('the standalone service and its HTTP app load none of the libraries kept for first use', () => {
    const loaded = packagesLoadedBy([
      path.join(root, 'dist/apps/standalone/src/standalone.module.js'),
      path.join(root, 'dist/apps/gateway/src/http/create-http-app.js'),
    ]);
    // The check sees packages at all (the framework is there), so an empty answer is not a pass.
    expect(loaded).toEqual(expect.arrayContaining(['@nestjs/core', 'fastify']));
    expect(loaded.filter((name) => LOADED_ON_FIRST_USE.includes(name))).toEqual([]);
  });
});
