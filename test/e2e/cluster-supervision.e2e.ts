import { startService } from '../support/service-process';

jest.setTimeout(30_000);

describe('cluster supervision', () => {
  it('restarts a service killed with SIGKILL, and readiness recovers', async () => {
    const svc = await startService('cluster');
    try {
      const before = svc.servicePids().get('search');
      expect(before).toBeGreaterThan(0);
      process.kill(before!, 'SIGKILL');
      const deadline = Date.now() + 20_000;
      let after: number | undefined;
      while (Date.now() < deadline) {
        after = svc.servicePids().get('search');
        if (after !== before && (await fetch(`${svc.baseUrl}/readyz`)).status === 200) break;
        await new Promise((r) => setTimeout(r, 100));
      }
      expect(after).not.toBe(before);
      expect((await fetch(`${svc.baseUrl}/readyz`)).status).toBe(200);
    } finally {
      await svc.stop();
    }
  }, 60_000);
});
