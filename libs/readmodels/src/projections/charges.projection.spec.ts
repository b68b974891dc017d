import { MemoryReadStore } from '../memory.read-store';
import { CHARGES, pruneCharges, pruneChargesOver } from './charges.projection';

describe('pruneCharges', () => {
  it('drops charges recorded before the cutoff from the read model, in batches, and keeps the later ones', async () => {
    const store = new MemoryReadStore();
    const day = (d: number) => new Date(Date.UTC(2026, 0, d)).toISOString();
    for (let i = 0; i < 120; i++) {
      await store.upsert(
        CHARGES,
        `charge-${i}`,
        { team_id: 'acme', request_id: `r${i}`, at: day(1 + (i % 30)), credits: 1, items: [] },
        BigInt(i),
      );
    }
    const dropped = await pruneCharges(store, day(21), 7);
    expect(dropped).toBe(80);
    const left = await store.find(CHARGES, {});
    expect(left).toHaveLength(40);
    expect(left.every((doc) => String(doc.at) >= day(21))).toBe(true);
    expect(await pruneCharges(store, day(21))).toBe(0);
  });
});

describe('pruneChargesOver', () => {
  it('keeps the newest charges up to the bound, dropping the oldest in batches, and leaves a store within it alone', async () => {
    const store = new MemoryReadStore();
    const at = (i: number) => new Date(Date.UTC(2026, 0, 1) + i * 1_000).toISOString();
    // Written out of order: the bound goes by when a charge was made, not by when it was projected.
    const order = Array.from({ length: 1_500 }, (_, i) => (i * 7) % 1_500);
    for (const [n, i] of order.entries())
      await store.upsert(
        CHARGES,
        `charge-${i}`,
        { team_id: 'acme', request_id: `r${i}`, at: at(i), credits: 1, items: [] },
        BigInt(n),
      );
    expect(await pruneChargesOver(store, 1_000, 128)).toBe(500);
    const left = await store.find(CHARGES, {});
    expect(left).toHaveLength(1_000);
    expect(left.every((doc) => String(doc.at) >= at(500))).toBe(true);
    expect(await store.get(CHARGES, 'charge-1499')).toBeDefined();
    expect(await pruneChargesOver(store, 1_000)).toBe(0);
    expect(await pruneChargesOver(store, 5_000)).toBe(0);
    expect(await store.count(CHARGES)).toBe(1_000);
  });
});
