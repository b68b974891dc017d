/**
 * A run's own budget (`max_credits`, API.md "Budgets") through the service: a run whose next step
 * would pass it ends `completed` with `termination_reason: "budget_exhausted"` and what it has, and
 * is never charged past it; the log's charges say the same. Crawl's case is in crawl.e2e.ts.
 */
import { apiCall, json, useService } from './harness';

jest.setTimeout(120_000);

type Item = { sku: string; quantity: number; credits: number };

describe('run budgets (standalone)', () => {
  const ctx = useService('standalone');
  const call = apiCall(ctx);
  const ended = async (route: string) => {
    for (let i = 0; i < 1200; i++) {
      const view = await json(await call('GET', route));
      const status = typeof view.status === 'string' ? view.status : view.status.status;
      if (!['queued', 'running'].includes(status)) return view;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error(`${route} did not end`);
  };
  /** What the run's own stream charged, from its audit history. */
  const loggedCredits = async (route: string) =>
    ((await json(await call('GET', `${route}/history`))).events as Array<{ type: string; data: { credits?: number } }>)
      .filter((e) => e.type === 'CreditsCharged')
      .reduce((sum, e) => sum + (e.data.credits ?? 0), 0);

  // The most queries a deep run takes (DEEP_SEARCH_BOUNDS: 5).
  const FIVE = ['battery', 'robot', 'solar', 'tram', 'library'];

  it('a deep run with max_credits 3 over 5 queries ends completed, budget_exhausted, charged 3', async () => {
    const created = await call('POST', '/v1/search', { depth: 'deep', queries: FIVE, max_credits: 3, max_fetches: 4 });
    expect(created.status).toBe(202);
    const id = (await json(created)).search_id;
    const view = await ended(`/v1/searches/${id}`);
    expect(view).toMatchObject({ status: 'completed', termination_reason: 'budget_exhausted', credits: 3 });
    expect(view.usage_items).toEqual([{ sku: 'sku_deep_search', quantity: 3, credits: 3 }]);
    expect(view.report).toEqual(expect.any(String));
    expect(await loggedCredits(`/v1/searches/${id}`)).toBe(3);
    // Without a budget the same run is charged its five queries and was not stopped.
    const free = await ended(
      `/v1/searches/${(await json(await call('POST', '/v1/search', { depth: 'deep', queries: FIVE, max_fetches: 4 }))).search_id}`,
    );
    expect(free).toMatchObject({ status: 'completed', termination_reason: null });
    expect(free.usage_items.find((i: Item) => i.sku === 'sku_deep_search')).toEqual({
      sku: 'sku_deep_search',
      quantity: 5,
      credits: 5,
    });
  });

  it('a FindAll run with max_credits 2 stops at its budget: completed, budget_exhausted, charged at most 2', async () => {
    const created = await call('POST', '/v1/findall/runs', {
      query: 'robotics companies founded after 2015',
      limit: 10,
      max_credits: 2,
    });
    expect(created.status).toBe(202);
    const id = (await json(created)).findall_id;
    const view = await ended(`/v1/findall/runs/${id}`);
    expect(view.status).toMatchObject({ status: 'completed', termination_reason: 'budget_exhausted' });
    expect(view.credits).toBeLessThanOrEqual(2);
    expect(await loggedCredits(`/v1/findall/runs/${id}`)).toBe(view.credits);
  });

  it('a task run with max_credits below its steps is charged its budget, not past it, and ends budget_exhausted', async () => {
    const created = await call('POST', '/v1/tasks/runs', {
      task: 'Where is the company that makes sodium-ion batteries headquartered?',
      processor: 'core',
      max_credits: 2,
    });
    expect(created.status).toBe(202);
    const id = (await json(created)).run_id;
    const view = await ended(`/v1/tasks/runs/${id}`);
    // A core task takes four steps at least (plan, search, read, write): two are charged.
    expect(view).toMatchObject({ status: 'completed', termination_reason: 'budget_exhausted', credits: 2 });
    expect(await loggedCredits(`/v1/tasks/${id}`)).toBe(view.credits);
  });

  it('a chat completion takes max_credits: charged at most its budget, and it shows its interaction_id', async () => {
    const ask = (max_credits?: number) =>
      call('POST', '/v1/chat/completions', {
        model: 'core',
        messages: [{ role: 'user', content: 'Where is the company that makes sodium-ion batteries headquartered?' }],
        ...(max_credits !== undefined && { max_credits }),
      });
    const free = await ask();
    expect(free.status).toBe(200);
    const unbounded = await json(free);
    expect(unbounded.interaction_id).toBe(unbounded.id);
    expect(unbounded.termination_reason).toBeNull();
    const steps = unbounded.usage_items.find((i: Item) => i.sku === 'sku_chat_step').quantity;
    expect(steps).toBeGreaterThan(1);
    const capped = await json(await ask(1));
    expect(capped).toMatchObject({ status: 'completed', credits: 1, termination_reason: 'budget_exhausted' });
    expect(capped.usage_items).toEqual([{ sku: 'sku_chat_step', quantity: 1, credits: 1 }]);
    const refused = await call('POST', '/v1/chat/completions', {
      model: 'core',
      messages: [{ role: 'user', content: 'x' }],
      max_credits: 0,
    });
    expect(refused.status).toBe(422);
    expect((await json(refused)).detail[0].loc).toEqual(['body', 'max_credits']);
  });

  it('max_credits that is not a whole number from 1 to 1,000,000 is a 422 naming it, and nothing is created', async () => {
    const before = (await json(await call('GET', '/v1/searches?limit=100'))).total;
    for (const [route, body] of [
      ['/v1/search', { depth: 'deep', queries: ['battery'], max_credits: 0 }],
      ['/v1/tasks/runs', { task: 'anything', max_credits: 1.5 }],
      ['/v1/findall/runs', { query: 'robotics companies', max_credits: 1_000_001 }],
    ] as const) {
      const refused = await call('POST', route, body);
      expect(refused.status).toBe(422);
      expect((await json(refused)).detail[0].loc).toEqual(['body', 'max_credits']);
    }
    expect((await json(await call('GET', '/v1/searches?limit=100'))).total).toBe(before);
  });
});
