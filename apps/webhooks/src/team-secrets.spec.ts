import { randomBytes } from 'node:crypto';
import { openSqliteEventStore, type EventStore } from '@app/eventstore';
import { SecretBox } from '@app/platform/secrets';
import { TeamAdmin, WEBHOOK_SECRET_OVERLAP_SECONDS } from '@app/platform/teams/team-admin';
import { deliverySecrets, signingSecrets } from './team-secrets';

describe('signingSecrets', () => {
  let store: EventStore;
  const box = SecretBox.fromBase64(randomBytes(32).toString('base64'));
  const later = (seconds: number) => new Date(Date.now() + seconds * 1000);

  beforeEach(() => {
    store = openSqliteEventStore(':memory:');
  });
  afterEach(() => store.close());

  it('is the team secret alone outside a rotation', async () => {
    const { webhookSecret } = await new TeamAdmin(store, box).createKey('acme');
    expect(await signingSecrets(store, box, 'acme', new Date())).toEqual([webhookSecret]);
  });

  it('adds the previous secret until the rotation overlap ends, then drops it', async () => {
    const admin = new TeamAdmin(store, box);
    const { webhookSecret: previous } = await admin.createKey('acme');
    const current = await admin.newWebhookSecret('acme');
    expect(await signingSecrets(store, box, 'acme', later(60))).toEqual([current, previous]);
    expect(await signingSecrets(store, box, 'acme', later(WEBHOOK_SECRET_OVERLAP_SECONDS + 60))).toEqual([current]);
  });

  it('refuses a team that does not exist', async () => {
    await expect(signingSecrets(store, box, 'ghost', new Date())).rejects.toThrow('team ghost does not exist');
  });

  it('signs a delivery with the secret of the stream it names, else its team’s; a stream with no secret reader is refused', async () => {
    const { webhookSecret } = await new TeamAdmin(store, box).createKey('acme');
    expect(await deliverySecrets(store, box, { team_id: 'acme', signer: 'team-acme' }, new Date())).toEqual([
      webhookSecret,
    ]);
    expect(await deliverySecrets(store, box, { team_id: 'acme' }, new Date())).toEqual([webhookSecret]);
    await expect(deliverySecrets(store, box, { team_id: 'acme', signer: 'search-s1' }, new Date())).rejects.toThrow(
      /no signing secret can be read from search-s1/,
    );
    await expect(deliverySecrets(store, box, { team_id: 'acme', signer: 'monitor-m1' }, new Date())).rejects.toThrow(
      /monitor-m1 does not exist/,
    );
  });
});
