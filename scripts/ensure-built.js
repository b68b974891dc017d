#!/usr/bin/env node
// Makes a fresh clone runnable: installs dependencies when missing or stale, then compiles
// TypeScript to dist/ when any source is newer than the last build. Plain JS: runs before install.
'use strict';
const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const root = path.resolve(__dirname, '..');
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const run = (cmd, args) => execFileSync(cmd, args, { cwd: root, stdio: ['ignore', 'inherit', 'inherit'] });
const mtime = (file) => (fs.existsSync(file) ? fs.statSync(file).mtimeMs : 0);

function newestSource(dir) {
  let newest = 0;
  if (!fs.existsSync(dir)) return 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name === 'dist') continue;
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestSource(full));
    else if (/\.(ts|json|html|css|js)$/.test(entry.name)) newest = Math.max(newest, fs.statSync(full).mtimeMs);
  }
  return newest;
}

function ensureInstalled() {
  const marker = path.join(root, 'node_modules', '.package-lock.json');
  const lock = path.join(root, 'package-lock.json');
  // Installed when the lock is newer than the last install or a package the scripts run is missing.
  const present = ['better-sqlite3', 'dependency-cruiser'].every((name) =>
    fs.existsSync(path.join(root, 'node_modules', name)),
  );
  if (mtime(marker) >= mtime(lock) && present) return;
  console.error('[setup] installing dependencies (npm ci)…');
  // Dev dependencies too (jest, typescript, dependency-cruiser), even where NODE_ENV=production would omit them.
  run(npm, ['ci', '--include=dev', '--no-audit', '--no-fund']);
}

function ensureBuilt() {
  const stamp = path.join(root, 'dist', '.build-stamp');
  const sources = Math.max(
    ...['apps', 'libs', 'bench', 'scripts', 'test/support'].map((d) => newestSource(path.join(root, d))),
    mtime(path.join(root, 'tsconfig.json')),
    mtime(path.join(root, 'tsconfig.build.json')),
    mtime(path.join(root, 'package-lock.json')),
  );
  if (mtime(stamp) >= sources && !process.argv.includes('--force')) return;
  console.error('[setup] compiling TypeScript…');
  const bin = (name) => path.join(root, 'node_modules', '.bin', name);
  run(bin('tsc'), ['-p', 'tsconfig.build.json']);
  run(bin('tsc-alias'), ['-p', 'tsconfig.build.json']);
  // The TypeScript client is a package of its own (no @app/* imports): its own build, with
  // declarations, into dist/libs/client beside its package.json, ready to publish from there.
  run(bin('tsc'), ['-p', path.join('libs', 'client', 'tsconfig.json')]);
  fs.copyFileSync(
    path.join(root, 'libs', 'client', 'package.json'),
    path.join(root, 'dist', 'libs', 'client', 'package.json'),
  );
  // The console is static files: copied as they are, served by the gateway from dist/console.
  const consoleSrc = path.join(root, 'apps', 'gateway', 'console');
  const consoleOut = path.join(root, 'dist', 'console');
  fs.rmSync(consoleOut, { recursive: true, force: true });
  if (fs.existsSync(consoleSrc)) fs.cpSync(consoleSrc, consoleOut, { recursive: true });
  fs.writeFileSync(stamp, new Date().toISOString() + '\n');
}

module.exports = { ensureInstalled, ensureBuilt, root };

if (require.main === module) {
  ensureInstalled();
  ensureBuilt();
}
