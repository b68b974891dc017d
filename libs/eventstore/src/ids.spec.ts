import { timeOrderedId } from './ids';

describe('timeOrderedId', () => {
  it('is a version 7 UUID whose first 48 bits are the milliseconds', () => {
    const now = Date.UTC(2026, 10, 24, 12, 0, 0, 123);
    const id = timeOrderedId(now);
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(parseInt(id.slice(0, 8) + id.slice(9, 13), 16)).toBe(now);
  });

  it('sorts by time across milliseconds and is unique within one', () => {
    const ids = Array.from({ length: 5_000 }, (_, i) => timeOrderedId(1_700_000_000_000 + Math.floor(i / 100)));
    expect(new Set(ids).size).toBe(ids.length);
    for (let i = 100; i < ids.length; i += 100) expect(ids[i - 1] < ids[i]).toBe(true);
  });
});
