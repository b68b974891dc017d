import { specFor } from '../testing/given-when-then';
import { teamDecider } from './team.decider';
import type { TeamEvent } from './team.events';

const spec = specFor(teamDecider);
const NOW = '2026-01-01T00:00:00.000Z';
const created: TeamEvent = { type: 'TeamCreated', data: { team_id: 'acme', name: 'Acme' } };
const issued: TeamEvent = {
  type: 'ApiKeyIssued',
  data: { key_id: 'k1', key_hash: 'h1', name: 'ci', created_at: NOW },
};

describe('team decider', () => {
  describe('when absent', () => {
    it('creates the team', () => spec([]).when({ type: 'CreateTeam', team_id: 'acme', name: 'Acme' }).then([created]));
    it('refuses a team id that is not a slug', () =>
      spec([]).when({ type: 'CreateTeam', team_id: 'Bad Team', name: 'x' }).thenThrows({ refusal: 'invalid' }));
    it('refuses to issue a key', () =>
      spec([])
        .when({ type: 'IssueApiKey', key_id: 'k1', key_hash: 'h', name: '' })
        .thenThrows({ refusal: 'not_found' }));
    it('refuses to revoke a key', () =>
      spec([]).when({ type: 'RevokeApiKey', key_id: 'k1' }).thenThrows({ refusal: 'not_found' }));
    it('refuses to set a webhook secret', () =>
      spec([])
        .when({ type: 'SetWebhookSecret', secret_ciphertext: 'c', overlap_seconds: 60 })
        .thenThrows({ refusal: 'not_found' }));
  });

  describe('when active', () => {
    it('creating again decides nothing', () =>
      spec([created]).when({ type: 'CreateTeam', team_id: 'acme', name: 'Acme' }).then([]));
    it('issues a key', () =>
      spec([created]).when({ type: 'IssueApiKey', key_id: 'k1', key_hash: 'h1', name: 'ci' }).then([issued]));
    it('issuing the same key again decides nothing', () =>
      spec([created, issued]).when({ type: 'IssueApiKey', key_id: 'k1', key_hash: 'h1', name: 'ci' }).then([]));
    it('refuses a key id already taken by another key', () =>
      spec([created, issued])
        .when({ type: 'IssueApiKey', key_id: 'k1', key_hash: 'other', name: 'ci' })
        .thenThrows({ refusal: 'conflict' }));
    it('revokes a key', () =>
      spec([created, issued])
        .when({ type: 'RevokeApiKey', key_id: 'k1' })
        .then([{ type: 'ApiKeyRevoked', data: { key_id: 'k1', revoked_at: NOW } }]));
    it('revoking a revoked key decides nothing', () =>
      spec([created, issued, { type: 'ApiKeyRevoked', data: { key_id: 'k1', revoked_at: NOW } }])
        .when({ type: 'RevokeApiKey', key_id: 'k1' })
        .then([]));
    it('rotates a key with an overlap', () =>
      spec([created, issued])
        .when({ type: 'RotateApiKey', key_id: 'k1', new_key_id: 'k2', new_key_hash: 'h2', overlap_seconds: 3600 })
        .then([
          {
            type: 'ApiKeyRotated',
            data: {
              key_id: 'k1',
              new_key_id: 'k2',
              new_key_hash: 'h2',
              name: 'ci',
              created_at: NOW,
              old_key_expires_at: '2026-01-01T01:00:00.000Z',
            },
          },
        ]));
    it('refuses to rotate a revoked key', () =>
      spec([created, issued, { type: 'ApiKeyRevoked', data: { key_id: 'k1', revoked_at: NOW } }])
        .when({ type: 'RotateApiKey', key_id: 'k1', new_key_id: 'k2', new_key_hash: 'h2', overlap_seconds: 60 })
        .thenThrows({ refusal: 'conflict' }));
    it('sets the first webhook secret with no overlap', () =>
      spec([created])
        .when({ type: 'SetWebhookSecret', secret_ciphertext: 'c1', overlap_seconds: 86400 })
        .then([{ type: 'WebhookSecretSet', data: { secret_ciphertext: 'c1', previous_valid_until: null } }]));
    it('rotating the webhook secret keeps the previous one for the overlap', () =>
      spec([created, { type: 'WebhookSecretSet', data: { secret_ciphertext: 'c1', previous_valid_until: null } }])
        .when({ type: 'SetWebhookSecret', secret_ciphertext: 'c2', overlap_seconds: 86400 })
        .then([
          {
            type: 'WebhookSecretSet',
            data: { secret_ciphertext: 'c2', previous_valid_until: '2026-01-02T00:00:00.000Z' },
          },
        ]));
  });

  describe('evolve', () => {
    it('records rotation and revocation in state', () => {
      const state = [
        created,
        issued,
        {
          type: 'ApiKeyRotated',
          data: {
            key_id: 'k1',
            new_key_id: 'k2',
            new_key_hash: 'h2',
            name: 'ci',
            created_at: NOW,
            old_key_expires_at: 'T',
          },
        } as TeamEvent,
        { type: 'ApiKeyRevoked', data: { key_id: 'k2', revoked_at: NOW } } as TeamEvent,
      ].reduce(teamDecider.evolve, teamDecider.initialState);
      expect(state).toMatchObject({
        status: 'active',
        keys: { k1: { expires_at: 'T', revoked: false }, k2: { hash: 'h2', revoked: true } },
      });
    });
    it('ignores events that do not apply', () => {
      expect(teamDecider.evolve(teamDecider.initialState, issued)).toEqual({ status: 'absent' });
    });
  });
  describe('key budgets', () => {
    const budgetSet = (
      key_id: string,
      max_credits: number,
      per: 'day' | 'month' | 'total',
      budget_id = 'k1',
    ): TeamEvent => ({
      type: 'ApiKeyBudgetSet',
      data: { key_id, budget: { max_credits, per, budget_id }, set_at: NOW },
    });
    it('sets a budget counted against the key itself', () =>
      spec([created, issued])
        .when({ type: 'SetKeyBudget', key_id: 'k1', budget: { max_credits: 50, per: 'day' } })
        .then([budgetSet('k1', 50, 'day')]));
    it('setting the same budget again decides nothing; changing it keeps what it counts against', () => {
      spec([created, issued, budgetSet('k1', 50, 'day')])
        .when({ type: 'SetKeyBudget', key_id: 'k1', budget: { max_credits: 50, per: 'day' } })
        .then([]);
      spec([created, issued, budgetSet('k1', 50, 'day')])
        .when({ type: 'SetKeyBudget', key_id: 'k1', budget: { max_credits: 80, per: 'month' } })
        .then([budgetSet('k1', 80, 'month')]);
    });
    it('removes a budget, and removing none decides nothing', () => {
      spec([created, issued, budgetSet('k1', 50, 'day')])
        .when({ type: 'SetKeyBudget', key_id: 'k1', budget: null })
        .then([{ type: 'ApiKeyBudgetSet', data: { key_id: 'k1', budget: null, set_at: NOW } }]);
      spec([created, issued]).when({ type: 'SetKeyBudget', key_id: 'k1', budget: null }).then([]);
    });
    it('refuses a budget out of bounds, naming it, and one for a key that does not exist', () => {
      spec([created, issued])
        .when({ type: 'SetKeyBudget', key_id: 'k1', budget: { max_credits: -5, per: 'day' } })
        .thenThrows({ refusal: 'invalid' });
      spec([created, issued])
        .when({ type: 'SetKeyBudget', key_id: 'nope', budget: { max_credits: 5, per: 'day' } })
        .thenThrows({ refusal: 'not_found' });
    });
    it("a rotation gives the new key the old key's budget, counted against the same budget id", () =>
      spec([created, issued, budgetSet('k1', 50, 'day')])
        .when({ type: 'RotateApiKey', key_id: 'k1', new_key_id: 'k2', new_key_hash: 'h2', overlap_seconds: 60 })
        .then([expect.objectContaining({ type: 'ApiKeyRotated' }) as TeamEvent, budgetSet('k2', 50, 'day', 'k1')]));
  });
});
