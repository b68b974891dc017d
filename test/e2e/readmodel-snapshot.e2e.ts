import * as fs from 'node:fs';
import * as path from 'node:path';
import { bearer, startService } from '../support/service-process';

/** The standalone service's in-memory read models survive a restart through their snapshot. */
describe('read-model snapshot (standalone)', () => {
  jest.setTimeout(90_000);

  it('is written at shutdown and restored at the next boot, which then serves what it held and what came after', async () => {
    const first = await startService('standalone');
    const search = await fetch(`${first.baseUrl}/v1/search`, {
      method: 'POST',
      headers: { ...bearer(first.demoKey), 'Content-Type': 'application/json' },
      body: JSON.stringify({ queries: ['ferry line'] }),
    });
    expect(search.status).toBe(200);
    await first.stop();
    const file = path.join(first.dataDir, 'readmodels', 'standalone.snapshot.json');
    expect(fs.existsSync(file)).toBe(true);

    const second = await startService('standalone', {}, { dataDir: first.dataDir, key: first.demoKey });
    try {
      const log = fs.readFileSync(path.join(first.dataDir, 'standalone.log'), 'utf8');
      expect(log).toMatch(/read models restored from snapshot/);
      const usage = (await (await fetch(`${second.baseUrl}/v1/usage`, { headers: bearer(first.demoKey) })).json()) as {
        total_credits: number;
      };
      expect(usage.total_credits).toBeGreaterThan(0);
      // A write after the restore is seen too (the snapshot is followed by the live log).
      expect(
        (
          await fetch(`${second.baseUrl}/v1/search`, {
            method: 'POST',
            headers: { ...bearer(first.demoKey), 'Content-Type': 'application/json' },
            body: JSON.stringify({ queries: ['bike share'] }),
          })
        ).status,
      ).toBe(200);
      const after = (await (await fetch(`${second.baseUrl}/v1/usage`, { headers: bearer(first.demoKey) })).json()) as {
        total_credits: number;
      };
      expect(after.total_credits).toBeGreaterThan(usage.total_credits);
    } finally {
      await second.stop();
    }
  });
});
