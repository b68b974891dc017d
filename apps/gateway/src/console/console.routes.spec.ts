import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import { registerConsole } from './console.routes';

describe('registerConsole', () => {
  let app: FastifyInstance;
  let dir: string;

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'console-'));
    fs.writeFileSync(
      path.join(dir, 'index.html'),
      '<!doctype html><title>console</title><script type="module" src="/console/app.js"></script>',
    );
    fs.mkdirSync(path.join(dir, 'pages'));
    fs.writeFileSync(path.join(dir, 'app.js'), 'export const x = 1;');
    fs.writeFileSync(path.join(dir, 'pages', 'search.js'), 'export const y = 2;');
    fs.writeFileSync(path.join(os.tmpdir(), 'console-secret.txt'), 'TOP-SECRET-4711');
    app = Fastify();
    await registerConsole(app, dir);
    app.get('/v1/ping', async () => ({ ok: true }));
    await app.ready();
  });
  afterAll(() => app.close());

  it('serves the page at / and at any /console route that is not a file, with a policy that keeps it to itself', async () => {
    for (const url of ['/', '/console', '/console/', '/console/runs/search/abc']) {
      const res = await app.inject({ method: 'GET', url });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toContain('text/html');
      expect(res.body).toContain('<title>console</title>');
      expect(res.headers['content-security-policy']).toContain("default-src 'self'");
      expect(res.headers['content-security-policy']).toContain("connect-src 'self'");
    }
  });

  it('serves its files with their types, and nothing outside its folder', async () => {
    const js = await app.inject({ method: 'GET', url: '/console/pages/search.js' });
    expect(js.statusCode).toBe(200);
    expect(js.headers['content-type']).toContain('javascript');
    expect(js.body).toBe('export const y = 2;');
    for (const url of [
      '/console/../console-secret.txt',
      '/console/%2e%2e/console-secret.txt',
      '/console/..%2fconsole-secret.txt',
    ]) {
      const res = await app.inject({ method: 'GET', url });
      expect(res.body).not.toContain('TOP-SECRET-4711');
    }
  });

  it('answers 404 for a file it does not have', async () => {
    expect((await app.inject({ method: 'GET', url: '/console/missing.js' })).statusCode).toBe(404);
  });

  it('leaves the API alone', async () => {
    expect((await app.inject({ method: 'GET', url: '/v1/ping' })).json()).toEqual({ ok: true });
    expect((await app.inject({ method: 'GET', url: '/v1/nothing' })).statusCode).toBe(404);
  });

  it('registers nothing when there is no console folder', async () => {
    const bare = Fastify();
    await registerConsole(bare, null);
    await bare.ready();
    expect((await bare.inject({ method: 'GET', url: '/' })).statusCode).toBe(404);
    await bare.close();
  });
});
