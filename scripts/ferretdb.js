#!/usr/bin/env node
// FerretDB for the tests: a real MongoDB wire-protocol server (Apache 2.0; pure Go, the SQLite
// backend), so the MongoDB read store meets a server. Built once from the Go module proxy into a
// cache directory outside the clone, then started on a free loopback port
// with its data in a temporary directory. Plain JS: `npm test` runs it before jest.
'use strict';
const { execFileSync, spawn } = require('node:child_process');
const fs = require('node:fs');
const net = require('node:net');
const os = require('node:os');
const path = require('node:path');

const VERSION = 'v1.24.2';
const MODULE_ROOT = 'github.com/FerretDB/FerretDB';
const CACHE =
  process.env.FERRETDB_CACHE_DIR || path.join(os.homedir(), '.cache', 'web-research', `ferretdb-${VERSION}`);
const READY_TIMEOUT_MS = 30_000;

const hasGo = () => {
  try {
    execFileSync('go', ['version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
};

/** The FerretDB binary (FERRETDB_BIN, or built once into the cache), or why there is none. */
function ferretDbBinary() {
  if (process.env.FERRETDB_BIN) return { bin: process.env.FERRETDB_BIN };
  const bin = path.join(CACHE, 'ferretdb');
  if (fs.existsSync(bin)) return { bin };
  if (!hasGo()) return { why: 'no Go toolchain to build FerretDB with (or set FERRETDB_BIN)' };
  console.error(`[setup] building FerretDB ${VERSION} (once; cached in ${CACHE})…`);
  fs.mkdirSync(CACHE, { recursive: true });
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'wr-ferretdb-src-'));
  try {
    // The module as the proxy serves it, copied: its build/version/version.txt is empty there (the
    // release process fills it from git), and the binary refuses to start without a version.
    const { Dir } = JSON.parse(
      execFileSync('go', ['mod', 'download', '-json', `${MODULE_ROOT}@${VERSION}`], { encoding: 'utf8' }),
    );
    const src = path.join(work, 'src');
    fs.cpSync(Dir, src, { recursive: true });
    execFileSync('chmod', ['-R', 'u+w', src]);
    fs.writeFileSync(path.join(src, 'build', 'version', 'version.txt'), `${VERSION}\n`);
    execFileSync('go', ['build', '-o', bin, './cmd/ferretdb'], {
      cwd: src,
      stdio: ['ignore', 'inherit', 'inherit'],
      env: { ...process.env, CGO_ENABLED: '0' },
    });
  } catch (error) {
    return { why: `building FerretDB ${VERSION} failed: ${error.message}` };
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
  return fs.existsSync(bin) ? { bin } : { why: `go install left no binary in ${CACHE}` };
}

const freePort = () =>
  new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });

const answers = (port) =>
  new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });

/**
 * Starts FerretDB on a free loopback port, its SQLite files in a fresh temporary directory:
 * `{url, stop}`, or `{why}` when it cannot run here. Output goes to a log file in that directory.
 */
async function startFerretDb() {
  const found = ferretDbBinary();
  if (!found.bin) return { why: found.why };
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wr-ferretdb-'));
  const port = await freePort();
  const log = fs.openSync(path.join(dir, 'ferretdb.log'), 'a');
  const child = spawn(
    found.bin,
    [
      '--handler=sqlite',
      `--sqlite-url=file:${dir}/`,
      `--listen-addr=127.0.0.1:${port}`,
      '--telemetry=disable',
      // its debug HTTP listener defaults to 127.0.0.1:8088: any free port, so two can run
      '--debug-addr=127.0.0.1:0',
      `--state-dir=${dir}`,
      '--log-level=warn',
    ],
    { stdio: ['ignore', log, log] },
  );
  let exited = null;
  child.once('exit', (code) => (exited = code));
  const stop = () => {
    if (exited === null) child.kill('SIGTERM');
    fs.rmSync(dir, { recursive: true, force: true });
  };
  const until = Date.now() + READY_TIMEOUT_MS;
  while (Date.now() < until) {
    if (exited !== null) break;
    if (await answers(port)) return { url: `mongodb://127.0.0.1:${port}/`, stop, dir };
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const output = fs.readFileSync(path.join(dir, 'ferretdb.log'), 'utf8').slice(-2000);
  stop();
  return {
    why: `FerretDB did not answer on port ${port} (${exited === null ? 'timeout' : `exit ${exited}`}): ${output}`,
  };
}

module.exports = { startFerretDb, ferretDbBinary, hasGo, VERSION };

// `node scripts/ferretdb.js`: starts one and prints its URL until interrupted (for running the suites by hand).
if (require.main === module) {
  startFerretDb().then((started) => {
    if (!started.url) {
      console.error(started.why);
      process.exit(1);
    }
    console.log(`MONGO_TEST_URL=${started.url}`);
    const end = () => (started.stop(), process.exit(0));
    process.on('SIGINT', end);
    process.on('SIGTERM', end);
  });
}
