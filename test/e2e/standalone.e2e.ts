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
      const statuses: number[] = [];
      let last: Response | undefined;
      for (let i = 0; i < 5; i++) {
        last = await fetch(`${svc.baseUrl}/v1/usage`, { headers: bearer(svc.demoKey) });
        statuses.push(last.status);
      }
      expect(statuses.slice(0, 3)).toEqual([200, 200, 200]);
      expect(statuses[4]).toBe(429);
      expect(Number(last!.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      expect(last!.headers.get('ratelimit')).toMatch(/limit=3, remaining=0/);
      expect(last!.headers.get('ratelimit-policy')).toBe('3;w=3');
      expect(await last!.json()).toEqual({ detail: expect.any(String) });
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
