import { registryGold, startRegistryService } from '../support/registry-web';
import { bearer, type RunningService } from '../support/service-process';
import { json } from './harness';

jest.setTimeout(120_000);

type Entity = Record<string, unknown> & { name: string; url: string };
type Candidate = {
  candidate_id: string;
  name: string;
  match_status: string;
  reasons: { condition: string; holds: boolean; evidence_url: string | null; excerpt: string | null }[];
  basis: { field: string; citations: { url: string; excerpts: string[] }[] }[];
};
type View = {
  findall_id: string;
  status:
    | string
    | {
        status: string;
        termination_reason: string;
        metrics: { generated_candidates: number; matched_candidates: number };
      };
  entities: Entity[];
  count: number;
  candidates: Candidate[] | null;
  credits: number;
  usage_items: { sku: string; quantity: number }[];
  findall_schema: { entity_type: string; conditions: { name: string; kind: string }[] } | null;
};

describe('FindAll over HTTP (standalone, a startup registry of 44 companies over 4 directory pages)', () => {
  let registry: Awaited<ReturnType<typeof startRegistryService>>;
  let svc: RunningService;

  beforeAll(async () => {
    registry = await startRegistryService('standalone');
    svc = registry.svc;
  }, 60_000);
  afterAll(async () => registry?.stop());

  const headers = () => ({ ...bearer(svc.demoKey), 'Content-Type': 'application/json' });
  const findAll = async (body: Record<string, unknown>): Promise<View> => {
    const response = await fetch(`${svc.baseUrl}/v1/findall`, {
      method: 'POST',
      headers: headers(),
      body: JSON.stringify({ wait_seconds: 60, ...body }),
    });
    expect(response.status).toBe(200);
    return json(response);
  };
  const history = async (id: string) =>
    (await json(await fetch(`${svc.baseUrl}/v1/findall/runs/${id}/history`, { headers: headers() }))).events as {
      type: string;
      data: { candidate_id?: string };
    }[];

  it('"companies headquartered in Berlin" returns exactly the gold set, each with its requested field and cited basis', async () => {
    const run = await findAll({ query: 'companies headquartered in Berlin', fields: ['founded_year'], limit: 100 });
    expect(run.status).toMatchObject({ status: 'completed', termination_reason: 'candidates_exhausted' });
    expect(run.findall_schema).toMatchObject({
      entity_type: 'companies',
      conditions: [{ name: 'headquartered in Berlin', kind: 'place' }],
    });
    expect(run.entities.map((e) => e.name).sort()).toEqual(registryGold.headquarteredIn('Berlin'));
    expect(run.count).toBe(run.entities.length);
    for (const entity of run.entities) expect(typeof entity.founded_year).toBe('number');
    const matched = run.candidates!.filter((c) => c.match_status === 'matched');
    for (const candidate of matched) {
      expect(candidate.reasons[0]).toMatchObject({
        condition: 'headquartered in Berlin',
        holds: true,
        evidence_url: expect.any(String),
        excerpt: expect.stringContaining('Berlin'),
      });
      expect(candidate.basis[0]!.citations[0]!.excerpts[0]).toMatch(/\d{4}/);
    }
    const unmatched = run.candidates!.filter((c) => c.match_status === 'unmatched');
    expect(unmatched.length).toBeGreaterThan(20);
    // One entity under two name forms is one candidate.
    expect(run.candidates!.filter((c) => /kraftwerk/i.test(c.name))).toHaveLength(1);
    expect(run.usage_items.find((i) => i.sku === 'sku_findall_match')!.quantity).toBe(run.count);
    expect(run.usage_items.find((i) => i.sku === 'sku_findall_query')!.quantity).toBeGreaterThan(0);
  });

  it('"robotics companies founded after 2015" compares years, not words, and returns exactly the gold set', async () => {
    const run = await findAll({ query: 'robotics companies founded after 2015', limit: 100 });
    expect(run.findall_schema!.conditions.map((c) => c.kind)).toEqual(['keyword', 'year_after']);
    expect(run.entities.map((e) => e.name).sort()).toEqual(registryGold.industryFoundedAfter('robotics', 2015));
  });

  it('a query written after the engine was built ("companies with more than 200 employees") also returns exactly its gold set', async () => {
    const run = await findAll({ query: 'companies with more than 200 employees', fields: ['employees'], limit: 100 });
    expect(run.findall_schema!.conditions).toEqual([
      { name: 'more than 200 employees', kind: 'count_more', value: 200 },
    ]);
    expect(run.entities.map((e) => e.name).sort()).toEqual(registryGold.moreEmployeesThan(200));
    for (const entity of run.entities) expect(entity.employees).toBeGreaterThan(200);
  });

  it('limit stops early with limit_reached; extend adds only new entities; enrich fills a new field for every match', async () => {
    const first = await findAll({ query: 'robotics companies founded after 2015', limit: 3 });
    expect(first.status).toMatchObject({ status: 'completed', termination_reason: 'limit_reached' });
    expect(first.count).toBe(3);
    const extended = await fetch(`${svc.baseUrl}/v1/findall/runs/${first.findall_id}/extend`, {
      method: 'POST',
      headers: headers(),
      body: JSON.stringify({ additional_limit: 2 }),
    });
    expect(extended.status).toBe(200);
    let view: View = await json(extended);
    for (let i = 0; i < 200 && typeof view.status === 'string'; i++) {
      await new Promise((r) => setTimeout(r, 25));
      view = await json(await fetch(`${svc.baseUrl}/v1/findall/runs/${first.findall_id}`, { headers: headers() }));
    }
    expect(view.count).toBe(5);
    expect(view.entities.slice(0, 3).map((e) => e.name)).toEqual(first.entities.map((e) => e.name));
    const checked = (await history(first.findall_id))
      .filter((e) => e.type === 'FindAllCandidateChecked')
      .map((e) => e.data.candidate_id);
    expect(new Set(checked).size).toBe(checked.length);

    const enrich = await fetch(`${svc.baseUrl}/v1/findall/runs/${first.findall_id}/enrich`, {
      method: 'POST',
      headers: headers(),
      body: JSON.stringify({ fields: ['city'] }),
    });
    expect(enrich.status).toBe(200);
    for (let i = 0; i < 200; i++) {
      view = await json(await fetch(`${svc.baseUrl}/v1/findall/runs/${first.findall_id}`, { headers: headers() }));
      if (typeof view.status !== 'string' && view.entities.every((e) => typeof e.city === 'string')) break;
      await new Promise((r) => setTimeout(r, 25));
    }
    expect(view.entities).toHaveLength(5);
    for (const entity of view.entities) expect(typeof entity.city).toBe('string');
    expect(view.usage_items.find((i) => i.sku === 'sku_findall_enrich')!.quantity).toBe(5);
    const again = await fetch(`${svc.baseUrl}/v1/findall/runs/${first.findall_id}/extend`, {
      method: 'POST',
      headers: headers(),
      body: JSON.stringify({ additional_limit: 101 }),
    });
    expect(again.status).toBe(422);
  });

  it("match_limit (Parallel's name for limit) stops the run once that many match; given beside a different limit it is a 422 on match_limit and nothing is created", async () => {
    const run = await findAll({ query: 'robotics companies founded after 2015', match_limit: 2 });
    expect(run.status).toMatchObject({ status: 'completed', termination_reason: 'limit_reached' });
    expect(run.count).toBe(2);
    const same = await findAll({ query: 'robotics companies founded after 2015', match_limit: 1, limit: 1 });
    expect(same.count).toBe(1);
    const before = await json(await fetch(`${svc.baseUrl}/v1/findall/runs?limit=100`, { headers: headers() }));
    for (const [body, bound] of [
      [{ match_limit: 2, limit: 3 }, /match_limit and limit name the same bound/],
      [{ match_limit: 0 }, /greater than or equal to 1/],
      [{ match_limit: 101 }, /less than or equal to 100/],
    ] as const) {
      const refused = await fetch(`${svc.baseUrl}/v1/findall/runs`, {
        method: 'POST',
        headers: headers(),
        body: JSON.stringify({ query: 'robotics companies founded after 2015', ...body }),
      });
      expect(refused.status).toBe(422);
      const detail = (await json(refused)).detail as Array<{ loc: unknown[]; msg: string }>;
      expect(detail[0]!.loc).toEqual(['body', 'match_limit']);
      expect(detail[0]!.msg).toMatch(bound);
    }
    const after = await json(await fetch(`${svc.baseUrl}/v1/findall/runs?limit=100`, { headers: headers() }));
    expect(after.total).toBe(before.total);
  });

  it('exclude_list: excluded entities (by URL or by name) are never checked, returned or charged, and an extend keeps the list', async () => {
    const gold = registryGold.headquarteredIn('Berlin');
    const first = await findAll({ query: 'companies headquartered in Berlin', fields: ['founded_year'], limit: 100 });
    expect(first.entities.map((e) => e.name).sort()).toEqual(gold);
    // One passed as the entity row it is (with its fields), one by URL, two by name written
    // another way (the legal suffix and case differ) or as it is.
    const [a, b, c, d] = first.entities;
    expect(a!.founded_year).toEqual(expect.any(Number));
    const exclude_list = [
      a!,
      { url: b!.url, name: null },
      { name: `${c!.name.toUpperCase()} GmbH` },
      { name: d!.name },
    ];
    const excluded = new Set([a!.name, b!.name, c!.name, d!.name]);
    const second = await findAll({ query: 'companies headquartered in Berlin', limit: 2, exclude_list });
    expect(second.status).toMatchObject({ status: 'completed', termination_reason: 'limit_reached' });
    const extended = await fetch(`${svc.baseUrl}/v1/findall/runs/${second.findall_id}/extend`, {
      method: 'POST',
      headers: headers(),
      body: JSON.stringify({ additional_limit: 98 }),
    });
    expect(extended.status).toBe(200);
    let view: View = await json(extended);
    for (let i = 0; i < 400 && typeof view.status === 'string'; i++) {
      await new Promise((r) => setTimeout(r, 25));
      view = await json(await fetch(`${svc.baseUrl}/v1/findall/runs/${second.findall_id}`, { headers: headers() }));
    }
    expect(view.entities.map((e) => e.name).sort()).toEqual(gold.filter((name) => !excluded.has(name)));
    // Never a candidate (so never checked), and only the matches returned are charged.
    for (const candidate of view.candidates!) expect(excluded.has(candidate.name)).toBe(false);
    const found = (await history(second.findall_id)).filter((e) => e.type === 'FindAllCandidateFound').length;
    expect(found).toBe(view.candidates!.length);
    expect(view.usage_items.find((i) => i.sku === 'sku_findall_match')!.quantity).toBe(gold.length - 4);

    // Bad lists are refused with the field, and make no run.
    for (const [list, loc, msg] of [
      [[{ url: a!.url }, {}], ['body', 'exclude_list', 1], /a name or a url/],
      [[{ name: null, url: null }], ['body', 'exclude_list', 0], /a name or a url/],
      [Array.from({ length: 1_001 }, (_, i) => ({ name: `n${i}` })), ['body', 'exclude_list'], /1000/],
      [[{ url: 'not a url' }], ['body', 'exclude_list', 0, 'url'], /URL/i],
    ] as const) {
      const refused = await fetch(`${svc.baseUrl}/v1/findall/runs`, {
        method: 'POST',
        headers: headers(),
        body: JSON.stringify({ query: 'companies headquartered in Berlin', exclude_list: list }),
      });
      expect(refused.status).toBe(422);
      const [detail] = (await json(refused)).detail as { loc: unknown[]; msg: string }[];
      expect(detail!.loc).toEqual(loc);
      expect(detail!.msg).toMatch(msg);
    }
  });

  it('generator "preview": checks at most 10 candidates, fills no field, charges only queries and matches, its matches among the full run\'s; no extend', async () => {
    const gold = registryGold.headquarteredIn('Berlin');
    const preview = await findAll({
      query: 'companies headquartered in Berlin',
      fields: ['founded_year'],
      limit: 100,
      generator: 'preview',
    });
    expect(preview.status).toMatchObject({ status: 'completed' });
    expect(preview.candidates!.length).toBeLessThanOrEqual(10);
    expect(preview.candidates!.length).toBeGreaterThan(0);
    expect(preview.count).toBeGreaterThan(0);
    for (const entity of preview.entities) {
      expect(gold).toContain(entity.name);
      expect(entity.founded_year).toBeUndefined();
    }
    expect(preview.usage_items.map((i) => i.sku).sort()).toEqual(['sku_findall_match', 'sku_findall_query']);
    expect(preview.usage_items.find((i) => i.sku === 'sku_findall_query')!.quantity).toBe(1);
    const checked = (await history(preview.findall_id)).filter((e) => e.type === 'FindAllCandidateChecked');
    expect(checked.length).toBe(preview.candidates!.length);
    for (const [route, body] of [
      ['extend', { additional_limit: 5 }],
      ['enrich', { fields: ['city'] }],
    ] as const) {
      const refused = await fetch(`${svc.baseUrl}/v1/findall/runs/${preview.findall_id}/${route}`, {
        method: 'POST',
        headers: headers(),
        body: JSON.stringify(body),
      });
      expect(refused.status).toBe(409);
      expect((await json(refused)).detail).toMatch(/preview run cannot be extended or enriched/);
    }
    const unknown = await fetch(`${svc.baseUrl}/v1/findall/runs`, {
      method: 'POST',
      headers: headers(),
      body: JSON.stringify({ query: 'companies headquartered in Berlin', generator: 'pro' }),
    });
    expect(unknown.status).toBe(422);
    expect(((await json(unknown)).detail as { loc: string[] }[])[0]!.loc).toEqual(['body', 'generator']);
  });

  it('refuses extend and enrich on a run that is not completed, and bad bodies with the field', async () => {
    const bad = await fetch(`${svc.baseUrl}/v1/findall/runs`, {
      method: 'POST',
      headers: headers(),
      body: JSON.stringify({ query: '', limit: 101 }),
    });
    expect(bad.status).toBe(422);
    expect(((await json(bad)).detail as { loc: string[] }[]).map((d) => d.loc.join('.'))).toEqual([
      'body.query',
      'body.limit',
    ]);
    const enrich = await fetch(`${svc.baseUrl}/v1/findall/runs/findall_x/enrich`, {
      method: 'POST',
      headers: headers(),
      body: JSON.stringify({}),
    });
    expect(enrich.status).toBe(422);
    // An entity is an object of fields: a schema of a string is refused, naming the field (it had filled each entity with a string).
    for (const output_schema of [
      { type: 'string', description: 'each entity' },
      { type: 'json', json_schema: { type: 'array', items: { type: 'string' } } },
      {},
      { type: 'object' },
    ]) {
      const notAnObject = await fetch(`${svc.baseUrl}/v1/findall/runs`, {
        method: 'POST',
        headers: headers(),
        body: JSON.stringify({ query: 'robotics startups', output_schema }),
      });
      expect(notAnObject.status).toBe(422);
      const [detail] = (await json(notAnObject)).detail as { loc: string[]; msg: string }[];
      expect(detail!.loc).toEqual(['body', 'output_schema']);
      expect(detail!.msg).toMatch(/an entity schema describes an object/);
    }
  });
});

