#!/usr/bin/env node
// `npm start`: install and build when needed, then run the standalone service in this process
// group, passing SIGINT/SIGTERM through so it drains before exiting.
'use strict';
const { spawn } = require('node:child_process');
const path = require('node:path');
const { ensureInstalled, ensureBuilt, root } = require('./ensure-built');

ensureInstalled();
ensureBuilt();
const child = spawn(process.execPath, [path.join(root, 'dist/apps/standalone/src/main.js')], { stdio: 'inherit' });
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
