import * as fs from 'node:fs';
import * as path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply } from 'fastify';

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
 * The page may load nothing but its own files and talk to nothing but this origin.
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
  const secure = (reply: FastifyReply) =>
    reply.header('Content-Security-Policy', policy).header('X-Content-Type-Options', 'nosniff').header('Referrer-Policy', 'no-referrer');
  await fastify.register(fastifyStatic, {
    root: dir,
    prefix: '/console/',
    // One route per file found at start (the console is built, not edited, while the gateway runs),
    // so /console/<route> can fall back to the page below.
    wildcard: false,
    index: false,
    setHeaders: (res) => {
      res.setHeader('Content-Security-Policy', policy);
      res.setHeader('X-Content-Type-Options', 'nosniff');
      res.setHeader('Cache-Control', 'no-cache');
    },
  });
  const page = (_request: unknown, reply: FastifyReply) => secure(reply).header('Cache-Control', 'no-cache').type('text/html; charset=utf-8').sendFile('index.html');
  fastify.get('/', page);
  fastify.get('/console', page);
  fastify.get('/console/', page);
  fastify.get('/console/*', page);
}
