import { shortestCronGapMinutes } from './monitor.schedule';

describe('shortestCronGapMinutes', () => {
  it.each([
    ['* * * * *', 1],
    ['*/5 9 * * *', 5],
    ['0 * * * *', 60],
    ['0,30 * * * *', 30],
    ['0 9 * * 1', 10_080],
    ['30 9 * * MON-FRI', 1_440],
    ['*/10 * 1 1 *', 10],
    ['10,50 0,23 * * *', 20],
    ['0 0 1 * 1', 1_440],
    ['0 0 29 2 *', Infinity],
    // A day that never comes: cron-parser refuses it, the scheduler's package accepts it.
    ['0 0 31 2 *', Infinity],
  ])('%s runs at most every %s minutes', (cron, gap) => {
    expect(shortestCronGapMinutes(cron)).toBe(gap);
  });
});
