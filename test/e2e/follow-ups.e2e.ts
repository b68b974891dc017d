/**
 * Follow-ups (API.md "Follow-ups"): every task run and deep search has an interaction_id; a run
 * created with previous_interaction_id starts from that interaction: words that refer back name
 * its subject, and the pages it read are not fetched again while fresh.
 */
import { apiCall, json, useService } from './harness';

jest.setTimeout(120_000);

describe('follow-ups (standalone)', () => {
  const ctx = useService('standalone');
  const call = apiCall(ctx);
  const task = async (body: Record<string, unknown>) => {
    const response = await call('POST', '/v1/tasks', { wait_seconds: 90, ...body });
    expect(response.status).toBe(200);
    return json(response);
  };
  /** Requests the fixture web answered, as `host path`. */
  const served = () => ctx.web.hosts.flatMap((host) => ctx.web.requests(host).map((path) => `${host} ${path}`));
  const asServed = (url: string) => {
    const { host, pathname } = new URL(ctx.web.publicUrl(url));
    return `${host} ${pathname}`;
  };

  it('"Who founded <company>?" then "Where is it headquartered?" with previous_interaction_id: the first company\'s city, no page read again', async () => {
    const first = await task({ task: 'Who founded Acme Robotics?' });
    expect(first.status).toBe('completed');
    expect(first.interaction_id).toBe(first.run_id);
    expect(first.previous_interaction_id).toBeNull();
    expect(first.read.length).toBeGreaterThan(0);
    const before = served().length;

    const second = await task({ task: 'Where is it headquartered?', previous_interaction_id: first.interaction_id });
    expect(second.status).toBe('completed');
    expect(second.previous_interaction_id).toBe(first.interaction_id);
    expect(second.answer).toMatch(/Pittsburgh/);
    // No page the first run read was requested again: the page cache served them.
    const again = served()
      .slice(before)
      .filter((request) => first.read.map(asServed).includes(request));
    expect(again).toEqual([]);
    // The second run's history names what it followed.
    const history = await json(await call('GET', `/v1/tasks/${second.run_id}/history`));
    expect(history.events[0].data.params.follows).toMatchObject({
      interaction_id: first.interaction_id,
      question: 'Who founded Acme Robotics?',
    });
  });

  it("the same follow-up after two different interactions answers for each one's subject", async () => {
    // One company's page states a headquarters, so that case cannot show the subject was used;
    // founding years are stated for several companies.
    const acme = await task({ task: 'Who founded Acme Robotics?' });
    const helio = await task({ task: 'Who founded HelioGrid?' });
    const afterAcme = await task({ task: 'When was it founded?', previous_interaction_id: acme.interaction_id });
    const afterHelio = await task({ task: 'When was it founded?', previous_interaction_id: helio.interaction_id });
    expect(afterAcme.answer).toMatch(/2014/);
    expect(afterAcme.answer).not.toMatch(/2011/);
    expect(afterHelio.answer).toMatch(/2011/);
    expect(afterHelio.answer).not.toMatch(/2014/);
  });

  it('a deep search follows a task the same way, and carries its own interaction_id', async () => {
    const first = await task({ task: 'Who founded Acme Robotics?' });
    const created = await call('POST', '/v1/search', {
      depth: 'deep',
      queries: ['its headquarters city'],
      previous_interaction_id: first.interaction_id,
      max_fetches: 4,
    });
    expect(created.status).toBe(202);
    const view = await json(created);
    expect(view.interaction_id).toBe(view.search_id);
    expect(view.previous_interaction_id).toBe(first.interaction_id);
  });

  it('an unknown interaction is a 404 naming previous_interaction_id, one past its bound a 422, and nothing is created', async () => {
    const before = (await json(await call('GET', '/v1/tasks?limit=100'))).total;
    for (const id of ['task_00000000-0000-4000-8000-000000000000', 'search_nothing', 'nonsense']) {
      const refused = await call('POST', '/v1/tasks/runs', { task: 'Where is it?', previous_interaction_id: id });
      expect(refused.status).toBe(404);
      expect((await json(refused)).detail).toMatch(/previous_interaction_id/);
    }
    // An id past its bound (200 characters) is a 422 naming the field, not a lookup.
    const huge = await call('POST', '/v1/tasks/runs', {
      task: 'Where is it?',
      previous_interaction_id: 'x'.repeat(100_000),
    });
    expect(huge.status).toBe(422);
    expect((await json(huge)).detail[0].loc).toEqual(['body', 'previous_interaction_id']);
    expect((await json(await call('GET', '/v1/tasks?limit=100'))).total).toBe(before);
  });
});
