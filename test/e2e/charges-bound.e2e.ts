import * as path from 'node:path';
import { chargeDecider, chargeStream } from '@app/domain';
import { handleCommand, openSqliteEventStore } from '@app/eventstore';
import { SecretBox } from '@app/platform/secrets';
import { TeamAdmin } from '@app/platform/teams/team-admin';
import { bearer, startService } from '../support/service-process';

/**
 * The embedded read model keeps one charge a call for GET /v1/usage/requests/{id}: in memory, so
 * CHARGES_MAX_DOCS bounds it. A log holding more recent charges than the bound boots a service
 * that keeps the newest, answers 404 for the oldest, and still counts every one in /v1/usage.
 */
describe('charges in the embedded read model (standalone)', () => {
  jest.setTimeout(120_000);

  it('keeps at most CHARGES_MAX_DOCS charges, the newest, while the daily totals keep them all', async () => {
    const calls = 1_200;
    const bound = 1_000;
    const now = Date.now();
    const svc = await startService(
      'standalone',
      { CHARGES_MAX_DOCS: String(bound) },
      {
        prepare: async (dataDir) => {
          const log = openSqliteEventStore(path.join(dataDir, 'events.db'));
          // Within CHARGES_RETENTION_DAYS, one second apart, the oldest first.
          for (let i = 0; i < calls; i++)
            await handleCommand(
              log,
              chargeStream('acme', `call-${i}`),
              chargeDecider,
              {
                type: 'Charge',
                team_id: 'acme',
                request_id: `call-${i}`,
                items: [{ sku: 'sku_search', quantity: 1, credits: 1 }],
              },
              { now: new Date(now - (calls - i) * 1_000).toISOString() },
            );
          const { key } = await new TeamAdmin(log, SecretBox.load(undefined, dataDir)).createKey('acme', 'bound');
          await log.close();
          return { key };
        },
      },
    );
    try {
      const status = async (id: string) =>
        (await fetch(`${svc.baseUrl}/v1/usage/requests/${id}`, { headers: bearer(svc.demoKey) })).status;
      // The bound is applied right after the boot's catch-up, without holding the boot.
      const deadline = Date.now() + 20_000;
      while ((await status('call-0')) !== 404) {
        if (Date.now() > deadline) throw new Error('the oldest charge was still served 20 s after boot');
        await new Promise((r) => setTimeout(r, 100));
      }
      for (const i of [0, 1, calls - bound - 1]) expect(await status(`call-${i}`)).toBe(404);
      for (const i of [calls - bound, calls - 2, calls - 1]) expect(await status(`call-${i}`)).toBe(200);
      const usage = (await (await fetch(`${svc.baseUrl}/v1/usage`, { headers: bearer(svc.demoKey) })).json()) as {
        total_credits: number;
      };
      expect(usage.total_credits).toBe(calls);
    } finally {
      await svc.stop();
    }
  });
});
