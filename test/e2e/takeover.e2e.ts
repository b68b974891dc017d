import { startFixtureWeb, type FixtureWeb } from '../support/fixture-web';
import type { ReplayServer } from '../support/replay-server';
import { bearer, type RunningService, startService } from '../support/service-process';
import { startSlowSearxng, searxngEnv } from '../support/slow-searxng';
import { json } from './harness';

jest.setTimeout(120_000);

type HistoryEvent = { type: string; at: string; data: { worker_id?: string; resumed?: boolean } };

/**
 * Cluster mode with two research replicas (REPLICAS=research=2), each its own OS process, over a
 * SearXNG stand-in that answers after 300 ms, so a task is still running when its process goes:
 * - kill -9: the run's lease lapses (RUN_LEASE_SECONDS, 15 s by default) and another worker resumes
 *   it from its events; it ends completed within 60 s;
 * - SIGTERM: the draining process hands its runs back (TaskRunReleased) and the other replica
 *   resumes them within 5 s, without waiting for the lease.
 */
describe('task run takeover across research replicas (cluster, REPLICAS=research=2)', () => {
  let web: FixtureWeb;
  let stub: ReplayServer;
  let svc: RunningService;

  beforeAll(async () => {
    web = await startFixtureWeb();
    stub = await startSlowSearxng(web, 300);
    svc = await startService('cluster', {
      REPLICAS: 'research=2',
      ...searxngEnv(stub, web),
    });
    for (let i = 0; i < 200 && svc.servicePidHistory('research').length < 2; i++)
      await new Promise((r) => setTimeout(r, 50));
  }, 60_000);
  afterAll(async () => {
    await svc?.stop();
    await stub?.close();
    await web?.stop();
  });

  const headers = () => ({ ...bearer(svc.demoKey), 'Content-Type': 'application/json' });
  const history = async (id: string) =>
    (await json(await fetch(`${svc.baseUrl}/v1/tasks/${id}/history`, { headers: headers() }))).events as HistoryEvent[];
  const view = async (id: string) => json(await fetch(`${svc.baseUrl}/v1/tasks/${id}`, { headers: headers() }));
  const pidOf = (workerId: string) => Number(/^research-(\d+)-/.exec(workerId)![1]);

  /** Starts an ultra task and waits until a worker has recorded progress on it; returns it and its worker. */
  async function runningTask(): Promise<{ id: string; worker: string }> {
    const created = await json(
      await fetch(`${svc.baseUrl}/v1/tasks/runs`, {
        method: 'POST',
        headers: headers(),
        body: JSON.stringify({
          task: 'Acme Robotics, HelioGrid and sodium-ion battery research facts',
          processor: 'ultra',
        }),
      }),
    );
    for (let i = 0; i < 500; i++) {
      const events = await history(created.task_id);
      if (events.some((e) => e.type === 'SerpPageFetched'))
        return { id: created.task_id, worker: events.find((e) => e.type === 'TaskRunStarted')!.data.worker_id! };
      await new Promise((r) => setTimeout(r, 10));
    }
    throw new Error('the task never started');
  }

  it('the research replicas are separate OS processes', () => {
    expect(new Set(svc.servicePidHistory('research')).size).toBeGreaterThanOrEqual(2);
  });

  it('kill -9 of the process running a task: another worker resumes it and it ends completed within 60 s', async () => {
    const { id, worker } = await runningTask();
    process.kill(pidOf(worker), 'SIGKILL');
    const killedAt = Date.now();
    let final = await view(id);
    while (['queued', 'running'].includes(final.status) && Date.now() - killedAt < 60_000) {
      await new Promise((r) => setTimeout(r, 200));
      final = await view(id);
    }
    expect(final.status).toBe('completed');
    expect(Date.now() - killedAt).toBeLessThan(60_000);
    expect(final.output).toEqual(expect.any(String));
    const starts = (await history(id)).filter((e) => e.type === 'TaskRunStarted');
    expect(starts.length).toBe(2);
    expect(starts[1]!.data).toMatchObject({ resumed: true });
    expect(pidOf(starts[1]!.data.worker_id!)).not.toBe(pidOf(worker));
  });

  it('SIGTERM: the draining process hands its task back and another replica resumes it within 5 s', async () => {
    const { id, worker } = await runningTask();
    const termAt = Date.now();
    process.kill(pidOf(worker), 'SIGTERM');
    let resumedAt: number | undefined;
    let events: HistoryEvent[] = [];
    while (Date.now() - termAt < 10_000) {
      events = await history(id);
      if (events.filter((e) => e.type === 'TaskRunStarted').length >= 2) {
        resumedAt = Date.now();
        break;
      }
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(resumedAt).toBeDefined();
    const released = events.find((e) => e.type === 'TaskRunReleased')!;
    expect(released.data.worker_id).toBe(worker);
    const resumed = events.filter((e) => e.type === 'TaskRunStarted')[1]!;
    expect(resumed.data.resumed).toBe(true);
    expect(pidOf(resumed.data.worker_id!)).not.toBe(pidOf(worker));
    // Measured on the log's own clock: from the hand-back to the other replica's start.
    expect(Date.parse(resumed.at) - Date.parse(released.at)).toBeLessThan(5_000);
    expect(resumedAt! - termAt).toBeLessThan(5_000);
    let final = await view(id);
    for (let i = 0; i < 300 && ['queued', 'running'].includes(final.status); i++) {
      await new Promise((r) => setTimeout(r, 100));
      final = await view(id);
    }
    expect(final.status).toBe('completed');
  });
});
