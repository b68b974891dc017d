/**
 * Time limits and aborts for one exchange: the fetcher's own deadline (told apart from a caller's
 * abort by its reason) and a way to stop waiting on a promise when a signal fires.
 */

/** The abort reason of our own deadline, told apart from a caller's abort. */
export class Deadline extends Error {
  constructor(readonly ms: number) {
    super(`timed out after ${ms} ms`);
  }
}

/** A signal that fires on our deadline or when `outer` does. */
export function deadline(ms: number, outer?: AbortSignal): { signal: AbortSignal; done: () => void } {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new Deadline(ms)), ms);
  const onOuter = () => controller.abort(outer!.reason);
  if (outer?.aborted) onOuter();
  else outer?.addEventListener('abort', onOuter, { once: true });
  return {
    signal: controller.signal,
    done: () => {
      clearTimeout(timer);
      outer?.removeEventListener('abort', onOuter);
    },
  };
}

export function abortable<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}
