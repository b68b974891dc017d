import { SqliteEventStore } from '@app/eventstore';
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
