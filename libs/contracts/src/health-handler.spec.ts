import { ServiceReadiness, serviceReady } from './health-handler.module';
import { HEALTH_STATUSES } from './health.dto';

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('ServiceReadiness', () => {
  it('is starting while a wait is pending, ok once all are done', async () => {
    const readiness = new ServiceReadiness();
    expect(readiness.state).toEqual({ status: 'ok' });
    let done!: () => void;
    readiness.waitFor('the search index', new Promise<void>((resolve) => (done = resolve)));
    readiness.waitFor('the typo vocabulary', Promise.resolve());
    await settle();
    expect(readiness.state).toEqual({ status: 'starting', detail: 'waiting for the search index' });
    done();
    await settle();
    expect(readiness.state).toEqual({ status: 'ok' });
  });

  it('is failed, with the error, once a wait fails: it never becomes ok', async () => {
    const readiness = new ServiceReadiness();
    readiness.waitFor('the search index', Promise.reject(new Error('disk full')));
    await settle();
    expect(readiness.state).toEqual({ status: 'failed', detail: 'the search index failed: disk full' });
    expect(HEALTH_STATUSES).toContain(readiness.state.status);
  });
});

describe('serviceReady', () => {
  const bus = (reply: unknown) => ({ request: async () => reply as never });

  it('resolves on ok and rejects with the state and why otherwise', async () => {
    await expect(
      serviceReady(bus({ service: 'search', status: 'ok', pid: 1, uptime_s: 0 }), 'search', 100),
    ).resolves.toBeUndefined();
    await expect(
      serviceReady(
        bus({ service: 'search', status: 'starting', detail: 'waiting for the search index', pid: 1, uptime_s: 0 }),
        'search',
        100,
      ),
    ).rejects.toThrow('search is starting: waiting for the search index');
  });
});
