import type { Projection } from '../projection';

/** `teams`: name and the sealed webhook signing secrets (never in clear). */
export const TEAMS = 'teams';

export interface TeamDoc {
  team_id: string;
  name: string;
  created_at: string;
  webhook_secret_ciphertext: string | null;
  previous_webhook_secret_ciphertext: string | null;
  previous_valid_until: string | null;
}

export const teamsProjection: Projection = {
  name: 'teams',
  version: 1,
  eventTypes: ['TeamCreated', 'WebhookSecretSet'],
  filter: { streamPrefixes: ['team-'] },
  collection: TEAMS,
  versionBy: 'revision',
  ids: (event) => [event.stream.slice('team-'.length)],
  apply(doc, event, id) {
    const data = event.data as Record<string, string | null>;
    if (event.type === 'TeamCreated') {
      const team: TeamDoc = {
        team_id: id,
        name: String(data.name),
        created_at: event.created,
        webhook_secret_ciphertext: null,
        previous_webhook_secret_ciphertext: null,
        previous_valid_until: null,
      };
      return { ...team };
    }
    if (event.type === 'WebhookSecretSet' && doc) {
      return {
        ...doc,
        previous_webhook_secret_ciphertext: doc.webhook_secret_ciphertext ?? null,
        webhook_secret_ciphertext: data.secret_ciphertext,
        previous_valid_until: data.previous_valid_until,
      };
    }
    return doc;
  },
};
