#!/usr/bin/env node
// `npm test`: installs what it needs (npm packages; Debian's nats-server when root and missing),
// type-checks, checks the import rules, lints and builds (e2e runs the compiled services as OS processes), then runs the unit,
// integration and e2e projects two at a time, once they pass the timing-sensitive `serial` project
// alone, then the MongoDB contract suite and the cluster's black-box suite against FerretDB
// (scripts/ferretdb.js). Extra arguments go to jest (and skip the serial phase).
'use strict';
const { execFileSync, spawnSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');
const { ensureInstalled, ensureBuilt, root } = require('./ensure-built');
const { ferretDbBinary, startFerretDb, VERSION: FERRETDB_VERSION } = require('./ferretdb');
const { natsServerBinary, VERSION: NATS_VERSION } = require('./nats-server');

/** A Debian package the suites need, installed when missing and root; otherwise `missing` says what to do. */
function ensureDebianPackage(name, paths, missing) {
  if (paths.some((p) => fs.existsSync(p))) return;
  if (typeof process.getuid !== 'function' || process.getuid() !== 0)
    return console.error(`[setup] ${name} is missing: ${missing}`);
  console.error(`[setup] installing ${name} (Debian package)…`);
  try {
    execFileSync('apt-get', ['update', '-qq'], { stdio: 'inherit' });
    execFileSync('apt-get', ['install', '-y', '-qq', '--no-install-recommends', name], {
      stdio: 'inherit',
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    });
  } catch (error) {
    console.error(`[setup] ${name} could not be installed (${error.message}): ${missing}`);
  }
}

const ensureNatsServer = () =>
  ensureDebianPackage(
    'nats-server',
    ['/usr/sbin/nats-server', '/usr/bin/nats-server', '/usr/local/bin/nats-server'],
    'install the Debian package nats-server',
  );
/** Debian's Chromium for the console's browser suite (that suite says it is skipped without it). */
const ensureChromium = () =>
  process.env.CHROMIUM_PATH ||
  ensureDebianPackage(
    'chromium',
    ['/usr/bin/chromium', '/usr/bin/chromium-browser'],
    'install the Debian package chromium to run the browser suite',
  );

ensureInstalled();
ensureNatsServer();
// The release line production runs, built with Go once; Debian's older one otherwise.
{
  const nats = natsServerBinary();
  if (nats.bin) process.env.NATS_SERVER_BIN = nats.bin;
  else console.error(`[setup] no nats-server ${NATS_VERSION} (${nats.why}): the suites use the installed one`);
}
ensureChromium();
ensureBuilt();
console.error('[test] type-checking tests…');
execFileSync(path.join(root, 'node_modules/.bin/tsc'), ['-p', 'tsconfig.json', '--noEmit'], {
  cwd: root,
  stdio: 'inherit',
});
// The import rules (.dependency-cruiser.cjs): no cycles, nothing imports another library's insides,
// no library imports an app. A violation fails the run with dependency-cruiser's report.
console.error('[test] checking imports…');
const imports = spawnSync(
  process.execPath,
  [
    path.join(root, 'node_modules/dependency-cruiser/bin/dependency-cruise.mjs'),
    'apps',
    'libs',
    '--config',
    '.dependency-cruiser.cjs',
  ],
  { cwd: root, stdio: 'inherit' },
);
if (imports.status !== 0) process.exit(imports.status ?? 1);
// ESLint (eslint.config.mjs): no unused code, typescript-eslint's recommended rules.
console.error('[test] linting…');
const lint = spawnSync(process.execPath, [path.join(root, 'node_modules/eslint/bin/eslint.js'), '.'], {
  cwd: root,
  stdio: 'inherit',
});
if (lint.status !== 0) process.exit(lint.status ?? 1);
// Prettier (.prettierrc.json): every source formatted; `npm run format` rewrites what is not.
console.error('[test] checking formatting…');
const format = spawnSync(
  process.execPath,
  [path.join(root, 'node_modules/prettier/bin/prettier.cjs'), '--check', '--log-level', 'warn', '.'],
  { cwd: root, stdio: 'inherit' },
);
if (format.status !== 0) process.exit(format.status ?? 1);
const jestBin = path.join(root, 'node_modules/jest/bin/jest.js');
const extra = process.argv.slice(2);

/**
 * The MongoDB read store's contract suite runs against FerretDB (a MongoDB wire-protocol server,
 * built once with Go) unless MONGO_TEST_URL names a server already; without Go it says why it is
 * skipped. The server lives as long as the jest run.
 */
async function mongoForTests() {
  if (process.env.MONGO_TEST_URL) return { env: { MONGO_TEST_URL: process.env.MONGO_TEST_URL }, stop: () => undefined };
  const ferret = await startFerretDb();
  if (!ferret.url) {
    console.error(`[setup] no FerretDB (${ferret.why}): the MongoDB contract suite is skipped`);
    return { env: {}, stop: () => undefined };
  }
  console.error(`[setup] FerretDB ${FERRETDB_VERSION} at ${ferret.url} for the MongoDB contract suite`);
  return { env: { MONGO_TEST_URL: ferret.url, MONGO_TEST_SERVER: `ferretdb ${FERRETDB_VERSION}` }, stop: ferret.stop };
}

const MONGO_SPEC = 'libs/readmodels/src/mongo.read-store.spec.ts';

async function main() {
  // A whole run with FerretDB at hand runs the MongoDB suite in the last phase only; otherwise it
  // runs here and says why it is skipped.
  const mongoLater = extra.length === 0 && !process.env.MONGO_TEST_URL && Boolean(ferretDbBinary().bin);
  const jest = spawnSync(
    process.execPath,
    [
      jestBin,
      '--maxWorkers=2',
      '--selectProjects',
      'unit',
      'integration',
      'e2e',
      ...(mongoLater ? ['--testPathIgnorePatterns', '/node_modules/', MONGO_SPEC] : []),
      ...extra,
    ],
    { cwd: root, stdio: 'inherit' },
  );
  if (jest.status !== 0 || extra.length > 0) process.exit(jest.status ?? 1);
  // Timing-sensitive suites alone, once the rest has passed (a whole run only).
  console.error('[test] serial suites…');
  const serial = spawnSync(process.execPath, [jestBin, '--runInBand', '--selectProjects', 'serial'], {
    cwd: root,
    stdio: 'inherit',
  });
  if (serial.status !== 0) process.exit(serial.status ?? 1);
  // The MongoDB contract suite on FerretDB last, alone: its 17 MiB documents keep the server busy,
  // which is no load to put beside the e2e suites' time budgets.
  const mongo = await mongoForTests();
  if (!mongo.env.MONGO_TEST_URL) process.exit(0);
  console.error('[test] the MongoDB read store, and a cluster on it, against FerretDB…');
  const onMongo = (args, env) =>
    spawnSync(process.execPath, [jestBin, '--runInBand', ...args], {
      cwd: root,
      stdio: 'inherit',
      env: { ...process.env, ...env },
    });
  let status;
  try {
    status = onMongo([MONGO_SPEC, '--selectProjects', 'unit'], mongo.env).status;
    // The cluster's black-box suite with its read models in MongoDB: the projector service
    // writes them, every gateway reads them (cluster supervision is a file of its own, run in the e2e phase).
    if (status === 0)
      status = onMongo(['test/e2e/cluster.e2e.ts', '--selectProjects', 'e2e'], {
        MONGO_URL: `${mongo.env.MONGO_TEST_URL}webresearch`,
      }).status;
  } finally {
    mongo.stop();
  }
  process.exit(status ?? 1);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
