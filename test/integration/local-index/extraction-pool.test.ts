import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

/**
 * The compiled extraction pool (dist/, which `npm test` builds first): folder files read, extracted
 * and analysed on worker threads. Under jest's TypeScript sources there is no compiled worker
 * script (the pool would run inline), so this suite loads dist/.
 */
const DIST = path.resolve(__dirname, '..', '..', '..', 'dist', 'libs', 'search-engine', 'src', 'extraction-pool.js');
const { ExtractionPool, prepareFile } = require(
  DIST,
) as typeof import('../../../libs/search-engine/src/extraction-pool');
type Prepared = Awaited<ReturnType<typeof prepareFile>>;
type Pool = InstanceType<typeof ExtractionPool>;
const workersOf = (pool: Pool) => (pool as unknown as { workers: Array<{ terminate(): Promise<number> }> }).workers;

const page = (n: number) =>
  `<!doctype html><html lang="en"><head><title>Harbour note ${n}</title></head><body><main><h1>Harbour note ${n}</h1>` +
  `<p>Ferry ${n} leaves the north pier at ${n % 24} o'clock and carries ${n * 3} passengers across the bay.</p></main></body></html>`;

describe('the extraction pool (compiled workers)', () => {
  let dir: string;
  const files: string[] = [];
  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'extraction-pool-'));
    for (let n = 0; n < 200; n++) {
      const name = `note-${String(n).padStart(3, '0')}.html`;
      // Every 50th file has no text, and one "file" is a folder: neither gives a page.
      if (n % 50 === 7) fs.writeFileSync(path.join(dir, name), '<html><body></body></html>');
      else if (n === 99) fs.mkdirSync(path.join(dir, name));
      else fs.writeFileSync(path.join(dir, name), page(n));
      files.push(name);
    }
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  const batchesOf = (size: number) =>
    Array.from({ length: Math.ceil(files.length / size) }, (_, i) => files.slice(i * size, (i + 1) * size));
  const summary = (p: Prepared) =>
    p && { url: p.doc.url, title: p.doc.title, textLen: p.analysed.textLen, terms: [...p.analysed.textTf].sort() };

  it('answers each batch in order, with the pages the main thread would extract itself', async () => {
    const pool = new ExtractionPool(dir, 'folder');
    try {
      expect(workersOf(pool).length).toBe(Math.max(1, Math.min(4, os.availableParallelism())));
      // Every batch is handed out at once: they queue in the workers.
      const answers = (await Promise.all(batchesOf(25).map((batch) => pool.prepare(batch)))).flat();
      expect(answers).toHaveLength(files.length);
      const inline = await Promise.all(files.map((f) => prepareFile(dir, f, 'folder')));
      expect(answers.map(summary)).toEqual(inline.map(summary));
      expect(answers.filter((a) => a === null)).toHaveLength(5);
      expect(answers[12]?.doc.title).toBe('Harbour note 12');
      expect(answers[12]?.analysed.textTf.get('passenger')).toBe(1);
      expect(await pool.prepare([])).toEqual([]);
    } finally {
      await pool.close();
    }
  });

  it('the workers go on through their queue while the main thread is blocked (writing a segment)', async () => {
    const pool = new ExtractionPool(dir, 'folder');
    try {
      await pool.prepare(files.slice(0, 2)); // the workers are up
      const settled: boolean[] = [];
      const pending = batchesOf(25).map((batch, i) => pool.prepare(batch).then(() => (settled[i] = true)));
      // The main thread holds for two seconds; the eight batches take the workers well under one.
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 2_000);
      await new Promise((resolve) => setImmediate(resolve));
      // Answered in the first turn of the event loop: nothing waited for the main thread to hand it out.
      expect(settled.filter(Boolean)).toHaveLength(8);
      await Promise.all(pending);
    } finally {
      await pool.close();
    }
  });

  it('a worker that stops fails the batches it held; later batches go to the others', async () => {
    const pool = new ExtractionPool(dir, 'folder', undefined, 2);
    try {
      const [a, b] = batchesOf(100);
      const first = pool.prepare(a); // to the first worker
      const second = pool.prepare(b); // to the second (fewer files waiting)
      await workersOf(pool)[0].terminate();
      await expect(first).rejects.toThrow(/extraction worker stopped/);
      expect((await second).filter(Boolean)).toHaveLength(98);
      expect(workersOf(pool)).toHaveLength(1);
      const again = await pool.prepare(files.slice(0, 10));
      expect(again.map((p) => p?.doc.title)).toEqual(
        files.slice(0, 10).map((_, n) => (n === 7 ? undefined : `Harbour note ${n}`)),
      );
    } finally {
      await pool.close();
    }
  });
});
