import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { budgetPeriod, keyBudgetDecider, keyBudgetStream, PaymentRequired } from '@app/domain';
import { aggregateStream, SqliteEventStore } from '@app/eventstore';
import { FaultyEventStore } from '../../../eventstore/src/testing/faulty-event-store';
import { chargeRequest } from './charge-request';

describe('chargeRequest', () => {
  let events: SqliteEventStore;
  beforeEach(() => (events = new SqliteEventStore(':memory:')));
  afterEach(() => events.close());

  const context = { team_id: 'team', request_id: 'req_1', charge_id: 'charge_1' };
  const items = [{ sku: 'sku_search' as const, quantity: 1, credits: 1 }];

  it('charges a call once: a second delivery of the same charge id appends nothing', async () => {
    const first = await chargeRequest(events, context, items);
    expect(first).toBeDefined();
    const again = await chargeRequest(events, context, items);
    expect(again).toBeUndefined();
    const stored = await events.readAll();
    expect(stored.map((e) => [e.stream, e.type])).toEqual([['charge-team-charge_1', expect.stringMatching(/Charged/)]]);
  });

  it('appends nothing for a call that costs nothing', async () => {
    expect(await chargeRequest(events, context, [{ sku: 'sku_search', quantity: 1, credits: 0 }])).toBeUndefined();
    expect(await events.readAll()).toEqual([]);
  });
});

describe('chargeRequest with a key budget', () => {
  const budget = { max_credits: 50, per: 'day' as const, budget_id: 'K1' };
  const items = [{ sku: 'sku_search' as const, quantity: 1, credits: 3 }];
  const call = (i: number) => ({ team_id: 'team', key_id: 'K1', request_id: `req_${i}`, charge_id: `c_${i}`, budget });
  let dir: string;
  beforeEach(() => (dir = fs.mkdtempSync(path.join(os.tmpdir(), 'budget-'))));
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  /** Credits charged (charge streams) and counted (the budget stream) on the log. */
  async function onTheLog(store: SqliteEventStore) {
    const all = await store.readAll();
    const charged = all.filter((e) => e.type === 'CreditsCharged').reduce((s, e) => s + Number(e.data.credits), 0);
    const period = budgetPeriod('day', new Date()).id;
    const { spent } = (await aggregateStream(store, keyBudgetStream('team', 'K1', period), keyBudgetDecider)).state;
    return { charged, spent };
  }

  it('20 calls at once from two writers on one log never spend past the budget: 16 of 3 credits, the rest 402', async () => {
    const file = path.join(dir, 'events.sqlite');
    const [a, b] = [new SqliteEventStore(file), new SqliteEventStore(file)];
    try {
      const results = await Promise.allSettled(
        Array.from({ length: 20 }, (_, i) => chargeRequest(i % 2 ? a : b, call(i), items)),
      );
      const refused = results.filter((r) => r.status === 'rejected');
      expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(16);
      expect(refused).toHaveLength(4);
      for (const r of refused) {
        expect((r as PromiseRejectedResult).reason).toBeInstanceOf(PaymentRequired);
        expect(String((r as PromiseRejectedResult).reason.message)).toMatch(
          /^this key's budget of 50 credits per day has 2 left: 48 spent; it resets at \d{4}-\d\d-\d\dT00:00:00.000Z; this call costs 3 credits$/,
        );
      }
      expect(await onTheLog(a)).toEqual({ charged: 48, spent: 48 });
    } finally {
      a.close();
      b.close();
    }
  });

  it('20 calls at once from two writers whose appends fail on cue: what is charged is what the budget counts, never past it', async () => {
    const file = path.join(dir, 'events.sqlite');
    const inner = [new SqliteEventStore(file), new SqliteEventStore(file)];
    const [a, b] = inner.map((store) => new FaultyEventStore(store));
    try {
      // Each writer's next two charge appends fail, and then its next budget append.
      a!.failAppends(2, undefined, (stream) => stream.startsWith('charge-'));
      b!.failAppends(2, undefined, (stream) => stream.startsWith('charge-'));
      const first = await Promise.allSettled(
        Array.from({ length: 20 }, (_, i) => chargeRequest(i % 2 ? a! : b!, call(i), items)),
      );
      a!.failAppends(1, undefined, (stream) => stream.startsWith('budget-'));
      b!.failAppends(1, undefined, (stream) => stream.startsWith('budget-'));
      // The calls that failed are retried by their clients (same charge ids), with the rest.
      const failed = first.flatMap((r, i) =>
        r.status === 'rejected' && !(r.reason instanceof PaymentRequired) ? [i] : [],
      );
      expect(failed.length).toBe(4);
      const retried = await Promise.allSettled(failed.map((i) => chargeRequest(i % 2 ? a! : b!, call(i), items)));
      const all = [...first, ...retried];
      for (const r of all)
        if (r.status === 'rejected')
          expect(r.reason instanceof PaymentRequired || /fault injected/.test(String(r.reason))).toBe(true);
      const { charged, spent } = await onTheLog(inner[0]!);
      expect(charged).toBe(spent);
      expect(spent).toBeLessThanOrEqual(50);
      expect(spent).toBe(48); // 16 calls of 3 fit; the faults cost nothing
    } finally {
      inner.forEach((store) => store.close());
    }
  });

  it('a call delivered twice is counted and charged once', async () => {
    const store = new SqliteEventStore(path.join(dir, 'events.sqlite'));
    try {
      await chargeRequest(store, call(1), items);
      await chargeRequest(store, call(1), items);
      expect(await onTheLog(store)).toEqual({ charged: 3, spent: 3 });
    } finally {
      store.close();
    }
  });

  it('a charge whose append fails gives its credits back to the budget: the log and the budget agree', async () => {
    const inner = new SqliteEventStore(path.join(dir, 'events.sqlite'));
    const store = new FaultyEventStore(inner);
    try {
      store.failAppends(1, undefined, (stream) => stream.startsWith('charge-'));
      await expect(chargeRequest(store, call(1), items)).rejects.toThrow('fault injected');
      expect(await onTheLog(inner)).toEqual({ charged: 0, spent: 0 });
      // and the budget is whole: 16 more calls of 3 fit, the 17th does not
      for (let i = 2; i < 18; i++) await chargeRequest(store, call(i), items);
      await expect(chargeRequest(store, call(18), items)).rejects.toBeInstanceOf(PaymentRequired);
      expect(await onTheLog(inner)).toEqual({ charged: 48, spent: 48 });
    } finally {
      inner.close();
    }
  });

  it('a budget append that fails charges nothing', async () => {
    const inner = new SqliteEventStore(path.join(dir, 'events.sqlite'));
    const store = new FaultyEventStore(inner);
    try {
      store.failAppends(1, undefined, (stream) => stream.startsWith('budget-'));
      await expect(chargeRequest(store, call(1), items)).rejects.toThrow('fault injected');
      expect(await onTheLog(inner)).toEqual({ charged: 0, spent: 0 });
    } finally {
      inner.close();
    }
  });
});
