import * as fs from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { WEBHOOK_STREAM_PREFIX } from '@app/domain/webhook-delivery';
import type { EventStore } from '@app/eventstore';
import type { SecretBox } from '@app/platform/secrets';
import { TeamAdmin } from '@app/platform/teams/team-admin';
import type { DeliveryWorker } from '../../../apps/webhooks/src/delivery-worker';
import { FaultyEventStore } from '../../../libs/eventstore/src/testing/faulty-event-store';
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
  verifies,
} from './harness';

/**
 * One delivery worker on a real sqlite log, posting to a real receiver on 127.0.0.1 that verifies
 * each delivery with the standardwebhooks package. The receiver's port is the only one allowed
 * through the SSRF guard.
 */
describe('webhook delivery (one worker)', () => {
  let dir: string;
  let store: EventStore;
  let box: SecretBox;
  let secret: string;
  let receiver: Receiver;
  let worker: DeliveryWorker | undefined;
  let respond: Responder;

  const start = (env: Record<string, string> = {}, options = {}) => {
    worker = makeWorker(store, box, { FETCH_ALLOW_HOSTS: `127.0.0.1:${receiver.port}`, ...env }, options);
    return worker.start();
  };

  beforeEach(async () => {
    dir = tempDir();
    store = openLog(dir);
    box = secretBox();
    secret = (await new TeamAdmin(store, box).createKey('acme')).webhookSecret!;
    respond = () => 204;
    receiver = await new Receiver(
      () => secret,
      (n, id) => respond(n, id),
    ).start();
  });

  afterEach(async () => {
    await worker?.stop();
    worker = undefined;
    await receiver.close();
    await store.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('a run that ends with a webhook gets exactly one delivery, signed with the team secret', async () => {
    await start();
    const { searchId, endedAt } = await seedRun(store, { teamId: 'acme', webhook: receiver.url() });
    const events = await finished(store, `search_run.completed-${searchId}`);
    await worker!.stop();

    expect(events.map((e) => e.type)).toEqual([
      'WebhookDeliveryRequested',
      'WebhookAttemptStarted',
      'WebhookDelivered',
    ]);
    expect(receiver.requests).toHaveLength(1);
    const [got] = receiver.accepted;
    expect(got.verified).toBe(true);
    expect(got.headers['webhook-signature'].split(' ')).toHaveLength(1);
    expect(got.headers['webhook-id']).toBe(ofType(events, 'WebhookDeliveryRequested')[0].webhook_id);
    expect(got.headers['content-type']).toBe('application/json');
    expect(got.headers['user-agent']).toMatch(/WebResearchWebhooks/);
    expect(Math.abs(Number(got.headers['webhook-timestamp']) - Date.now() / 1000)).toBeLessThan(60);
    expect(JSON.parse(got.body)).toMatchObject({
      type: 'search_run.completed',
      timestamp: endedAt,
      data: {
        search_id: searchId,
        status: 'completed',
        queries: ['sodium ion batteries'],
        results: [{ url: 'https://example.com/a' }],
      },
    });
  });

  it('a run view too large for an event is delivered whole, its delivery request keeping it by reference', async () => {
    await start();
    // 20 results with 40,000 characters of page text each: an 800 kB view.
    const results = Array.from({ length: 20 }, (_, i) => ({
      url: `https://example.com/${i}`,
      title: `T${i}`,
      snippet: 's',
      date: null,
      domain: 'example.com',
      score: 1,
      text: `${i} ${'w'.repeat(40_000)}`,
    }));
    const { searchId } = await seedRun(store, { teamId: 'acme', webhook: receiver.url(), results });
    const events = await finished(store, `search_run.completed-${searchId}`);
    expect(events.map((e) => e.type)).toEqual([
      'WebhookDeliveryRequested',
      'WebhookAttemptStarted',
      'WebhookDelivered',
    ]);
    const [requested] = ofType(events, 'WebhookDeliveryRequested') as Array<{
      payload: unknown;
      payload_ref: { stream: string };
    }>;
    expect(requested.payload).toBeNull();
    expect(requested.payload_ref.stream).toBe(`search-${searchId}`);
    expect(JSON.stringify(requested).length).toBeLessThan(2_000);
    const [got] = receiver.accepted;
    expect(got.verified).toBe(true);
    const body = JSON.parse(got.body);
    expect(body.data.results).toHaveLength(20);
    expect(body.data.results[19].text).toBe(`19 ${'w'.repeat(40_000)}`);
  });

  it('the announcement is retried while appends fail, and one event that always fails is set aside without holding later runs back', async () => {
    const faulty = new FaultyEventStore(store);
    worker = makeWorker(faulty, box, { FETCH_ALLOW_HOSTS: `127.0.0.1:${receiver.port}` }, { followRetryMs: 20 });
    await worker.start();
    // Two failed appends of the delivery request: retried, then delivered once.
    faulty.failAppends(2);
    const first = await seedRun(store, { teamId: 'acme', webhook: receiver.url() });
    await finished(store, `search_run.completed-${first.searchId}`);
    expect(receiver.accepted).toHaveLength(1);
    // Appends fail for good on the next run's announcement: after 5 tries it is set aside...
    faulty.failAppends(5);
    const stuck = await seedRun(store, { teamId: 'acme', webhook: receiver.url() });
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    // ...and the run after it is announced all the same.
    const next = await seedRun(store, { teamId: 'acme', webhook: receiver.url() });
    await finished(store, `search_run.completed-${next.searchId}`);
    expect(receiver.accepted.map((r) => JSON.parse(r.body).data.search_id)).toEqual([first.searchId, next.searchId]);
    expect(await store.readStream(`webhook-search_run.completed-${stuck.searchId}`)).toEqual([]);
  });

  it.each([
    ['failed', 'search_run.failed', { status: 'failed', error: 'search provider unavailable' }],
    ['cancelled', 'search_run.cancelled', { status: 'cancelled' }],
  ] as const)('a %s run announces %s', async (end, type, view) => {
    await start();
    const { searchId } = await seedRun(store, { teamId: 'acme', webhook: receiver.url(), end });
    await finished(store, `${type}-${searchId}`);
    expect(receiver.accepted.map((r) => JSON.parse(r.body))).toEqual([
      expect.objectContaining({ type, data: expect.objectContaining(view) }),
    ]);
  });

  it('a receiver that fails twice (500) then succeeds gets one accepted delivery, every attempt under the same webhook-id', async () => {
    respond = (n) => (n < 2 ? 500 : 200);
    await start({ WEBHOOK_BACKOFF_SECONDS: '0' });
    const { searchId } = await seedRun(store, { teamId: 'acme', webhook: receiver.url() });
    const events = await finished(store, `search_run.completed-${searchId}`);
    await worker!.stop();

    expect(receiver.requests.map((r) => r.status)).toEqual([500, 500, 200]);
    expect(receiver.requests.every((r) => r.verified)).toBe(true);
    const ids = new Set(receiver.requests.map((r) => r.headers['webhook-id']));
    expect([...ids]).toEqual([ofType(events, 'WebhookDeliveryRequested')[0].webhook_id]);
    expect(ofType(events, 'WebhookAttemptFailed')).toEqual([
      expect.objectContaining({ attempt: 1, status: 500, error: 'HTTP 500' }),
      expect.objectContaining({ attempt: 2, status: 500, error: 'HTTP 500' }),
    ]);
    expect(ofType(events, 'WebhookDelivered')).toEqual([expect.objectContaining({ attempt: 3, status: 200 })]);
  });

  it('waits the backoff before retrying', async () => {
    respond = (n) => (n === 0 ? 503 : 200);
    await start({ WEBHOOK_BACKOFF_SECONDS: '1' });
    const { searchId } = await seedRun(store, { teamId: 'acme', webhook: receiver.url() });
    const events = await finished(store, `search_run.completed-${searchId}`);

    const [first, second] = ofType(events, 'WebhookAttemptStarted').map((d) => Date.parse(d.at as string));
    const nextAt = Date.parse(ofType(events, 'WebhookAttemptFailed')[0].next_attempt_at as string);
    expect(second).toBeGreaterThanOrEqual(nextAt);
    expect(second - first).toBeGreaterThanOrEqual(900); // 1 s -10% jitter
  });

  it('stops after max attempts', async () => {
    respond = () => 502;
    await start({ WEBHOOK_MAX_ATTEMPTS: '3' });
    const { searchId } = await seedRun(store, { teamId: 'acme', webhook: receiver.url() });
    const events = await finished(store, `search_run.completed-${searchId}`);
    await worker!.stop();

    expect(receiver.requests).toHaveLength(3);
    expect(ofType(events, 'WebhookDeliveryAbandoned')).toEqual([expect.objectContaining({ reason: 'max_attempts' })]);
  });

  it('410 Gone stops at once: no further attempt', async () => {
    respond = () => 410;
    await start({ WEBHOOK_MAX_ATTEMPTS: '5' });
    const { searchId } = await seedRun(store, { teamId: 'acme', webhook: receiver.url() });
    const events = await finished(store, `search_run.completed-${searchId}`);
    await worker!.stop();

    expect(receiver.requests).toHaveLength(1);
    expect(events.map((e) => e.type)).toEqual([
      'WebhookDeliveryRequested',
      'WebhookAttemptStarted',
      'WebhookAttemptFailed',
      'WebhookDeliveryAbandoned',
    ]);
    expect(ofType(events, 'WebhookDeliveryAbandoned')[0].reason).toBe('gone');
  });

  it('during a secret rotation the delivery carries both signatures, and each secret alone verifies it', async () => {
    const previous = secret;
    secret = await new TeamAdmin(store, box).newWebhookSecret('acme');
    await start();
    const { searchId } = await seedRun(store, { teamId: 'acme', webhook: receiver.url() });
    await finished(store, `search_run.completed-${searchId}`);

    const [got] = receiver.accepted;
    expect(got.headers['webhook-signature'].split(' ')).toHaveLength(2);
    expect(verifies(got, secret)).toBe(true);
    expect(verifies(got, previous)).toBe(true);
    expect(verifies(got, `whsec_${Buffer.alloc(24, 7).toString('base64')}`)).toBe(false);
  });

  it('shutdown lets the attempt in flight finish and record its outcome, and takes no new work', async () => {
    let answer!: (status: number) => void;
    respond = (n) => (n === 0 ? new Promise<number>((resolve) => (answer = resolve)) : 204);
    await start();
    const inFlight = await seedRun(store, { teamId: 'acme', webhook: receiver.url() });
    await receiver.received(1);
    const stopping = worker!.stop();
    const late = await seedRun(store, { teamId: 'acme', webhook: receiver.url() });
    answer(200);
    await stopping;

    const events = await store.readStream(`webhook-search_run.completed-${inFlight.searchId}`);
    expect(ofType(events, 'WebhookDelivered')).toEqual([expect.objectContaining({ attempt: 1, status: 200 })]);
    expect(await store.streamRevision(`webhook-search_run.completed-${late.searchId}`)).toBeUndefined();
    expect(receiver.requests).toHaveLength(1);
  });

  describe('a webhook URL the SSRF guard refuses', () => {
    let internal: http.Server;
    let internalConnections: number;
    let internalPort: number;

    beforeEach(async () => {
      internalConnections = 0;
      internal = http.createServer((_req, res) => res.writeHead(204).end());
      internal.on('connection', () => internalConnections++);
      await new Promise<void>((resolve) => internal.listen(0, '127.0.0.1', resolve));
      internalPort = (internal.address() as AddressInfo).port;
    });

    afterEach(async () => {
      internal.closeAllConnections();
      await new Promise((resolve) => internal.close(resolve));
    });

    it('an address literal is abandoned as blocked, and the address sees no connection', async () => {
      await start();
      const { searchId } = await seedRun(store, { teamId: 'acme', webhook: `http://127.0.0.1:${internalPort}/` });
      const events = await finished(store, `search_run.completed-${searchId}`);

      expect(ofType(events, 'WebhookDeliveryAbandoned')).toEqual([expect.objectContaining({ reason: 'blocked' })]);
      expect(ofType(events, 'WebhookAttemptFailed')[0].error).toBe('refused: 127.0.0.1 is a loopback address');
      expect(internalConnections).toBe(0);
    });

    it('a host name that resolves to a refused address is blocked at connect time', async () => {
      await start({}, { resolver: async () => [{ address: '127.0.0.1', family: 4 }] });
      const { searchId } = await seedRun(store, {
        teamId: 'acme',
        webhook: `http://hooks.customer.test:${internalPort}/`,
      });
      const events = await finished(store, `search_run.completed-${searchId}`);

      expect(ofType(events, 'WebhookDeliveryAbandoned')).toEqual([expect.objectContaining({ reason: 'blocked' })]);
      expect(ofType(events, 'WebhookAttemptFailed')[0].error).toMatch(
        /^refused: hooks\.customer\.test resolves to a loopback address/,
      );
      expect(internalConnections).toBe(0);
    });
  });

  it('runs without a webhook produce nothing', async () => {
    await start();
    const quiet = await seedRun(store, { teamId: 'acme', webhook: null });
    const failedQuiet = await seedRun(store, { teamId: 'acme', webhook: null, end: 'failed' });
    // A later run with a webhook: once it is delivered, the follower has passed the quiet ones.
    const loud = await seedRun(store, { teamId: 'acme', webhook: receiver.url() });
    await finished(store, `search_run.completed-${loud.searchId}`);
    await worker!.stop();

    const streams = new Set(
      (await store.readAll({ filter: { streamPrefixes: [WEBHOOK_STREAM_PREFIX] } })).map((e) => e.stream),
    );
    expect([...streams]).toEqual([`webhook-search_run.completed-${loud.searchId}`]);
    expect(receiver.requests.map((r) => JSON.parse(r.body).data.search_id)).toEqual([loud.searchId]);
    expect(await store.streamRevision(`webhook-search_run.completed-${quiet.searchId}`)).toBeUndefined();
    expect(await store.streamRevision(`webhook-search_run.failed-${failedQuiet.searchId}`)).toBeUndefined();
  });

  it('a team without a webhook secret fails the attempts (nothing unsigned is ever sent)', async () => {
    await start({ WEBHOOK_MAX_ATTEMPTS: '2' });
    const { searchId } = await seedRun(store, { teamId: 'ghost', webhook: receiver.url() });
    const events = await finished(store, `search_run.completed-${searchId}`);

    expect(ofType(events, 'WebhookAttemptFailed').map((d) => d.error)).toEqual([
      'cannot sign: team ghost does not exist',
      'cannot sign: team ghost does not exist',
    ]);
    expect(receiver.connections).toBe(0);
  });
});
