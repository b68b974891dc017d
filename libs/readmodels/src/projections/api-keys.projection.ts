import type { KeyBudget } from '@app/domain';
import type { RecordedEvent } from '@app/eventstore';
import type { Projection } from '../projection';

/** `api_keys`: one document per key id, read on every authenticated request. */
export const API_KEYS = 'api_keys';

export interface ApiKeyDoc {
  team_id: string;
  key_id: string;
  name: string;
  key_hash: string;
  created_at: string;
  /** Set when the key was rotated: it works until then. */
  expires_at: string | null;
  revoked_at: string | null;
  /** The key's spending limit (keys CLI --max-credits --per); absent: none. */
  budget?: KeyBudget | null;
}

const teamOf = (event: RecordedEvent): string => event.stream.slice('team-'.length);

const issued = (event: RecordedEvent, keyId: string, hash: string, name: string, createdAt: string): ApiKeyDoc => ({
  team_id: teamOf(event),
  key_id: keyId,
  name,
  key_hash: hash,
  created_at: createdAt,
  expires_at: null,
  revoked_at: null,
});

export const apiKeysProjection: Projection = {
  name: 'api_keys',
  version: 2,
  eventTypes: ['ApiKeyIssued', 'ApiKeyRotated', 'ApiKeyRevoked', 'ApiKeyBudgetSet'],
  filter: { streamPrefixes: ['team-'] },
  collection: API_KEYS,
  versionBy: 'revision',
  ids(event) {
    const data = event.data as { key_id: string; new_key_id?: string };
    return event.type === 'ApiKeyRotated' && data.new_key_id ? [data.key_id, data.new_key_id] : [data.key_id];
  },
  apply(doc, event, id) {
    const data = event.data as Record<string, string>;
    switch (event.type) {
      case 'ApiKeyIssued':
        return { ...issued(event, data.key_id, data.key_hash, data.name, data.created_at) };
      case 'ApiKeyRotated':
        if (id === data.new_key_id)
          return { ...issued(event, data.new_key_id, data.new_key_hash, data.name, data.created_at) };
        return doc ? { ...doc, expires_at: data.old_key_expires_at } : doc;
      case 'ApiKeyRevoked':
        return doc ? { ...doc, revoked_at: data.revoked_at } : doc;
      case 'ApiKeyBudgetSet':
        return doc ? { ...doc, budget: (event.data as { budget: KeyBudget | null }).budget } : doc;
      default:
        return doc;
    }
  },
};
