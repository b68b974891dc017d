import { bearer, startService } from '../support/service-process';
import { extractSuite } from './extract.blackbox';
import { searchSuite } from './search.blackbox';
import { deepSuite } from './deep.blackbox';
import { FINDALL_ROUTES, runSuite, SEARCH_ROUTES, TASK_ROUTES } from './runs.blackbox';
import { tasksSuite } from './tasks.blackbox';
import { chatSuite } from './chat.blackbox';
import { useService } from './harness';
import { platformSuite } from './platform.blackbox';

jest.setTimeout(30_000);

describe('standalone', () => {
  const ctx = useService('standalone');
  platformSuite(ctx);
  extractSuite(ctx);
  searchSuite(ctx);
  deepSuite(ctx);
  tasksSuite(ctx);
  chatSuite(ctx);
  runSuite(ctx, SEARCH_ROUTES);
  runSuite(ctx, TASK_ROUTES);
  runSuite(ctx, FINDALL_ROUTES);
});

describe('rate limit (standalone)', () => {
  it('answers 429 with Retry-After and RateLimit headers past the burst, per key', async () => {
    const svc = await startService('standalone', { RATE_LIMIT_RPS: '1', RATE_LIMIT_BURST: '3' });
    try {
      // The first request of a fresh process is slow (it loads the key); then the bucket refills to its burst.
      expect((await fetch(`${svc.baseUrl}/v1/usage`, { headers: bearer(svc.demoKey) })).status).toBe(200);
      await new Promise((r) => setTimeout(r, 3_200));
      // Sent at once, so a slow machine cannot refill the bucket between them (sent one after another
      // on two busy cores, five requests could take long enough for a token to come back).
      const responses = await Promise.all(
        Array.from({ length: 8 }, () => fetch(`${svc.baseUrl}/v1/usage`, { headers: bearer(svc.demoKey) })),
      );
      const passed = responses.filter((response) => response.status === 200).length;
      expect(passed).toBeGreaterThanOrEqual(3);
      expect(passed).toBeLessThanOrEqual(4); // one token may come back while they arrive
      const last = responses.find((response) => response.status === 429);
      expect(last).toBeDefined();
      expect(Number(last!.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      expect(last!.headers.get('ratelimit')).toMatch(/limit=3, remaining=0/);
      expect(last!.headers.get('ratelimit-policy')).toBe('3;w=3');
      expect(await last!.json()).toEqual({ detail: expect.any(String) });
      await Promise.all(responses.filter((response) => response !== last).map((response) => response.arrayBuffer()));
      const other = (await svc.keys('create', '--team', 'second')).stdout.trim();
      for (let i = 0; i < 20; i++) {
        if ((await fetch(`${svc.baseUrl}/v1/usage`, { headers: bearer(other) })).status === 200) return;
        await new Promise((r) => setTimeout(r, 20));
      }
      throw new Error('a second key was limited by the first key’s bucket');
    } finally {
      await svc.stop();
    }
  }, 60_000);
});
