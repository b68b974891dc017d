import type { DomainEvent } from '../decider';
import type { KeyBudget } from '../key-budget/key-budget';

/** Events of a `team-<id>` stream. Key hashes are SHA-256 hex; webhook secrets are AES-256-GCM ciphertext. */
export type TeamCreated = DomainEvent<'TeamCreated', { team_id: string; name: string }>;
export type ApiKeyIssued = DomainEvent<
  'ApiKeyIssued',
  { key_id: string; key_hash: string; name: string; created_at: string }
>;
export type ApiKeyRotated = DomainEvent<
  'ApiKeyRotated',
  {
    key_id: string;
    new_key_id: string;
    new_key_hash: string;
    name: string;
    created_at: string;
    /** The old key keeps working until then. */
    old_key_expires_at: string;
  }
>;
export type ApiKeyRevoked = DomainEvent<'ApiKeyRevoked', { key_id: string; revoked_at: string }>;
/** A key's budget set, changed (a rotation gives the new key the old one's) or removed (null). */
export type ApiKeyBudgetSet = DomainEvent<
  'ApiKeyBudgetSet',
  { key_id: string; budget: KeyBudget | null; set_at: string }
>;
export type WebhookSecretSet = DomainEvent<
  'WebhookSecretSet',
  {
    /** `v1:<iv>:<tag>:<ciphertext>` under SECRETS_KEY; never the secret in clear. */
    secret_ciphertext: string;
    /** The previous secret still signs deliveries until then (rotation overlap). */
    previous_valid_until: string | null;
  }
>;

export type TeamEvent = TeamCreated | ApiKeyIssued | ApiKeyRotated | ApiKeyRevoked | ApiKeyBudgetSet | WebhookSecretSet;

export const teamStream = (teamId: string): string => `team-${teamId}`;
