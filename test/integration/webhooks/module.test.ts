import * as fs from 'node:fs';
import * as path from 'node:path';
import { randomBytes } from 'node:crypto';
import { Test, type TestingModule } from '@nestjs/testing';
import { loadConfig } from '@app/config';
import { type EventStore } from '@app/eventstore';
import { CoreModule } from '@app/platform/core/core.module';
import { SecretBox } from '@app/platform/secrets';
import { TeamAdmin } from '@app/platform/teams/team-admin';
import { WebhooksModule } from '../../../apps/webhooks/src/webhooks.module';
import { finished, ofType, openLog, Receiver, seedRun, tempDir } from './harness';

/**
 * The service as `main.ts` composes it (CoreModule from the environment + WebhooksModule): the
 * worker starts with the application, takes its retry policy and SSRF exceptions from the
 * configuration, and drains on close.
 */
describe('WebhooksModule', () => {
  let dir: string;
  let store: EventStore;
  let receiver: Receiver;
  let app: TestingModule | undefined;

  beforeEach(() => {
    dir = tempDir();
  });

  afterEach(async () => {
    await app?.close();
    await receiver?.close();
    await store?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('delivers run webhooks with the configured retry policy, and stops with the application', async () => {
    const secretsKey = randomBytes(32).toString('base64');
    store = openLog(dir);
    const secret = (await new TeamAdmin(store, SecretBox.fromBase64(secretsKey)).createKey('acme')).webhookSecret!;
    receiver = await new Receiver(
      () => secret,
      (n) => (n === 0 ? 500 : 200),
    ).start();
    const config = loadConfig({
      DATA_DIR: dir,
      EVENTSTORE_URL: `sqlite://${path.join(dir, 'events.db')}`,
      SECRETS_KEY: secretsKey,
      FETCH_ALLOW_HOSTS: `127.0.0.1:${receiver.port}`,
      WEBHOOK_MAX_ATTEMPTS: '4',
      WEBHOOK_BACKOFF_SECONDS: '0',
    });
    app = await Test.createTestingModule({ imports: [CoreModule.forRoot(config), WebhooksModule] }).compile();
    await app.init();

    const { searchId } = await seedRun(store, { teamId: 'acme', webhook: receiver.url() });
    const events = await finished(store, `search_run.completed-${searchId}`);
    await app.close();
    app = undefined;

    expect(ofType(events, 'WebhookDeliveryRequested')[0]).toMatchObject({ max_attempts: 4, backoff_seconds: 0 });
    expect(receiver.requests.map((r) => [r.status, r.verified])).toEqual([
      [500, true],
      [200, true],
    ]);
  });
});
