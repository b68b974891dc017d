import fc from 'fast-check';
import {
  GROUP,
  idWindows,
  impactAt,
  impactList,
  impactStep,
  impactUnits,
  keepsGroups,
  SEEDS,
  WINDOW,
} from './impact-list';

describe('one-byte impacts', () => {
  it('a list’s unit is a power of two that counts its largest impact in 255 units or fewer, and no coarser than needed', () => {
    fc.assert(
      fc.property(fc.double({ min: 1e-6, max: 1e6, noNaN: true }), (max) => {
        const step = impactStep(max);
        expect(Number.isInteger(Math.log2(step))).toBe(true);
        expect(impactUnits(max, step)).toBeLessThanOrEqual(255);
        // Half the unit would not do: the unit is at most 2/255 of the largest.
        expect(max / (step / 2)).toBeGreaterThan(255);
      }),
    );
  });

  it('keeps every impact rounded up by a unit at most, and window maxima and seeds over those values', () => {
    fc.assert(
      fc.property(fc.array(fc.double({ min: 0, max: 50, noNaN: true }), { minLength: 1, maxLength: 300 }), (exact) => {
        const docs = Uint32Array.from(exact.map((_, i) => i * 3 + 1));
        const list = impactList(docs, exact);
        let max = 0;
        exact.forEach((x, p) => {
          const kept = impactAt(list, p);
          expect(kept).toBeGreaterThanOrEqual(x);
          expect(kept - x).toBeLessThanOrEqual(list.step);
          // Exact in a 32-bit float, as the block maxima hold it.
          expect(Math.fround(kept)).toBe(kept);
          expect(kept).toBeLessThanOrEqual(list.windows!.max[Math.floor(docs[p] / WINDOW)] * list.step);
          max = Math.max(max, kept);
        });
        expect(list.max).toBe(max);
        expect(impactAt(list, list.best[0])).toBe(max);
      }),
    );
  });

  it("window maxima: the largest units of each window and group of ids, and where each group's postings start", () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.integer({ min: 0, max: 5_000 }), { minLength: 1, maxLength: 400 }),
        fc.integer({ min: 1, max: 2 ** 31 }),
        (ids, seed) => {
          const docs = Uint32Array.from(ids.sort((a, b) => a - b));
          const units = Uint8Array.from(docs, (_, p) => ((p * 2654435761 + seed) >>> 0) % 256);
          const w = idWindows(docs, units);
          const windows = Math.floor(docs[docs.length - 1] / WINDOW) + 1;
          expect(w.max.length).toBe(windows);
          expect(w.groupMax.length).toBe(Math.ceil(windows / GROUP));
          const max = new Uint8Array(windows);
          docs.forEach((doc, p) => (max[Math.floor(doc / WINDOW)] = Math.max(max[Math.floor(doc / WINDOW)], units[p])));
          expect([...w.max]).toEqual([...max]);
          for (let g = 0; g < w.groupMax.length; g++) {
            expect(w.groupMax[g]).toBe(Math.max(...max.slice(g * GROUP, (g + 1) * GROUP)));
            // Where the group's postings start: the first at or after its first id.
            const first = docs.findIndex((doc) => doc >= g * GROUP * WINDOW);
            expect(w.groupStart[g]).toBe(first < 0 ? docs.length : first);
          }
          expect(w.groupStart.length).toBe(w.groupMax.length + 1);
          expect(w.groupStart[w.groupMax.length]).toBe(docs.length);
        },
      ),
    );
  });

  it('one pass over the postings gives the bytes, window maxima and seeds the separate definitions give', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.integer({ min: 0, max: 3_000 }), { minLength: 1, maxLength: 400 }),
        fc.array(fc.integer({ min: 0, max: 12 }), { minLength: 400, maxLength: 400 }),
        fc.integer({ min: 0, max: 50 }),
        (ids, values, extra) => {
          const docs = Uint32Array.from(ids.sort((a, b) => a - b));
          // Few distinct values: many ties among the seeds. A longer buffer than the list: only its first values count.
          const exact = Float64Array.from([
            ...values.slice(0, docs.length).map((v) => v * 0.37),
            ...Array(extra).fill(99),
          ]);
          const list = impactList(docs, exact);
          const step = impactStep(Math.max(0, ...exact.slice(0, docs.length)));
          expect(list.step).toBe(step);
          expect([...list.impacts]).toEqual([...exact.slice(0, docs.length)].map((x) => impactUnits(x, step)));
          if (docs.length >= Math.floor(docs[docs.length - 1] / WINDOW) + 1) {
            const w = idWindows(docs, list.impacts);
            expect([...list.windows!.max]).toEqual([...w.max]);
            expect([...list.windows!.groupMax]).toEqual([...w.groupMax]);
            expect([...list.windows!.groupStart]).toEqual([...w.groupStart]);
          } else expect(list.windows).toBeNull();
          // A list between: its groups' maxima alone.
          if (keepsGroups(docs)) {
            const groups = Math.ceil((Math.floor(docs[docs.length - 1] / WINDOW) + 1) / GROUP);
            const want = new Uint8Array(groups);
            docs.forEach((doc, p) => {
              const g = Math.floor(doc / (WINDOW * GROUP));
              want[g] = Math.max(want[g], list.impacts[p]);
            });
            expect([...list.groupMax!]).toEqual([...want]);
          } else expect(list.groupMax ?? null).toBeNull();
          // Best first, the earlier position on a tie.
          const order = [...list.impacts.keys()].sort((a, b) => list.impacts[b] - list.impacts[a] || a - b);
          expect([...list.best]).toEqual(order.slice(0, SEEDS));
        },
      ),
    );
  });
});
