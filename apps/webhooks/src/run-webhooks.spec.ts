import type { RecordedEvent } from '@app/eventstore';
import { runWebhookDelivery } from './run-webhooks';

const at = '2026-01-01T00:00:00.000Z';
let revision = 0n;
const recorded = (type: string, data: Record<string, unknown>): RecordedEvent => ({
  id: `e${revision}`,
  stream: 'search-s1',
  type,
  data,
  metadata: {},
  revision: revision++,
  position: revision,
  created: at,
});

const requested = (webhook: string | null) =>
  recorded('SearchRunRequested', {
    search_id: 's1',
    team_id: 'acme',
    key_id: 'k1',
    request_id: 'r1',
    params: {
      queries: ['q'],
      prompt: null,
      objective: null,
      limit: 5,
      country: 'us',
      language: 'en',
      max_subqueries: 2,
      max_fetches: 2,
      webhook,
    },
    requested_at: at,
  });

const policy = { max_attempts: 3, backoff_seconds: 30 };

describe('runWebhookDelivery', () => {
  beforeEach(() => {
    revision = 0n;
  });

  it('announces a completed run with its view, dated by the end event', () => {
    const run = [
      requested('https://hooks.example.com/in'),
      recorded('SearchRunCompleted', { completed_at: '2026-01-01T00:05:00.000Z' }),
    ];
    expect(runWebhookDelivery(run, run[1], policy)).toEqual({
      type: 'RequestDelivery',
      delivery: {
        delivery_id: 'search_run.completed-s1',
        team_id: 'acme',
        url: 'https://hooks.example.com/in',
        type: 'search_run.completed',
        signer: 'team-acme',
        payload: {
          type: 'search_run.completed',
          timestamp: '2026-01-01T00:05:00.000Z',
          data: expect.objectContaining({
            search_id: 's1',
            status: 'completed',
            completedAt: '2026-01-01T00:05:00.000Z',
          }),
        },
        ...policy,
      },
    });
  });

  it('folds the view only up to the end event, so a later replay builds the same payload', () => {
    const run = [
      requested('https://hooks.example.com/in'),
      recorded('SearchRunFailed', { error: 'boom', failed_at: at }),
      recorded('ResultsMerged', { results: [{ url: 'https://late.example.com' }], reranked: true }),
    ];
    const delivery = runWebhookDelivery(run, run[1], policy)!.delivery;
    expect(delivery.type).toBe('search_run.failed');
    expect(delivery.payload!.data).toMatchObject({ status: 'failed', error: 'boom', results: [], reranked: false });
  });

  it('announces nothing for a run without a webhook', () => {
    const run = [requested(null), recorded('SearchRunCancelled', { cancelled_at: at })];
    expect(runWebhookDelivery(run, run[1], policy)).toBeUndefined();
  });
});

describe('runWebhookDelivery for a reopened run', () => {
  it('gives each end after a reopening a delivery of its own (the second used to share the first’s id, so it was never sent)', () => {
    let rev = 0n;
    const ev = (type: string, data: Record<string, unknown>): RecordedEvent => ({
      id: `f${rev}`,
      stream: 'findall-f1',
      type,
      data,
      metadata: {},
      revision: rev++,
      position: rev,
      created: at,
    });
    const params = {
      query: 'robotics companies',
      fields: ['city'],
      output_schema: null,
      limit: 2,
      webhook: 'https://hooks.example.com/in',
    };
    const run = [
      ev('FindAllRunRequested', {
        findall_id: 'f1',
        team_id: 'acme',
        key_id: 'k1',
        request_id: 'r1',
        params,
        requested_at: at,
      }),
      ev('FindAllRunStarted', { worker_id: 'w1', lease_until: at, started_at: at, resumed: false }),
      ev('FindAllRunCompleted', { completed_at: at }),
      ev('FindAllRunReopened', { team_id: 'acme', reason: 'extend', detail: { additional_limit: 3 }, reopened_at: at }),
      ev('FindAllRunStarted', { worker_id: 'w1', lease_until: at, started_at: at, resumed: false }),
      ev('FindAllRunCompleted', { completed_at: '2026-01-01T01:00:00.000Z' }),
    ];
    const first = runWebhookDelivery(run, run[2]!, policy)!.delivery;
    const second = runWebhookDelivery(run, run[5]!, policy)!.delivery;
    expect(first.delivery_id).toBe('findall_run.completed-f1');
    expect(second.delivery_id).toBe('findall_run.completed-f1-2');
    expect(second.payload!.timestamp).toBe('2026-01-01T01:00:00.000Z');
  });
});
