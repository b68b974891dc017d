/**
 * At most `limit` exchanges at a time per host, first come first served; callers that give up
 * while queued leave the queue. Politeness towards one site, not a global throttle.
 */
export class HostQueue {
  private readonly hosts = new Map<string, { active: number; waiting: Array<() => void> }>();

  constructor(private readonly limit: number) {
    if (!(limit >= 1)) throw new Error('perHostConcurrency must be at least 1');
  }

  async run<T>(host: string, work: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    signal?.throwIfAborted();
    let slot = this.hosts.get(host);
    if (!slot) this.hosts.set(host, (slot = { active: 0, waiting: [] }));
    const s = slot;
    if (s.active >= this.limit) {
      await new Promise<void>((resolve, reject) => {
        const onAbort = () => {
          s.waiting.splice(s.waiting.indexOf(go), 1);
          reject(signal!.reason);
        };
        const go = () => {
          signal?.removeEventListener('abort', onAbort);
          resolve();
        };
        s.waiting.push(go);
        signal?.addEventListener('abort', onAbort, { once: true });
      });
    } else {
      s.active++;
    }
    try {
      return await work();
    } finally {
      // Hand the slot straight to the next waiter (active stays the same), else release it.
      const next = s.waiting.shift();
      if (next) next();
      else if (--s.active === 0) this.hosts.delete(host);
    }
  }
}
