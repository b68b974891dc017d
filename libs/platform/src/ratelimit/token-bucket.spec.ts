import { TokenBuckets } from './token-bucket';

describe('TokenBuckets', () => {
  let t = 0;
  const clock = () => t;
  beforeEach(() => (t = 0));

  it('allows a burst, then refuses with a retry time', () => {
    const buckets = new TokenBuckets(2, 3, clock);
    expect([1, 2, 3].map(() => buckets.take('k').allowed)).toEqual([true, true, true]);
    const refused = buckets.take('k');
    expect(refused).toMatchObject({ allowed: false, remaining: 0, retryAfterSeconds: 1 });
  });
  it('refills at the rate', () => {
    const buckets = new TokenBuckets(2, 2, clock);
    buckets.take('k');
    buckets.take('k');
    expect(buckets.take('k').allowed).toBe(false);
    t = 0.5;
    expect(buckets.take('k').allowed).toBe(true);
    expect(buckets.take('k').allowed).toBe(false);
  });
  it('keeps keys apart', () => {
    const buckets = new TokenBuckets(1, 1, clock);
    expect(buckets.take('a').allowed).toBe(true);
    expect(buckets.take('a').allowed).toBe(false);
    expect(buckets.take('b').allowed).toBe(true);
  });
  it('is off at rate 0', () => {
    expect(new TokenBuckets(0, 1, clock).enabled).toBe(false);
  });
});
