import { Throttle } from './throttle';

describe('Throttle', () => {
  afterEach(() => jest.useRealTimers());

  it('never lets more than maxConcurrent run, and admits the next on release (FIFO)', async () => {
    const throttle = new Throttle({ maxConcurrent: 2, requestsPerSecond: 0 });
    const admitted: number[] = [];
    const releases = [0, 1, 2, 3].map((i) => throttle.acquire().then((release) => (admitted.push(i), release)));
    await Promise.resolve();
    await new Promise((r) => setImmediate(r));
    expect(admitted).toEqual([0, 1]);
    expect(throttle.inFlight).toBe(2);
    expect(throttle.pending).toBe(2);
    (await releases[0]!)();
    await new Promise((r) => setImmediate(r));
    expect(admitted).toEqual([0, 1, 2]);
    (await releases[0]!)(); // a second release of the same slot is ignored
    await new Promise((r) => setImmediate(r));
    expect(admitted).toEqual([0, 1, 2]);
  });

  it('spaces requests at the token rate once the burst is spent', async () => {
    jest.useFakeTimers();
    const throttle = new Throttle({ maxConcurrent: 10, requestsPerSecond: 10, burst: 1 }, () => Date.now());
    const admittedAt: number[] = [];
    const start = Date.now();
    for (let i = 0; i < 3; i++)
      void throttle.acquire().then((release) => (admittedAt.push(Date.now() - start), release()));
    await jest.advanceTimersByTimeAsync(0);
    expect(admittedAt).toEqual([0]);
    await jest.advanceTimersByTimeAsync(99);
    expect(admittedAt).toEqual([0]);
    await jest.advanceTimersByTimeAsync(1);
    expect(admittedAt).toEqual([0, 100]);
    await jest.advanceTimersByTimeAsync(100);
    expect(admittedAt).toEqual([0, 100, 200]);
  });

  it('drops a waiter whose signal aborts, and rejects waiters on close', async () => {
    const throttle = new Throttle({ maxConcurrent: 1, requestsPerSecond: 0 });
    const held = await throttle.acquire();
    const controller = new AbortController();
    const aborted = throttle.acquire(controller.signal);
    const queued = throttle.acquire();
    controller.abort();
    await expect(aborted).rejects.toThrow(/abort/i);
    expect(throttle.pending).toBe(1);
    throttle.close();
    await expect(queued).rejects.toThrow('throttle closed');
    held();
  });

  it('rejects nonsense limits', () => {
    expect(() => new Throttle({ maxConcurrent: 0, requestsPerSecond: 1 })).toThrow(RangeError);
  });
});
