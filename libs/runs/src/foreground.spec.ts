import { Foreground } from './foreground';

describe('Foreground', () => {
  it('lets background work through at once when nothing is held, and when the last hold ends', async () => {
    const gate = new Foreground();
    await gate.idle(10_000);
    const first = gate.hold();
    const second = gate.hold();
    let through = false;
    const waiting = gate.idle(10_000).then(() => (through = true));
    first();
    first(); // a second call of the same release changes nothing
    await new Promise((r) => setImmediate(r));
    expect(through).toBe(false);
    expect(gate.busy).toBe(true);
    second();
    await waiting;
    expect(through).toBe(true);
    expect(gate.busy).toBe(false);
  });

  it('delays background work by at most maxMs while foreground work is held, keeping no waiter after', async () => {
    const gate = new Foreground();
    const release = gate.hold();
    const started = performance.now();
    await gate.idle(30);
    expect(performance.now() - started).toBeGreaterThanOrEqual(25);
    for (let i = 0; i < 100; i++) await gate.idle(1);
    expect((gate as unknown as { waiting: Set<unknown> }).waiting.size).toBe(0);
    release();
  });
});
