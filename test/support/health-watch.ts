/**
 * `/healthz` asked every 100 ms while something else runs: its first failure (not 200, or no
 * answer within 5 s: a held event loop would not answer) and its slowest answer.
 */
export function watchHealth(
  baseUrl: string,
): () => Promise<{ failure: string | null; failures: number; worstMs: number }> {
  let failure: string | null = null;
  let failures = 0;
  let worstMs = 0;
  let running = true;
  const loop = (async () => {
    while (running) {
      const started = performance.now();
      try {
        const response = await fetch(`${baseUrl}/healthz`, { signal: AbortSignal.timeout(5_000) });
        await response.arrayBuffer();
        if (response.status !== 200) {
          failure ??= `healthz answered ${response.status}`;
          failures++;
        }
      } catch (error) {
        failure ??= `healthz: ${(error as Error).message}`;
        failures++;
      }
      worstMs = Math.max(worstMs, performance.now() - started);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  })();
  return async () => {
    running = false;
    await loop;
    return { failure, failures, worstMs };
  };
}
