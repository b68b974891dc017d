import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { availableMemory, preloadFile, preloadWanted } from './file-preload';
import { LocalSearchProvider } from './local.search-provider';

const MB = 2 ** 20;

describe('reading the index file ahead into the page cache', () => {
  let dir: string;
  beforeEach(() => (dir = fs.mkdtempSync(path.join(os.tmpdir(), 'preload-'))));
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('auto reads a file of at most half the memory available; on always; off never', () => {
    expect(preloadWanted('auto', 400 * MB, 1_000 * MB)).toBe(true);
    expect(preloadWanted('auto', 500 * MB, 1_000 * MB)).toBe(true);
    expect(preloadWanted('auto', 501 * MB, 1_000 * MB)).toBe(false);
    expect(preloadWanted('on', 5_000 * MB, 1_000 * MB)).toBe(true);
    expect(preloadWanted('off', 1 * MB, 1_000 * MB)).toBe(false);
    expect(preloadWanted('on', 0, 1_000 * MB)).toBe(false);
  });

  it('in a container, the memory available is what its limit leaves (cgroup v2 or v1), never more than the system has', () => {
    const files = (entries: Record<string, string>) => (file: string) => entries[file] ?? null;
    const system = 16_000 * MB;
    expect(availableMemory(files({}), system)).toBe(system);
    expect(
      availableMemory(
        files({ '/sys/fs/cgroup/memory.max': '1073741824\n', '/sys/fs/cgroup/memory.current': '268435456\n' }),
        system,
      ),
    ).toBe(768 * MB);
    // No limit.
    expect(
      availableMemory(files({ '/sys/fs/cgroup/memory.max': 'max\n', '/sys/fs/cgroup/memory.current': '1\n' }), system),
    ).toBe(system);
    expect(
      availableMemory(
        files({
          '/sys/fs/cgroup/memory/memory.limit_in_bytes': '536870912',
          '/sys/fs/cgroup/memory/memory.usage_in_bytes': '600000000',
        }),
        system,
      ),
    ).toBe(0);
    expect(
      availableMemory(
        files({
          '/sys/fs/cgroup/memory/memory.limit_in_bytes': '9223372036854771712',
          '/sys/fs/cgroup/memory/memory.usage_in_bytes': '5',
        }),
        system,
      ),
    ).toBe(system);
  });

  it('reads the whole file, a chunk at a time, and stops where it is told to', async () => {
    const file = path.join(dir, 'f.db');
    fs.writeFileSync(file, Buffer.alloc(5 * MB + 123, 7));
    const whole = await preloadFile(file, 'on', new AbortController().signal);
    expect(whole).toMatchObject({ bytes: 5 * MB + 123, size: 5 * MB + 123, completed: true });
    const stop = new AbortController();
    stop.abort();
    expect(await preloadFile(file, 'on', stop.signal)).toMatchObject({ bytes: 0, completed: false });
    // Too large for the memory said to be available: not read.
    expect(await preloadFile(file, 'auto', new AbortController().signal, 4 * MB)).toBeNull();
  });

  it('the provider reads its index file after boot and says so; with preload off it reads nothing ahead', async () => {
    const pages = path.join(dir, 'pages');
    fs.mkdirSync(pages);
    for (let i = 0; i < 20; i++)
      fs.writeFileSync(path.join(pages, `p${i}.md`), `# Page ${i}\n\nA page about tidal energy number ${i}.`);
    const open = (preload: 'on' | 'off', reports: unknown[]) =>
      new LocalSearchProvider({
        dataDir: path.join(dir, 'data'),
        indexDir: pages,
        watch: false,
        searchThread: false,
        preload,
        onPreload: (report) => reports.push(report),
      });
    const reports: unknown[] = [];
    const provider = open('on', reports);
    await provider.ready();
    expect((await provider.search({ query: 'tidal energy', limit: 3 })).hits.length).toBe(3);
    // In the background: told once it has read the file to its end (its size then; new pages are in the log beside it).
    for (let i = 0; i < 200 && reports.length === 0; i++) await new Promise((r) => setTimeout(r, 10));
    await provider.close();
    expect(reports).toEqual([expect.objectContaining({ completed: true })]);
    const [{ bytes, size }] = reports as Array<{ bytes: number; size: number }>;
    expect(bytes).toBe(size);
    expect(size).toBeGreaterThan(0);

    const none: unknown[] = [];
    const off = open('off', none);
    await off.ready();
    await off.close();
    expect(none).toEqual([]);
  });
});
