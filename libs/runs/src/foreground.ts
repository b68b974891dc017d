/**
 * What someone is waiting on in this process right now (a request waiting for the read models,
 * a run asked for one by one), against background work (a task group's runs) that steps aside
 * for it. On one Node thread, runs that work from caches keep it busy: without this, each of the
 * dozens of turns of the event loop a request needs waits behind a step of every group run
 * (a single run measured 26 times slower beside a group of 2,000; bench/groups.bench.ts).
 * Background work is delayed by at most `maxMs` per step, never stopped: a process always busy in
 * the foreground still moves its groups on.
 */
export class Foreground {
  private held = 0;
  private readonly waiting = new Set<() => void>();

  /** Marks foreground work begun: the function returned ends it (once, however often it is called). */
  hold(): () => void {
    this.held++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      if (--this.held > 0) return;
      const waiting = [...this.waiting];
      this.waiting.clear();
      for (const wake of waiting) wake();
    };
  }

  get busy(): boolean {
    return this.held > 0;
  }

  /** Resolves at once when no foreground work is held, else when the last ends or after `maxMs`. */
  idle(maxMs: number): Promise<void> {
    if (this.held === 0) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.waiting.delete(done);
        resolve();
      };
      const timer = setTimeout(done, maxMs);
      this.waiting.add(done);
    });
  }
}

/** The process's one gate (the gateway's waits and the run worker share it in the standalone service). */
export const foreground = new Foreground();
