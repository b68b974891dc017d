/** The fetcher's page cache, on an allowed loopback server: freshness, no-store, the disk cache, shared concurrent fetches. */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { sleep } from './servers';
import { base, make, server, useFetcherServer } from './fetcher-server';

useFetcherServer();

describe('cache', () => {
  const counts = () => ({ connections: server.connections, requests: server.requests });

  it('a second fetch within max-age opens no connection; maxAgeMs 0 refetches', async () => {
    const f = make();
    const first = await f.fetch(`${base}/cached-1`);
    const after = counts();
    const second = await f.fetch(`${base}/cached-1`);
    expect(second).toEqual({ ...first, fromCache: true });
    expect(counts()).toEqual(after);
    const third = await f.fetch(`${base}/cached-1`, { maxAgeMs: 0 });
    expect(third.fromCache).toBe(false);
    expect(server.requests).toBe(after.requests + 1);
  });

  it('an entry older than maxAgeMs is refetched', async () => {
    const f = make();
    await f.fetch(`${base}/cached-2`);
    await sleep(40);
    const before = server.requests;
    expect((await f.fetch(`${base}/cached-2`, { maxAgeMs: 20 })).fromCache).toBe(false);
    expect(server.requests).toBe(before + 1);
  });

  it('Cache-Control: no-store is not cached', async () => {
    const f = make();
    await f.fetch(`${base}/no-store`);
    expect((await f.fetch(`${base}/no-store`)).fromCache).toBe(false);
  });

  it('the disk cache survives a new fetcher instance', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fetch-cache-'));
    try {
      const first = await make({ cacheDir: dir }).fetch(`${base}/on-disk`);
      expect(fs.readdirSync(dir).filter((n) => n.endsWith('.json'))).toHaveLength(1);
      const after = counts();
      const again = await make({ cacheDir: dir }).fetch(`${base}/on-disk`);
      expect(again).toEqual({ ...first, fromCache: true });
      expect(counts()).toEqual(after);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('concurrent fetches of one URL share a single request', async () => {
    const f = make();
    const before = server.requests;
    const pages = await Promise.all(Array.from({ length: 5 }, () => f.fetch(`${base}/slow?i=shared`)));
    expect(server.requests).toBe(before + 1);
    expect(new Set(pages.map((p) => p.body))).toEqual(new Set(['slow shared']));
  });
});
