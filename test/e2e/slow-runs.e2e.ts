import { startFixtureWeb, type FixtureWeb } from '../support/fixture-web';
import type { ReplayServer } from '../support/replay-server';
import { bearer, type RunningService, startService } from '../support/service-process';
import { startSlowSearxng, searxngEnv } from '../support/slow-searxng';
import { json } from './harness';

jest.setTimeout(60_000);

/** Runs over a search provider that takes 300 ms a query, so a run can be cancelled mid-way; in both modes. */
describe.each(['standalone', 'cluster'] as const)('cancelling runs mid-run (%s, slow provider)', (mode) => {
  let web: FixtureWeb;
  let stub: ReplayServer;
  let svc: RunningService;

  beforeAll(async () => {
    web = await startFixtureWeb();
    stub = await startSlowSearxng(web, 300);
    svc = await startService(mode, {
      ...searxngEnv(stub, web),
    });
  }, 60_000);
  afterAll(async () => {
    await svc?.stop();
    await stub?.close();
    await web?.stop();
  });

  const headers = () => ({ ...bearer(svc.demoKey), 'Content-Type': 'application/json' });
  const view = async (id: string) => json(await fetch(`${svc.baseUrl}/v1/searches/${id}`, { headers: headers() }));

  it('cancel stops the run at once: status cancelled, results so far kept, no report, no credits', async () => {
    const started = await json(
      await fetch(`${svc.baseUrl}/v1/search`, {
        method: 'POST',
        headers: headers(),
        body: JSON.stringify({
          depth: 'deep',
          queries: ['battery', 'robot', 'solar', 'tram', 'library'],
          max_subqueries: 10,
        }),
      }),
    );
    let current = await view(started.search_id);
    for (let i = 0; i < 300 && current.results.length === 0; i++) {
      await new Promise((r) => setTimeout(r, 20));
      current = await view(started.search_id);
    }
    expect(current.status).toBe('running');
    expect(current.results.length).toBeGreaterThan(0);
    const response = await fetch(`${svc.baseUrl}/v1/searches/${started.search_id}/cancel`, {
      method: 'POST',
      headers: headers(),
    });
    expect(response.status).toBe(200);
    const cancelled = await json(response);
    expect(cancelled.status).toBe('cancelled');
    await new Promise((r) => setTimeout(r, 1_000));
    const final = await view(started.search_id);
    expect(final).toMatchObject({ status: 'cancelled', report: null, credits: 0, usage_items: [] });
    expect(final.results.length).toBeGreaterThanOrEqual(current.results.length);
    expect(final.pagesFetched).toBeLessThan(final.pagesTarget);
    const history = (
      await json(await fetch(`${svc.baseUrl}/v1/searches/${started.search_id}/history`, { headers: headers() }))
    ).events as { type: string }[];
    expect(history.map((e) => e.type)).toContain('SearchRunCancelled');
    expect(history.map((e) => e.type)).not.toContain('SearchRunCompleted');
    expect(
      (await fetch(`${svc.baseUrl}/v1/searches/${started.search_id}/cancel`, { method: 'POST', headers: headers() }))
        .status,
    ).toBe(200);
  });

  it('a completed run cannot be cancelled (409), and the slow run completes with its pages fetched once', async () => {
    const started = await json(
      await fetch(`${svc.baseUrl}/v1/search`, {
        method: 'POST',
        headers: headers(),
        body: JSON.stringify({ depth: 'deep', queries: ['rye sourdough'], max_fetches: 4 }),
      }),
    );
    let current = await view(started.search_id);
    for (let i = 0; i < 500 && ['queued', 'running'].includes(current.status); i++) {
      await new Promise((r) => setTimeout(r, 20));
      current = await view(started.search_id);
    }
    expect(current.status).toBe('completed');
    expect(current.usage.pages_fetched).toBeGreaterThan(0);
    const refused = await fetch(`${svc.baseUrl}/v1/searches/${started.search_id}/cancel`, {
      method: 'POST',
      headers: headers(),
    });
    expect(refused.status).toBe(409);
    expect(await json(refused)).toEqual({ detail: expect.any(String) });
  });

  it('a team runs at most MAX_CONCURRENT_RUNS_PER_TEAM (4) runs at once; the rest wait queued, in order', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 6; i++) {
      const response = await fetch(`${svc.baseUrl}/v1/search`, {
        method: 'POST',
        headers: headers(),
        body: JSON.stringify({ depth: 'deep', queries: [`queue test ${i}`, `second query ${i}`], max_fetches: 2 }),
      });
      ids.push((await json(response)).search_id);
    }
    await new Promise((r) => setTimeout(r, 150));
    const statuses = await Promise.all(ids.map(async (id) => (await view(id)).status));
    expect(statuses.filter((s) => s === 'running')).toHaveLength(4);
    expect(statuses.slice(4)).toEqual(['queued', 'queued']);
    const ends: Record<string, number> = {};
    for (const id of ids) {
      let current = await view(id);
      for (let i = 0; i < 1000 && ['queued', 'running'].includes(current.status); i++) {
        await new Promise((r) => setTimeout(r, 20));
        current = await view(id);
      }
      expect(current.status).toBe('completed');
      ends[id] = Date.parse(current.completedAt);
    }
    const startedAt = async (id: string) =>
      Date.parse(
        (
          (await json(await fetch(`${svc.baseUrl}/v1/searches/${id}/history`, { headers: headers() }))).events as {
            type: string;
            at: string;
          }[]
        ).find((e) => e.type === 'SearchRunStarted')!.at,
      );
    const firstEnd = Math.min(...ids.slice(0, 4).map((id) => ends[id]));
    expect(await startedAt(ids[4])).toBeGreaterThanOrEqual(firstEnd);
    expect(await startedAt(ids[5])).toBeGreaterThanOrEqual(await startedAt(ids[4]));
  });

  it('a task cancelled mid-run ends cancelled with no output and no credits; cancelling again is fine', async () => {
    const created = await json(
      await fetch(`${svc.baseUrl}/v1/tasks/runs`, {
        method: 'POST',
        headers: headers(),
        body: JSON.stringify({ task: 'Acme Robotics and HelioGrid company facts', processor: 'ultra' }),
      }),
    );
    const task = async () => json(await fetch(`${svc.baseUrl}/v1/tasks/${created.task_id}`, { headers: headers() }));
    let current = await task();
    for (let i = 0; i < 300 && current.status !== 'running'; i++) {
      await new Promise((r) => setTimeout(r, 20));
      current = await task();
    }
    expect(current.status).toBe('running');
    const response = await fetch(`${svc.baseUrl}/v1/tasks/${created.task_id}/cancel`, {
      method: 'POST',
      headers: headers(),
    });
    expect(response.status).toBe(200);
    expect((await json(response)).status).toBe('cancelled');
    await new Promise((r) => setTimeout(r, 1_000));
    expect(await task()).toMatchObject({ status: 'cancelled', output: null, basis: [], credits: 0, usage_items: [] });
    expect(
      (await fetch(`${svc.baseUrl}/v1/tasks/${created.task_id}/cancel`, { method: 'POST', headers: headers() })).status,
    ).toBe(200);
    const history = (
      await json(await fetch(`${svc.baseUrl}/v1/tasks/${created.task_id}/history`, { headers: headers() }))
    ).events as { type: string }[];
    expect(history.map((e) => e.type)).toContain('TaskRunCancelled');
    expect(history.map((e) => e.type)).not.toContain('CreditsCharged');
  });

  it('MAX_CONCURRENT_RUNS_PER_TEAM counts runs of every kind together', async () => {
    const started: { kind: 'search' | 'task'; id: string }[] = [];
    for (let i = 0; i < 3; i++) {
      const search = await json(
        await fetch(`${svc.baseUrl}/v1/search`, {
          method: 'POST',
          headers: headers(),
          body: JSON.stringify({ depth: 'deep', queries: [`mixed ${i}`, `kinds ${i}`], max_fetches: 2 }),
        }),
      );
      started.push({ kind: 'search', id: search.search_id });
      const task = await json(
        await fetch(`${svc.baseUrl}/v1/tasks/runs`, {
          method: 'POST',
          headers: headers(),
          body: JSON.stringify({ task: `mixed kinds task ${i}` }),
        }),
      );
      started.push({ kind: 'task', id: task.task_id });
    }
    await new Promise((r) => setTimeout(r, 150));
    const status = async (run: { kind: string; id: string }) =>
      (
        await json(
          await fetch(`${svc.baseUrl}${run.kind === 'search' ? `/v1/searches/${run.id}` : `/v1/tasks/${run.id}`}`, {
            headers: headers(),
          }),
        )
      ).status as string;
    const statuses = await Promise.all(started.map(status));
    expect(statuses.filter((s) => s === 'running')).toHaveLength(4);
    expect(statuses.slice(4)).toEqual(['queued', 'queued']);
    for (const run of started) {
      for (let i = 0; i < 1000 && ['queued', 'running'].includes(await status(run)); i++)
        await new Promise((r) => setTimeout(r, 20));
      expect(await status(run)).toBe('completed');
    }
  });

  it('POST /v1/tasks answers 202 with the run as it stands when it has not ended within wait_seconds', async () => {
    const started = Date.now();
    const response = await fetch(`${svc.baseUrl}/v1/tasks`, {
      method: 'POST',
      headers: headers(),
      body: JSON.stringify({ task: 'Acme Robotics and HelioGrid company facts', processor: 'ultra', wait_seconds: 1 }),
    });
    expect(response.status).toBe(202);
    expect(Date.now() - started).toBeGreaterThanOrEqual(1_000);
    const view = await json(response);
    expect(['queued', 'running']).toContain(view.status);
    expect(view).toMatchObject({ output: null, basis: [], credits: 0 });
    await fetch(`${svc.baseUrl}/v1/tasks/${view.task_id}/cancel`, { method: 'POST', headers: headers() });
  });
});
