#!/usr/bin/env node
// The nats-server the suites run: the release production runs (k8s/base/nats.yaml and
// deploy/compose.yaml use the 2.11 image), built once from the Go module proxy into a cache
// directory outside the clone. Debian's package is 2.9.10: it keeps routing to a stalled cluster
// node while it has messages for it (fixed in 2.9.16), so requests are lost while a node is
// paused. 2.10.29, run before, formed its JetStream meta group without one of three nodes started
// together in about one cold start in twenty (6 of 120 measured; the group then stays at two and
// no stream replicated three times can be placed); 2.11 did not in 310. Without Go the suites fall
// back to the installed one.
// Plain JS: `npm test` and `npm run test:faults` run it before jest.
'use strict';
const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { hasGo } = require('./ferretdb');

const VERSION = 'v2.11.17';
const MODULE = 'github.com/nats-io/nats-server/v2';
/** test/support/nats-server.ts looks for `nats-server-v*` here too. */
const CACHE_ROOT = path.join(os.homedir(), '.cache', 'web-research');
const CACHE = path.join(CACHE_ROOT, `nats-server-${VERSION}`);

/** The nats-server binary (NATS_SERVER_BIN, or built once into the cache), or why there is none. */
function natsServerBinary() {
  if (process.env.NATS_SERVER_BIN) return { bin: process.env.NATS_SERVER_BIN };
  const bin = path.join(CACHE, 'nats-server');
  if (fs.existsSync(bin)) return { bin };
  if (!hasGo()) return { why: 'no Go toolchain to build it with (or set NATS_SERVER_BIN)' };
  console.error(`[setup] building nats-server ${VERSION} (once; cached in ${CACHE})…`);
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'wr-nats-build-'));
  try {
    execFileSync('go', ['install', `${MODULE}@${VERSION}`], {
      cwd: work,
      stdio: ['ignore', 'inherit', 'inherit'],
      env: { ...process.env, GOBIN: CACHE, CGO_ENABLED: '0' },
    });
  } catch (error) {
    return { why: `building nats-server ${VERSION} failed: ${error.message}` };
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
  return fs.existsSync(bin) ? { bin } : { why: `go install left no binary in ${CACHE}` };
}

module.exports = { natsServerBinary, VERSION, CACHE_ROOT };

// `node scripts/nats-server.js`: builds it when missing and prints its path (or why there is none).
if (require.main === module) {
  const found = natsServerBinary();
  if (found.bin) console.log(found.bin);
  else console.error(`[setup] no nats-server ${VERSION} (${found.why}): the suites use the installed one`);
}
