#!/usr/bin/env node
// The container image's entrypoint: `docker run web-research <service> [args]` runs
// dist/apps/<service>/src/main.js; `keys ...` and `projections:rebuild` run the CLIs.
'use strict';
const path = require('node:path');

const SERVICES = ['standalone', 'gateway', 'search', 'research', 'extraction', 'findall', 'monitors', 'webhooks', 'projector'];
const CLIS = { keys: 'keys.js', 'projections:rebuild': 'rebuild-projections.js' };
const name = process.argv[2] ?? 'standalone';
const dist = path.join(__dirname, '..', 'dist', 'apps');
let main;
if (SERVICES.includes(name)) main = path.join(dist, name, 'src', 'main.js');
else if (CLIS[name]) main = path.join(dist, 'cli', 'src', CLIS[name]);
else {
  console.error(`unknown service "${name}": one of ${[...SERVICES, ...Object.keys(CLIS)].join(', ')}`);
  process.exit(2);
}
// The started program sees its own arguments, as if run directly.
process.argv.splice(2, 1);
require(main);
