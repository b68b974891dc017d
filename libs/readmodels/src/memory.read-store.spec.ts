import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MemoryReadStore } from './memory.read-store';
import { readStoreContract } from './read-store.contract';

readStoreContract('memory', () => new MemoryReadStore());

describe('MemoryReadStore specifics', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'readstore-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  // Matched by message: structuredClone builds objects in Node's realm, not jest's, so the
  // thrown TypeError is not `instanceof` the test's TypeError.
  it('get returns the same frozen object without copying, and a mutation throws', async () => {
    const store = new MemoryReadStore();
    await store.upsert('c', 'k', { nested: { list: [1] } }, 1n);
    const a = await store.get('c', 'k');
    expect(await store.get('c', 'k')).toBe(a);
    expect(Object.isFrozen(a)).toBe(true);
    expect(() => ((a!.nested as { list: number[] }).list as number[]).push(2)).toThrow(/not extensible/);
    expect(() => ((a as Record<string, unknown>).x = 1)).toThrow(/not extensible/);
  });

  it('snapshot then restore gives back every collection and checkpoint', async () => {
    const store = new MemoryReadStore();
    await store.upsert('runs', 'r1', { status: 'done', n: 1 }, 3n);
    await store.upsert('runs', 'r2', { status: 'running', n: 2 }, 2n ** 60n);
    await store.upsert('usage', '2024-01-01', { total: 5 }, 9n);
    await store.setCheckpoint('p@v1', 12n);
    const file = join(dir, 'sub', 'read-store.json');
    await store.snapshot(file);

    const restored = new MemoryReadStore();
    await restored.upsert('stale', 'x', {}, 1n);
    expect(await restored.restore(file)).toBe(true);
    expect(await restored.find('runs', {}, { sort: { _id: 1 } })).toEqual(
      await store.find('runs', {}, { sort: { _id: 1 } }),
    );
    expect(await restored.get('usage', '2024-01-01')).toEqual({ _id: '2024-01-01', _version: '9', total: 5 });
    expect(await restored.getCheckpoint('p@v1')).toBe(12n);
    expect(await restored.count('stale')).toBe(0);
    // the version guard still holds after a restore
    expect(await restored.upsert('runs', 'r2', { status: 'old' }, 2n ** 60n)).toBe(false);
    expect(Object.isFrozen(await restored.get('runs', 'r1'))).toBe(true);
  });

  it('restore of an absent file returns false and keeps the state', async () => {
    const store = new MemoryReadStore();
    await store.upsert('c', 'k', { a: 1 }, 1n);
    expect(await store.restore(join(dir, 'none.json'))).toBe(false);
    expect(await store.get('c', 'k')).toMatchObject({ a: 1 });
  });
});
