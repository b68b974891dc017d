/**
 * A promise with its resolve and reject at hand, which says whether it is settled; a rejection
 * nobody awaits is swallowed.
 */
export interface Deferred<T> {
  promise: Promise<T>;
  resolve(value: T): void;
  reject(err: unknown): void;
  settled: boolean;
}
export function deferred<T>(): Deferred<T> {
  const d = { settled: false } as Deferred<T>;
  d.promise = new Promise<T>((resolve, reject) => {
    d.resolve = (v) => ((d.settled = true), resolve(v));
    d.reject = (e) => ((d.settled = true), reject(e));
  });
  d.promise.catch(() => undefined); // a rejection nobody awaits must not crash the process
  return d;
}
