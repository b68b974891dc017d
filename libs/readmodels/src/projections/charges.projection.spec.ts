import { MemoryReadStore } from '../memory.read-store';
import { CHARGES, pruneCharges } from './charges.projection';

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
