#!/usr/bin/env node
// `npm test`: installs what it needs (npm packages; Debian's nats-server when root and missing),
// type-checks and builds (e2e runs the compiled services as OS processes), then runs every jest
// project. Extra arguments go to jest.
'use strict';
const { execFileSync, spawnSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');
const { ensureInstalled, ensureBuilt, root } = require('./ensure-built');

function ensureNatsServer() {
  const found = ['/usr/sbin/nats-server', '/usr/bin/nats-server', '/usr/local/bin/nats-server'].some((p) => fs.existsSync(p));
  if (found) return;
  if (typeof process.getuid === 'function' && process.getuid() === 0) {
    console.error('[setup] installing nats-server (Debian package)…');
    execFileSync('apt-get', ['update', '-qq'], { stdio: 'inherit' });
    execFileSync('apt-get', ['install', '-y', '-qq', 'nats-server'], { stdio: 'inherit', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
  } else {
    console.error('[setup] nats-server is missing: install the Debian package nats-server');
  }
}

/** Debian's Chromium for the console's browser suite, when root and missing (that suite says it is skipped otherwise). */
function ensureChromium() {
  if (['/usr/bin/chromium', '/usr/bin/chromium-browser'].some((p) => fs.existsSync(p)) || process.env.CHROMIUM_PATH) return;
  if (typeof process.getuid === 'function' && process.getuid() === 0) {
    console.error('[setup] installing chromium (Debian package) for the browser suite…');
    try {
      execFileSync('apt-get', ['update', '-qq'], { stdio: 'inherit' });
      execFileSync('apt-get', ['install', '-y', '-qq', '--no-install-recommends', 'chromium'], { stdio: 'inherit', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
    } catch (error) {
      console.error(`[setup] chromium could not be installed (${error.message}): the browser suite will be skipped`);
    }
  } else {
    console.error('[setup] chromium is missing: install the Debian package chromium to run the browser suite');
  }
}

ensureInstalled();
ensureNatsServer();
ensureChromium();
ensureBuilt();
console.error('[test] type-checking tests…');
execFileSync(path.join(root, 'node_modules/.bin/tsc'), ['-p', 'tsconfig.json', '--noEmit'], { cwd: root, stdio: 'inherit' });
const jest = spawnSync(process.execPath, [path.join(root, 'node_modules/jest/bin/jest.js'), '--maxWorkers=2', ...process.argv.slice(2)], {
  cwd: root,
  stdio: 'inherit',
});
process.exit(jest.status ?? 1);