/** The registry served slowly (150 ms a page), so a run can be caught mid-way. */
describe.each(['standalone', 'cluster'] as const)('FindAll mid-run (%s, a slow registry)', (mode) => {
  let registry: Awaited<ReturnType<typeof startRegistryService>>;
  let svc: RunningService;

  beforeAll(async () => {
    registry = await startRegistryService(mode, { delayMs: 150 });
    svc = registry.svc;
  }, 60_000);
  afterAll(async () => registry?.stop());

  const headers = () => ({ ...bearer(svc.demoKey), 'Content-Type': 'application/json' });
  const view = async (id: string): Promise<View> =>
    json(await fetch(`${svc.baseUrl}/v1/findall/runs/${id}`, { headers: headers() }));
  const start = async (query: string): Promise<View> => {
    const response = await fetch(`${svc.baseUrl}/v1/findall/runs`, {
      method: 'POST',
      headers: headers(),
      body: JSON.stringify({ query, limit: 100 }),
    });
    expect(response.status).toBe(202);
    const created: View = await json(response);
    expect(created).toMatchObject({ status: 'queued', entities: [], count: 0, credits: 0 });
    return created;
  };
  const firstMatch = async (id: string) => {
    for (let i = 0; i < 600; i++) {
      const current = await view(id);
      if (current.count > 0) return current;
      await new Promise((r) => setTimeout(r, 20));
    }
    throw new Error('no match within 12 s');
  };

  it('extend refuses a running run (409); cancel ends it cancelled and keeps the matches found so far', async () => {
    const created = await start('companies headquartered in Berlin');
    const running = await firstMatch(created.findall_id);
    expect(running.status).toBe('running');
    const refused = await fetch(`${svc.baseUrl}/v1/findall/runs/${created.findall_id}/extend`, {
      method: 'POST',
      headers: headers(),
      body: JSON.stringify({ additional_limit: 2 }),
    });
    expect(refused.status).toBe(409);
    const cancel = await fetch(`${svc.baseUrl}/v1/findall/runs/${created.findall_id}/cancel`, {
      method: 'POST',
      headers: headers(),
    });
    expect(cancel.status).toBe(200);
    await new Promise((r) => setTimeout(r, 1_000));
    const ended = await view(created.findall_id);
    expect(ended.status).toMatchObject({ status: 'cancelled', is_active: false, termination_reason: 'cancelled' });
    expect(ended.count).toBeGreaterThanOrEqual(running.count);
    expect(ended.count).toBeLessThan(registryGold.headquarteredIn('Berlin').length);
    await new Promise((r) => setTimeout(r, 500));
    expect((await view(created.findall_id)).count).toBe(ended.count);
  });

  if (mode === 'cluster') {
    it('kill -9 of the findall process mid-run: the run ends within 60 s, no candidate checked twice, the gold set found', async () => {
      const created = await start('companies headquartered in Berlin');
      await firstMatch(created.findall_id);
      const pid = svc.servicePids().get('findall')!;
      process.kill(pid, 'SIGKILL');
      const killedAt = Date.now();
      let current = await view(created.findall_id);
      while (typeof current.status === 'string' && Date.now() - killedAt < 60_000) {
        await new Promise((r) => setTimeout(r, 200));
        current = await view(created.findall_id);
      }
      expect(current.status).toMatchObject({ status: 'completed' });
      expect(Date.now() - killedAt).toBeLessThan(60_000);
      const events = (
        await json(await fetch(`${svc.baseUrl}/v1/findall/runs/${created.findall_id}/history`, { headers: headers() }))
      ).events as { type: string; data: { candidate_id?: string; resumed?: boolean } }[];
      const checked = events.filter((e) => e.type === 'FindAllCandidateChecked').map((e) => e.data.candidate_id);
      expect(new Set(checked).size).toBe(checked.length);
      expect(events.filter((e) => e.type === 'FindAllRunStarted').pop()!.data.resumed).toBe(true);
      expect(current.entities.map((e) => e.name).sort()).toEqual(registryGold.headquarteredIn('Berlin'));
    });
  }
});
