/**
 * Key budgets (API.md "Budgets") through a cluster with two gateways: a key made with the keys CLI
 * with `--max-credits 50 --per day`, used by 20 clients at once over both gateways with a mix of
 * searches, extracts and task runs, spends 50 credits or less; every call past it is a 402 naming
 * the budget, what was spent and when it resets; the usage read model, the log's charges and the
 * CLI's `keys list` agree. The charges are decided on the log (libs/runs/src/key-budget-spend.ts),
 * so the two gateways and the services' replicas cannot both spend the last credits.
 */
import { bearer } from '../support/service-process';
import { json, useService } from './harness';

jest.setTimeout(240_000);

const BUDGET_DETAIL =
  /^this key's budget of 50 credits per day has \d+ left: \d+ spent; it resets at \d{4}-\d\d-\d\dT00:00:00\.000Z/;

describe('key budgets (cluster, two gateways)', () => {
  const ctx = useService('cluster', { REPLICAS: 'gateway=2' });
  const gateways = () => {
    const second = new URL(ctx.svc.baseUrl);
    second.port = String(Number(second.port) + 1);
    return [ctx.svc.baseUrl, second.origin];
  };
  const send = (base: string, key: string, method: string, route: string, body?: unknown) =>
    fetch(`${base}${route}`, {
      method,
      headers: { ...bearer(key), 'Content-Type': 'application/json' },
      ...(body !== undefined && { body: JSON.stringify(body) }),
    });

  it('the CLI sets a budget, lists it, and refuses a bad one naming the flag', async () => {
    const bad = await ctx.svc.keys('create', '--team', 'budgets', '--max-credits', '50');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--max-credits needs --per day, month or total');
    const week = await ctx.svc.keys('create', '--team', 'budgets', '--max-credits', '5', '--per', 'week');
    expect(week.stderr).toContain('--per must be day, month or total, got "week"');
    const made = await ctx.svc.keys(
      'create',
      '--team',
      'budgets',
      '--name',
      'script',
      '--max-credits',
      '7',
      '--per',
      'month',
    );
    expect(made.code).toBe(0);
    const key = made.stdout.trim();
    ctx.secrets.push(key);
    const id = key.slice(3, 15);
    expect((await ctx.svc.keys('list', '--team', 'budgets')).stdout).toMatch(
      new RegExp(`^${id} active \\S+ script budget=7/month spent=0 resets=\\d{4}-\\d\\d-01T00:00:00.000Z$`, 'm'),
    );
    expect((await ctx.svc.keys('update', id, '--max-credits', '9', '--per', 'total')).code).toBe(0);
    expect((await ctx.svc.keys('list', '--team', 'budgets')).stdout).toMatch(
      new RegExp(`^${id} active \\S+ script budget=9/total spent=0 resets=never$`, 'm'),
    );
    expect((await ctx.svc.keys('update', id, '--max-credits', 'none')).code).toBe(0);
    expect((await ctx.svc.keys('list', '--team', 'budgets')).stdout).toMatch(
      new RegExp(`^${id} active \\S+ script$`, 'm'),
    );
  });

  it('20 clients over two gateways spend 50 credits or less; each call past it is a 402 naming the budget', async () => {
    const made = await ctx.svc.keys(
      'create',
      '--team',
      'capped',
      '--name',
      'agent',
      '--max-credits',
      '50',
      '--per',
      'day',
    );
    expect(made.code).toBe(0);
    const key = made.stdout.trim();
    ctx.secrets.push(key);
    const [a, b] = gateways();
    for (let i = 0; i < 100 && (await send(b, key, 'GET', '/v1/usage')).status !== 200; i++)
      await new Promise((r) => setTimeout(r, 50));

    const page = `${ctx.web.baseUrl('news.example-daily.test')}/city/library-renovation`;
    const calls = [
      (base: string) => send(base, key, 'POST', '/v1/search', { queries: ['library renovation'], depth: 'fast' }),
      (base: string) => send(base, key, 'POST', '/v1/extract', { urls: [page] }),
      (base: string) =>
        send(base, key, 'POST', '/v1/tasks/runs', { task: 'Who founded Acme Robotics?', processor: 'base' }),
    ];
    const statuses: number[] = [];
    const refusals: string[] = [];
    const runs: { base: string; id: string }[] = [];
    const unexpected: string[] = [];
    await Promise.all(
      Array.from({ length: 20 }, async (_, client) => {
        let refused = 0;
        for (let i = 0; i < 12 && refused < 2; i++) {
          const base = (client + i) % 2 ? a : b;
          const response = await calls[(client + i) % calls.length](base);
          statuses.push(response.status);
          const body = await json(response);
          if (response.status === 402) {
            refused++;
            refusals.push(body.detail);
          } else if (response.status === 202) runs.push({ base, id: body.run_id });
          else if (response.status !== 200) unexpected.push(`${response.status} ${JSON.stringify(body).slice(0, 300)}`);
        }
      }),
    );
    expect(unexpected.slice(0, 3)).toEqual([]);
    expect(refusals.length).toBeGreaterThan(0);
    for (const detail of refusals) expect(detail).toMatch(BUDGET_DETAIL);

    // Runs still working charge as they go: wait until every one has ended.
    for (const run of runs) {
      for (let i = 0; i < 600; i++) {
        const view = await json(await send(run.base, key, 'GET', `/v1/tasks/runs/${run.id}`));
        if (!['queued', 'running'].includes(view.status)) break;
        await new Promise((r) => setTimeout(r, 100));
      }
    }
    const id = key.slice(3, 15);
    const listed = (await ctx.svc.keys('list', '--team', 'capped')).stdout;
    const spent = Number(new RegExp(`^${id} active \\S+ agent budget=50/day spent=(\\d+) `, 'm').exec(listed)?.[1]);
    expect(spent).toBeGreaterThan(40);
    expect(spent).toBeLessThanOrEqual(50);
    // The usage read model (every charge of the team: this key's only) says the same, on both gateways.
    for (const base of [a, b]) {
      let total = -1;
      for (let i = 0; i < 100 && total !== spent; i++) {
        total = (await json(await send(base, key, 'GET', '/v1/usage'))).total_credits;
        if (total !== spent) await new Promise((r) => setTimeout(r, 50));
      }
      expect(total).toBe(spent);
    }
    // Past the budget, a call that would charge is refused at once, on either gateway; reading is not.
    const past = await calls[0](a);
    expect(past.status).toBe(402);
    expect((await json(past)).detail).toMatch(BUDGET_DETAIL);
    expect((await send(b, key, 'GET', '/v1/usage')).status).toBe(200);
    // An agent on the MCP server meets the same refusal as a tool error with the sentence.
    const tool = await fetch(`${b}/mcp`, {
      method: 'POST',
      headers: { ...bearer(key), 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'web_search', arguments: { queries: ['library renovation'] } },
      }),
    });
    expect(tool.status).toBe(200);
    const text = await tool.text();
    expect(text).toContain('"isError":true');
    expect(text).toMatch(/402: this key's budget of 50 credits per day has 0 left: 50 spent; it resets at /);
    console.log(
      `[key-budgets] 20 clients, ${statuses.length} calls: ${statuses.filter((s) => s === 200).length} answered, ` +
        `${runs.length} task runs, ${refusals.length} refused 402; spent ${spent} of 50 (keys list = usage read model)`,
    );
  });
});
