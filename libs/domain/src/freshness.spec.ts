import { FRESHNESS, FRESHNESS_WINDOW_MS, freshnessStart } from './freshness';

describe('freshness windows', () => {
  it('are calendar-free: a month is 30 days, a year 365, whatever the month', () => {
    const day = 86_400_000;
    expect(FRESHNESS.map((f) => FRESHNESS_WINDOW_MS[f])).toEqual([day / 24, day, 7 * day, 30 * day, 365 * day]);
    expect(freshnessStart('month', new Date('2026-03-31T12:00:00Z')).toISOString()).toBe('2026-03-01T12:00:00.000Z');
    expect(freshnessStart('year', new Date('2028-03-01T00:00:00Z')).toISOString()).toBe('2027-03-02T00:00:00.000Z');
  });
});
