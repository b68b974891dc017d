import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { HostQueue } from './host-queue';
import { type CachedPage, PageCache, SingleFlight } from './page-cache';

const page = (url: string, fetchedAt: number, body = 'hello'): CachedPage => ({
  url,
  finalUrl: url,
  status: 200,
  contentType: 'text/html',
  charset: 'utf-8',
  body,
  bytes: body.length,
  fetchedAt: new Date(fetchedAt).toISOString(),
});

describe('PageCache', () => {
  let now = 1_000_000;
  let dir: string;
  beforeEach(() => {
    now = 1_000_000;
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'page-cache-'));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('serves a copy younger than the reader’s maxAgeMs only', async () => {
    const cache = new PageCache({ now: () => now });
    await cache.set(page('https://a.test/', now));
    now += 1000;
    expect(await cache.get('https://a.test/', 2000)).toMatchObject({ body: 'hello' });
    expect(await cache.get('https://a.test/', 1000)).toBeUndefined();
    expect(await cache.get('https://a.test/', 0)).toBeUndefined();
  });

  it('evicts the least recently used beyond `entries`', async () => {
    const cache = new PageCache({ entries: 2, now: () => now });
    for (const u of ['https://a.test/', 'https://b.test/', 'https://c.test/']) await cache.set(page(u, now));
    expect(await cache.get('https://a.test/', 10_000)).toBeUndefined();
    expect(await cache.get('https://c.test/', 10_000)).toBeDefined();
  });

  it('persists to disk atomically and reads back in a new instance', async () => {
    await new PageCache({ dir, now: () => now }).set(page('https://a.test/x', now, 'on disk'));
    const files = fs.readdirSync(dir);
    expect(files).toHaveLength(1);
    expect(files[0]).toMatch(/^[0-9a-f]{64}\.json$/); // no temp file left behind
    expect(await new PageCache({ dir, now: () => now }).get('https://a.test/x', 10_000)).toMatchObject({
      body: 'on disk',
    });
  });

  it('a damaged or foreign file is a miss', async () => {
    const cache = new PageCache({ dir, now: () => now });
    await cache.set(page('https://a.test/', now));
    const [file] = fs.readdirSync(dir);
    fs.writeFileSync(path.join(dir, file), '{"url": "https://a.test/", "bo');
    expect(await new PageCache({ dir, now: () => now }).get('https://a.test/', 10_000)).toBeUndefined();
    fs.writeFileSync(path.join(dir, file), JSON.stringify(page('https://other.test/', now)));
    expect(await new PageCache({ dir, now: () => now }).get('https://a.test/', 10_000)).toBeUndefined();
  });
});

describe('SingleFlight', () => {
  it('runs one work for concurrent callers of a key', async () => {
    const flights = new SingleFlight<number>();
    let runs = 0;
    const work = async () => {
      runs++;
      await new Promise((r) => setTimeout(r, 10));
      return 42;
    };
    expect(await Promise.all([flights.run('k', work), flights.run('k', work), flights.run('other', work)])).toEqual([
      42, 42, 42,
    ]);
    expect(runs).toBe(2);
    await flights.run('k', work);
    expect(runs).toBe(3); // settled flights are forgotten
  });

  it('aborts the shared work only when every caller has left', async () => {
    const flights = new SingleFlight<string>();
    let workSignal: AbortSignal | undefined;
    const work = (signal: AbortSignal) => {
      workSignal = signal;
      return new Promise<string>((resolve, reject) => {
        const t = setTimeout(() => resolve('done'), 50);
        signal.addEventListener('abort', () => (clearTimeout(t), reject(signal.reason)));
      });
    };
    const a = new AbortController();
    const b = new AbortController();
    const pa = flights.run('k', work, a.signal);
    const pb = flights.run('k', work, b.signal);
    a.abort(new Error('a left'));
    await expect(pa).rejects.toThrow('a left');
    expect(workSignal!.aborted).toBe(false);
    b.abort(new Error('b left'));
    await expect(pb).rejects.toThrow('b left');
    expect(workSignal!.aborted).toBe(true);
  });
});

describe('HostQueue', () => {
  it('limits per host, not globally, and lets a queued caller give up', async () => {
    const queue = new HostQueue(1);
    const active: Record<string, number> = {};
    let maxA = 0;
    let both = false;
    const job = (host: string) => async () => {
      active[host] = (active[host] ?? 0) + 1;
      if (host === 'a') maxA = Math.max(maxA, active[host]);
      if (active.a && active.b) both = true;
      await new Promise((r) => setTimeout(r, 20));
      active[host]--;
      return host;
    };
    const first = queue.run('a', job('a'));
    const results = Promise.all([queue.run('a', job('a')), queue.run('a', job('a')), queue.run('b', job('b'))]);
    const queued = new AbortController();
    const abandoned = queue.run('a', job('a'), queued.signal);
    queued.abort(new Error('gone'));
    await expect(abandoned).rejects.toThrow('gone');
    expect(await first).toBe('a');
    expect(await results).toEqual(['a', 'a', 'b']);
    expect(maxA).toBe(1);
    expect(both).toBe(true);
  });
});

describe('PageCache on disk: bounded', () => {
  const sized = (url: string, chars: number): CachedPage => page(url, Date.now(), 'x'.repeat(chars));

  it('never lets its folder grow past maxDiskBytes: the oldest written pages go first', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wr-page-cache-bound-'));
    const cache = new PageCache({ dir, maxDiskBytes: 1_000_000, entries: 1 });
    for (let i = 0; i < 60; i++) await cache.set(sized(`https://site.test/${i}`, 100_000));
    const used = fs.readdirSync(dir).reduce((sum, name) => sum + fs.statSync(path.join(dir, name)).size, 0);
    expect(used).toBeLessThanOrEqual(1_000_000);
    // The newest is still there; the first is gone from disk (memory holds one page only).
    expect(await cache.get('https://site.test/59', 60_000)).toBeDefined();
    cache.clearMemory();
    expect(await cache.get('https://site.test/0', 60_000)).toBeUndefined();
    expect(await cache.get('https://site.test/59', 60_000)).toBeDefined();
  });

  it('counts what the folder held before it started (a restart, another process)', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wr-page-cache-bound-'));
    const first = new PageCache({ dir, maxDiskBytes: 10_000_000 });
    for (let i = 0; i < 8; i++) await first.set(sized(`https://site.test/a${i}`, 100_000));
    const second = new PageCache({ dir, maxDiskBytes: 500_000 });
    await second.set(sized('https://site.test/b', 100_000));
    expect(await second.measure()).toBeLessThanOrEqual(500_000);
  });
});
