import { specFor } from '../testing/given-when-then';
import { chargeDecider } from './charge.decider';

const spec = specFor(chargeDecider);
const items = [
  { sku: 'sku_search', quantity: 1, credits: 1 },
  { sku: 'sku_objective_rerank', quantity: 1, credits: 1 },
];

describe('charge decider', () => {
  describe('when uncharged', () => {
    it('charges the sum of the line items', () =>
      spec([])
        .when({ type: 'Charge', team_id: 't', request_id: 'r1', items })
        .then([
          {
            type: 'CreditsCharged',
            data: { team_id: 't', request_id: 'r1', items, credits: 2, at: '2026-01-01T00:00:00.000Z' },
          },
        ]));
    it('refuses a line item with negative credits', () =>
      spec([])
        .when({
          type: 'Charge',
          team_id: 't',
          request_id: 'r1',
          items: [{ sku: 'sku_search', quantity: 1, credits: -1 }],
        })
        .thenThrows({ refusal: 'invalid', message: /line item/ }));
  });
  describe('when charged', () => {
    it('charging the same request again decides nothing', () =>
      spec([{ type: 'CreditsCharged', data: { team_id: 't', request_id: 'r1', items, credits: 2, at: 'x' } }])
        .when({ type: 'Charge', team_id: 't', request_id: 'r1', items })
        .then([]));
  });
});
