#!/usr/bin/env node
// The container image's entrypoint: `docker run web-research <service> [args]` runs
// dist/apps/<service>/src/main.js; `keys ...` and `projections:rebuild` run the CLIs; `mcp` runs the
// MCP server over stdio (in this process: its stdin and stdout are the MCP client's).
'use strict';
const { spawnSync } = require('node:child_process');
const path = require('node:path');

const SERVICES = [
  'standalone',
  'gateway',
  'search',
  'research',
  'extraction',
  'findall',
  'monitors',
  'webhooks',
  'projector',
];
const CLIS = { keys: 'keys.js', 'projections:rebuild': 'rebuild-projections.js' };
const STDIO = { mcp: 'mcp.js' };
const name = process.argv[2] ?? 'standalone';
const dist = path.join(__dirname, '..', 'dist', 'apps');
if (CLIS[name]) {
  // A CLI runs as its own program (it acts only as the main module), with its arguments and exit code.
  const cli = spawnSync(process.execPath, [path.join(dist, 'cli', 'src', CLIS[name]), ...process.argv.slice(3)], {
    stdio: 'inherit',
  });
  process.exit(cli.status ?? 1);
}
if (STDIO[name]) {
  process.argv.splice(2, 1);
  require(path.join(dist, 'cli', 'src', STDIO[name]));
  return;
}
if (!SERVICES.includes(name)) {
  console.error(
    `unknown service "${name}": one of ${[...SERVICES, ...Object.keys(CLIS), ...Object.keys(STDIO)].join(', ')}`,
  );
  process.exit(2);
}
// A service runs in this process (signals reach it directly), seeing its own arguments.
process.argv.splice(2, 1);
require(path.join(dist, name, 'src', 'main.js'));
