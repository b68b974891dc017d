import { aggregateStream, type EventStore, handleCommand } from '@app/eventstore';
import {
  type BudgetPeriod,
  budgetPeriod,
  keyBudgetDecider,
  keyBudgetStream,
  type TeamCommand,
  teamDecider,
  type TeamState,
  teamStream,
} from '@app/domain';
import { NotFound } from '@app/domain';
import { generateApiKey, generateWebhookSecret, SecretBox } from '../secrets';

/**
 * Team and key administration over the event log: what the keys CLI and the first-boot demo team
 * use. Every change goes through the team decider with an expected revision.
 */
export const WEBHOOK_SECRET_OVERLAP_SECONDS = 24 * 3600;

export interface KeyListing {
  key_id: string;
  status: 'active' | 'revoked' | 'expiring';
  created_at: string;
  name: string;
  /** Its budget and what it spent in the current period (resets_at null: a total budget). */
  budget?: { max_credits: number; per: BudgetPeriod; spent: number; resets_at: string | null };
}

export class TeamAdmin {
  constructor(
    private readonly store: EventStore,
    private readonly box: SecretBox,
    private readonly metadata: Record<string, string> = { causation_id: 'keys-cli' },
  ) {}

  private run(teamId: string, command: TeamCommand) {
    return handleCommand(this.store, teamStream(teamId), teamDecider, command, {
      metadata: { ...this.metadata, team_id: teamId },
    });
  }

  private async state(teamId: string): Promise<TeamState> {
    return (await aggregateStream(this.store, teamStream(teamId), teamDecider)).state;
  }

  /** Creates the team when new (with its webhook secret); returns the secret only when it was made now. */
  async ensureTeam(teamId: string): Promise<{ created: boolean; webhookSecret?: string }> {
    const { events } = await this.run(teamId, { type: 'CreateTeam', team_id: teamId, name: teamId });
    if (events.length === 0) return { created: false };
    return { created: true, webhookSecret: await this.newWebhookSecret(teamId) };
  }

  async createKey(
    teamId: string,
    name = '',
    budget?: { max_credits: number; per: BudgetPeriod },
  ): Promise<{ key: string; keyId: string; webhookSecret?: string }> {
    const team = await this.ensureTeam(teamId);
    const { key, keyId, hash } = generateApiKey();
    await this.run(teamId, { type: 'IssueApiKey', key_id: keyId, key_hash: hash, name });
    if (budget) await this.run(teamId, { type: 'SetKeyBudget', key_id: keyId, budget });
    return { key, keyId, webhookSecret: team.webhookSecret };
  }

  /** Sets, changes or (null) removes a key's budget; what it spent in the period is kept. */
  async setKeyBudget(keyId: string, budget: { max_credits: number; per: BudgetPeriod } | null): Promise<void> {
    await this.run(await this.teamOfKey(keyId), { type: 'SetKeyBudget', key_id: keyId, budget });
  }

  async listKeys(teamId: string, now = new Date()): Promise<KeyListing[]> {
    const state = await this.state(teamId);
    if (state.status === 'absent') throw new NotFound(`team ${teamId} does not exist`);
    const listed = Object.entries(state.keys)
      .map(([key_id, key]) => ({
        key_id,
        status:
          key.revoked || (key.expires_at !== undefined && Date.parse(key.expires_at) <= now.getTime())
            ? ('revoked' as const)
            : key.expires_at !== undefined
              ? ('expiring' as const)
              : ('active' as const),
        created_at: key.created_at,
        name: key.name,
        budget: key.budget,
      }))
      .sort((a, b) => a.created_at.localeCompare(b.created_at) || a.key_id.localeCompare(b.key_id));
    return Promise.all(
      listed.map(async ({ budget, ...key }): Promise<KeyListing> => {
        if (!budget) return key;
        const period = budgetPeriod(budget.per, now);
        const stream = keyBudgetStream(teamId, budget.budget_id, period.id);
        const { spent } = (await aggregateStream(this.store, stream, keyBudgetDecider)).state;
        return {
          ...key,
          budget: { max_credits: budget.max_credits, per: budget.per, spent, resets_at: period.resets_at },
        };
      }),
    );
  }

  /** The team that owns a key id, found by scanning team streams' key events. */
  async teamOfKey(keyId: string): Promise<string> {
    let after: bigint | undefined;
    for (;;) {
      const batch = await this.store.readAll({
        after,
        maxCount: 1000,
        filter: { streamPrefixes: ['team-'], eventTypePrefixes: ['ApiKeyIssued', 'ApiKeyRotated'] },
      });
      for (const event of batch) {
        const data = event.data as { key_id?: string; new_key_id?: string };
        const issued = event.type === 'ApiKeyRotated' ? data.new_key_id : data.key_id;
        if (issued === keyId) return event.stream.slice('team-'.length);
      }
      if (batch.length < 1000) throw new NotFound(`key ${keyId} does not exist`);
      after = batch[batch.length - 1].position;
    }
  }

  async revokeKey(keyId: string): Promise<void> {
    await this.run(await this.teamOfKey(keyId), { type: 'RevokeApiKey', key_id: keyId });
  }

  async rotateKey(keyId: string, overlapSeconds: number): Promise<{ key: string; keyId: string }> {
    const teamId = await this.teamOfKey(keyId);
    const fresh = generateApiKey();
    await this.run(teamId, {
      type: 'RotateApiKey',
      key_id: keyId,
      new_key_id: fresh.keyId,
      new_key_hash: fresh.hash,
      overlap_seconds: overlapSeconds,
    });
    return { key: fresh.key, keyId: fresh.keyId };
  }

  async newWebhookSecret(teamId: string): Promise<string> {
    const secret = generateWebhookSecret();
    await this.run(teamId, {
      type: 'SetWebhookSecret',
      secret_ciphertext: this.box.seal(secret),
      overlap_seconds: WEBHOOK_SECRET_OVERLAP_SECONDS,
    });
    return secret;
  }
}

/**
 * First boot with an empty log: team `demo` with a key and a webhook secret, printed once to
 * stdout outside the JSON logs so a newcomer can call the API at once.
 */
export async function bootstrapDemoTeam(
  store: EventStore,
  box: SecretBox,
  print: (line: string) => void,
): Promise<string | null> {
  if ((await store.headPosition()) >= 0n) return null;
  const { key, webhookSecret } = await new TeamAdmin(store, box, { causation_id: 'first-boot' }).createKey(
    'demo',
    'demo',
  );
  print(`Demo API key: ${key}`);
  if (webhookSecret) print(`Demo webhook secret: ${webhookSecret}`);
  return key;
}
