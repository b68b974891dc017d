import * as fs from 'node:fs';
import type { EventStore } from '@app/eventstore';
import type { SecretBox } from '@app/platform/secrets';
import { TeamAdmin } from '@app/platform/teams/team-admin';
import type { DeliveryWorker } from '../../../apps/webhooks/src/delivery-worker';
import {
  finished,
  makeWorker,
  ofType,
  openLog,
  Receiver,
  type Responder,
  secretBox,
  seedRun,
  tempDir,
} from './harness';

/**
 * Restarts and replicas on one sqlite log: every worker here opens the log file on its own
 * connection and has its own in-memory read store, as separate processes would.
 */
describe('webhook delivery across restarts and replicas', () => {
  let dir: string;
  let box: SecretBox;
  let secret: string;
  let receiver: Receiver;
  let respond: Responder;
  const stores: EventStore[] = [];
  const workers: DeliveryWorker[] = [];

  const replica = (options = {}, env: Record<string, string> = {}) => {
    const store = openLog(dir);
    stores.push(store);
    const worker = makeWorker(store, box, { FETCH_ALLOW_HOSTS: `127.0.0.1:${receiver.port}`, ...env }, options);
    workers.push(worker);
    return { store, worker };
  };

  beforeEach(async () => {
    dir = tempDir();
    box = secretBox();
    const admin = openLog(dir);
    secret = (await new TeamAdmin(admin, box).createKey('acme')).webhookSecret!;
    await admin.close();
    respond = () => 204;
    receiver = await new Receiver(
      () => secret,
      (n, id) => respond(n, id),
    ).start();
  });

  afterEach(async () => {
    await Promise.all(workers.splice(0).map((worker) => worker.stop()));
    await receiver.close();
    await Promise.all(stores.splice(0).map((store) => store.close()));
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('a worker stopped after WebhookAttemptStarted is resumed by a new one, under the same webhook-id', async () => {
    respond = (n) => (n === 0 ? 'hang' : 200);
    // The first worker's attempt hangs; its shutdown cuts it before any outcome is recorded.
    const first = replica({ attemptTimeoutMs: 30_000, drainMs: 50 });
    await first.worker.start();
    const { searchId } = await seedRun(first.store, { teamId: 'acme', webhook: receiver.url() });
    await receiver.received(1);
    await first.worker.stop();
    const deliveryId = `search_run.completed-${searchId}`;
    expect((await first.store.readStream(`webhook-${deliveryId}`)).map((e) => e.type)).toEqual([
      'WebhookDeliveryRequested',
      'WebhookAttemptStarted',
    ]);

    const second = replica({ takeoverAfterMs: 300 });
    await second.worker.start();
    const events = await finished(second.store, deliveryId);

    const webhookId = ofType(events, 'WebhookDeliveryRequested')[0].webhook_id;
    expect(receiver.requests.map((r) => r.headers['webhook-id'])).toEqual([webhookId, webhookId]);
    expect(receiver.accepted.map((r) => r.headers['webhook-id'])).toEqual([webhookId]);
    expect(ofType(events, 'WebhookAttemptStarted').map((d) => d.worker_id)).toEqual([
      first.worker.workerId,
      second.worker.workerId,
    ]);
    expect(ofType(events, 'WebhookAttemptFailed')).toEqual([
      expect.objectContaining({
        attempt: 1,
        status: null,
        error: expect.stringMatching(/^interrupted: worker .* recorded no outcome/),
      }),
    ]);
    expect(ofType(events, 'WebhookDelivered')).toEqual([expect.objectContaining({ attempt: 2, status: 200 })]);
  });

  it('a delivery waiting out its backoff when its worker stops is resumed by the next one', async () => {
    respond = (n) => (n === 0 ? 503 : 204);
    const first = replica({}, { WEBHOOK_BACKOFF_SECONDS: '1' });
    await first.worker.start();
    const { searchId } = await seedRun(first.store, { teamId: 'acme', webhook: receiver.url() });
    await receiver.received(1);
    await first.worker.stop();

    const second = replica();
    await second.worker.start();
    const events = await finished(second.store, `search_run.completed-${searchId}`);

    expect(receiver.requests.map((r) => r.status)).toEqual([503, 204]);
    expect(new Set(receiver.requests.map((r) => r.headers['webhook-id'])).size).toBe(1);
    expect(ofType(events, 'WebhookAttemptStarted').map((d) => d.worker_id)).toEqual([
      first.worker.workerId,
      second.worker.workerId,
    ]);
  });

  it('a restarted worker does not deliver again what was delivered', async () => {
    const first = replica();
    await first.worker.start();
    const { searchId } = await seedRun(first.store, { teamId: 'acme', webhook: receiver.url() });
    await finished(first.store, `search_run.completed-${searchId}`);
    await first.worker.stop();

    // The restart replays the whole log (fresh read store, no checkpoint); a later run proves it got past the first.
    const second = replica();
    await second.worker.start();
    const later = await seedRun(second.store, { teamId: 'acme', webhook: receiver.url() });
    await finished(second.store, `search_run.completed-${later.searchId}`);
    await second.worker.stop();

    expect(receiver.requests.map((r) => JSON.parse(r.body).data.search_id)).toEqual([searchId, later.searchId]);
  });

  it('two workers on one log deliver each webhook once, retries included', async () => {
    // Each first attempt fails, so both replicas hold the same retry time and their timers race for attempt 2.
    const tries = new Map<string, number>();
    respond = (_n, webhookId) => {
      tries.set(webhookId, (tries.get(webhookId) ?? 0) + 1);
      return tries.get(webhookId) === 1 ? 503 : 204;
    };
    const a = replica({}, { WEBHOOK_BACKOFF_SECONDS: '1' });
    const b = replica({}, { WEBHOOK_BACKOFF_SECONDS: '1' });
    await Promise.all([a.worker.start(), b.worker.start()]);
    const runs = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        seedRun(i % 2 ? a.store : b.store, { teamId: 'acme', webhook: receiver.url(`/hooks/${i}`) }),
      ),
    );
    const streams = await Promise.all(
      runs.map(({ searchId }) => finished(a.store, `search_run.completed-${searchId}`)),
    );
    await Promise.all([a.worker.stop(), b.worker.stop()]);

    const accepted = receiver.accepted.map((r) => r.headers['webhook-id']);
    expect(new Set(accepted).size).toBe(8);
    expect(accepted).toHaveLength(8);
    expect([...tries.values()]).toEqual(Array(8).fill(2));
    for (const events of streams) {
      expect(events.map((e) => e.type)).toEqual([
        'WebhookDeliveryRequested',
        'WebhookAttemptStarted',
        'WebhookAttemptFailed',
        'WebhookAttemptStarted',
        'WebhookDelivered',
      ]);
    }
  });
});
