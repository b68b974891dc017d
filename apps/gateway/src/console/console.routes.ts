import * as fs from 'node:fs';
import * as path from 'node:path';
import type { FastifyInstance, FastifyReply } from 'fastify';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json; charset=utf-8',
};

/** Every file of the folder by its URL path (`pages/search.js`), read once: the console is built, not edited, while the gateway runs. */
function readFiles(dir: string): Map<string, { type: string; body: Buffer }> {
  const files = new Map<string, { type: string; body: Buffer }>();
  const walk = (folder: string) => {
    for (const entry of fs.readdirSync(folder, { withFileTypes: true })) {
      const full = path.join(folder, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.isFile() && TYPES[path.extname(entry.name)]) {
        files.set(path.relative(dir, full).split(path.sep).join('/'), {
          type: TYPES[path.extname(entry.name)]!,
          body: fs.readFileSync(full),
        });
      }
    }
  };
  walk(dir);
  return files;
}

/**
 * Where the console's static files are: `dist/console` once built (`npm run build` copies
 * apps/gateway/console there), else the source folder itself.
 */
export function consoleDir(): string | null {
  let dir = __dirname;
  while (!fs.existsSync(path.join(dir, 'package.json')) && path.dirname(dir) !== dir) dir = path.dirname(dir);
  for (const candidate of [path.join(dir, 'dist', 'console'), path.join(dir, 'apps', 'gateway', 'console')]) {
    if (fs.existsSync(path.join(candidate, 'index.html'))) return candidate;
  }
  return null;
}

/**
 * The console: static files under /console/, and its page at / and at every /console/<route>
 * that is not a file (the page routes itself). No API route is shadowed: they all live under /v1.
 * The page may load nothing but its own files and talk to nothing but this origin. Served from
 * memory (some twenty small files read at start) rather than by @fastify/static: the version Nest's
 * Fastify adapter asks for pulls an ESM-only dependency the CommonJS test runtime cannot load.
 */
export async function registerConsole(fastify: FastifyInstance, dir: string | null = consoleDir()): Promise<void> {
  if (!dir) return;
  const policy = [
    "default-src 'self'",
    "script-src 'self'",
    // Inline style attributes (bar widths, chart colours) are the page's own: no script can come through them.
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "connect-src 'self'",
    "frame-ancestors 'none'",
    "base-uri 'none'",
    "form-action 'self'",
  ].join('; ');
  const files = readFiles(dir);
  const index = files.get('index.html');
  if (!index) return;
  const send = (reply: FastifyReply, file: { type: string; body: Buffer }) =>
    reply
      .header('Content-Security-Policy', policy)
      .header('X-Content-Type-Options', 'nosniff')
      .header('Referrer-Policy', 'no-referrer')
      .header('Cache-Control', 'no-cache')
      .type(file.type)
      .send(file.body);
  // Files are looked up by exact path in what was read at start: no request path reaches the disk.
  const page = (_request: unknown, reply: FastifyReply) => send(reply, index);
  fastify.get('/', page);
  fastify.get('/console', page);
  fastify.get('/console/*', (request: { params: unknown }, reply) => {
    const wanted = (request.params as { '*': string })['*'];
    const file = files.get(wanted);
    if (file) return send(reply, file);
    // A file the console does not have is missing; any other path is one of its pages.
    if (TYPES[path.extname(wanted)] && wanted !== 'index.html')
      return reply.code(404).type('text/plain; charset=utf-8').send('not found');
    return send(reply, index);
  });
}
