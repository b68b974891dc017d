/** Read-your-writes: who waits for the projector to reach a log position, and how far it has. */

export interface Waiter {
  position: bigint;
  done(reached: boolean): void;
}

export class PositionWaiters {
  /** Every event at or before it that a projection reads has been applied (>= the projector's position). */
  reached = -1n;
  private readonly waiting = new Set<Waiter>();

  get size(): number {
    return this.waiting.size;
  }

  /** Waits for `position`; `done(true)` at once when it is reached already. Told once. */
  add(position: bigint, done: (reached: boolean) => void): Waiter {
    const waiter: Waiter = {
      position,
      done: (ok) => {
        if (this.waiting.delete(waiter)) done(ok);
      },
    };
    this.waiting.add(waiter);
    if (position <= this.reached) waiter.done(true);
    return waiter;
  }

  /** Moves `reached` on (never back), telling the waiters it passed. */
  raise(position: bigint): void {
    if (position <= this.reached) return;
    this.reached = position;
    for (const w of this.waiting) if (w.position <= position) w.done(true);
  }

  /** Tells every waiter left. */
  settleAll(ok: boolean): void {
    for (const w of this.waiting) w.done(ok);
  }
}
