import { bearer } from '../support/service-process';
import { type E2eContext, json } from './harness';

type Citation = { url: string; title: string; excerpts: string[] };
type Basis = { field: string; citations: Citation[]; reasoning: string; confidence: string };
type TaskView = {
  task_id: string;
  run_id: string;
  status: string;
  output: unknown;
  basis: Basis[];
  answer: string;
  sources: string[];
  read: string[];
  considered: string[];
  fields: string[];
  usage: Record<string, unknown> | null;
  credits: number;
  usage_items: { sku: string; quantity: number; credits: number }[];
  report: string | null;
  findings: { citations: number[] }[] | null;
  sources_detailed: { index: number; url: string }[] | null;
  metadata: Record<string, string> | null;
  error: string | null;
};

const COMPANY_SCHEMA = {
  type: 'object',
  properties: {
    founded_year: { type: 'integer', description: 'Year the company was founded' },
    headquarters: { type: 'string', description: 'City where the company is headquartered' },
    ceo: { type: 'string', description: 'Name of the chief executive officer' },
    employees: { type: 'integer', description: 'Number of employees' },
  },
};

/** Task runs over HTTP on the fixture web: answers that are right, cited, and charged per step. */
export function tasksSuite(ctx: E2eContext): void {
  describe('task runs over HTTP', () => {
    const headers = () => ({ ...bearer(ctx.svc.demoKey), 'Content-Type': 'application/json' });
    const task = async (body: Record<string, unknown>): Promise<{ status: number; view: TaskView }> => {
      const response = await fetch(`${ctx.svc.baseUrl}/v1/tasks`, {
        method: 'POST',
        headers: headers(),
        body: JSON.stringify({ wait_seconds: 60, ...body }),
      });
      return { status: response.status, view: await json(response) };
    };
    /** The text of a page as the service would read it: every excerpt cited must be on it. */
    const pageText = async (publicUrl: string): Promise<string> => {
      const { host, pathname } = new URL(publicUrl);
      const url = `${ctx.web.baseUrl(host)}${pathname}`;
      const extracted = await json(
        await fetch(`${ctx.svc.baseUrl}/v1/extract`, {
          method: 'POST',
          headers: headers(),
          body: JSON.stringify({ urls: [url], format: 'text' }),
        }),
      );
      if (typeof extracted.results?.[0]?.content !== 'string')
        throw new Error(`cannot read ${url}: ${JSON.stringify(extracted).slice(0, 300)}`);
      return extracted.results[0].content as string;
    };

    it('a json task with a 4-field schema about a company fills every field with what the pages state, each citing a page that states it', async () => {
      const { status, view } = await task({
        task: 'Company profile of Acme Robotics',
        output_schema: { type: 'json', json_schema: COMPANY_SCHEMA },
        metadata: { ticket: 'T-1' },
      });
      expect(status).toBe(200);
      expect(view.status).toBe('completed');
      expect(view.output).toEqual({
        founded_year: 2014,
        headquarters: 'Pittsburgh',
        ceo: 'Lena Okonkwo',
        employees: 620,
      });
      expect(view.fields).toEqual(['founded_year', 'headquarters', 'ceo', 'employees']);
      expect(view.basis.map((b) => b.field)).toEqual(view.fields);
      const output = view.output as Record<string, unknown>;
      for (const basis of view.basis) {
        expect(basis.citations.length).toBeGreaterThan(0);
        expect(['high', 'medium', 'low']).toContain(basis.confidence);
        for (const citation of basis.citations) {
          expect(view.read).toContain(citation.url);
          const text = await pageText(citation.url);
          for (const excerpt of citation.excerpts) {
            expect(text).toContain(excerpt);
            expect(excerpt.replace(/,/g, '')).toContain(String(output[basis.field]));
          }
        }
      }
      expect(view.metadata).toEqual({ ticket: 'T-1' });
      expect(view.usage).toMatchObject({
        search_queries: expect.any(Number),
        pages_fetched: expect.any(Number),
        planner_calls: 1,
        scratchpad_mode: null,
      });
      const steps = view.usage_items.find((i) => i.sku === 'sku_task_step')!;
      expect(steps.quantity).toBeGreaterThan(3);
      expect(steps.quantity).toBeLessThanOrEqual(12);
      expect(view.credits).toBe(steps.credits);
    });

    it('a field that asks for the answer itself is the answer, short (the value, not a sentence), cited', async () => {
      const { view } = await task({
        task: 'When was Acme Robotics founded?',
        processor: 'base',
        output_schema: {
          type: 'json',
          json_schema: {
            type: 'object',
            properties: { answer: { type: 'string', description: 'the answer to the task' } },
            required: ['answer'],
          },
        },
      });
      expect(view.status).toBe('completed');
      expect(view.output).toEqual({ answer: '2014' });
      const [basis] = view.basis;
      expect(basis).toMatchObject({ field: 'answer', confidence: expect.stringMatching(/^(high|medium)$/) });
      expect(basis!.citations.length).toBeGreaterThan(0);
      expect(basis!.citations[0]!.excerpts.join(' ')).toContain('2014');
    });

    it('a value no page states is null, with low confidence and reasoning that says so', async () => {
      const { view } = await task({
        task: 'Company profile of Acme Robotics',
        processor: 'base',
        output_schema: {
          type: 'object',
          properties: {
            patent_count: { type: 'integer', description: 'Number of patents granted' },
            founded_year: { type: 'integer', description: 'Year the company was founded' },
          },
        },
      });
      expect(view.status).toBe('completed');
      expect(view.output).toEqual({ patent_count: null, founded_year: 2014 });
      expect(view.basis[0]).toMatchObject({
        field: 'patent_count',
        citations: [],
        confidence: 'low',
        reasoning: expect.stringMatching(/no page/i),
      });
      // base: a plan, one search, at most one batch of reads (none when the index has the text), one synthesis.
      expect(view.usage_items).toHaveLength(1);
      expect(view.usage_items[0]!.sku).toBe('sku_task_step');
      expect(view.usage_items[0]!.quantity).toBeGreaterThanOrEqual(3);
      expect(view.usage_items[0]!.quantity).toBeLessThanOrEqual(4);
    });

    it('a text task returns a cited answer whose citations resolve to pages read', async () => {
      const { view } = await task({
        task: 'Where is the Acme Robotics fulfilment hub in Rotterdam and what does it do?',
        output_schema: { type: 'text' },
      });
      expect(view.status).toBe('completed');
      expect(typeof view.output).toBe('string');
      expect(view.answer).toBe(view.output);
      expect(view.answer).toMatch(/\[\d+\]/);
      expect(view.basis).toHaveLength(1);
      expect(view.basis[0]!.field).toBe('output');
      expect(view.basis[0]!.citations.length).toBeGreaterThan(0);
      expect(view.report).toBeNull();
    });

    it('an ultra task fills report, findings and sources_detailed', async () => {
      const { view } = await task({
        task: 'What is known about sodium-ion batteries at Harborview University?',
        processor: 'ultra',
        output_schema: { type: 'text' },
      });
      expect(view.status).toBe('completed');
      expect(view.report).toMatch(/\[\d+\]/);
      expect(view.findings!.length).toBeGreaterThan(0);
      expect(view.sources_detailed!.length).toBeGreaterThan(0);
      const indexes = new Set(view.sources_detailed!.map((s) => s.index));
      for (const n of [...view.report!.matchAll(/\[(\d+)\]/g)].map((m) => Number(m[1])))
        expect(indexes.has(n)).toBe(true);
      expect(view.usage_items[0]!.quantity).toBeLessThanOrEqual(30);
    });

    it('POST /v1/tasks/runs answers 202 at once with the queued run; both retrieve routes give the same view', async () => {
      const response = await fetch(`${ctx.svc.baseUrl}/v1/tasks/runs`, {
        method: 'POST',
        headers: headers(),
        body: JSON.stringify({ query: 'Acme Robotics founders' }),
      });
      expect(response.status).toBe(202);
      const created = (await json(response)) as TaskView;
      expect(created).toMatchObject({
        task_id: created.run_id,
        task: 'Acme Robotics founders',
        output: null,
        basis: [],
        answer: '',
        credits: 0,
        processor: 'core',
      });
      expect(['queued', 'running']).toContain(created.status);
      const a = await json(await fetch(`${ctx.svc.baseUrl}/v1/tasks/${created.task_id}`, { headers: headers() }));
      const b = await json(await fetch(`${ctx.svc.baseUrl}/v1/tasks/runs/${created.task_id}`, { headers: headers() }));
      expect(a.task_id).toBe(created.task_id);
      expect(b.task_id).toBe(created.task_id);
    });

    it('fills the stated numbers and name right on a page the schema filler was never tuned on', async () => {
      // The Example Daily's story on HelioGrid's Harborview plant: not a page of the tuning fixture.
      const { view } = await task({
        task: 'HelioGrid battery cabinet plant in Harborview',
        output_schema: {
          type: 'object',
          properties: {
            jobs: { type: 'integer', description: 'Number of jobs the plant creates' },
            lease_years: { type: 'integer', description: 'Years the city will lease the land' },
            chief_executive: { type: 'string', description: 'Name of the chief executive' },
          },
        },
      });
      const output = view.output as Record<string, unknown>;
      expect(output).toEqual({ jobs: 450, lease_years: 30, chief_executive: 'Priya Raman' });
      for (const basis of view.basis) expect(basis.citations[0]!.url).toMatch(/helio-grid-battery-plant/);
    });

    it('refuses bad bodies with the field and the bound', async () => {
      const post = (body: unknown) =>
        fetch(`${ctx.svc.baseUrl}/v1/tasks/runs`, { method: 'POST', headers: headers(), body: JSON.stringify(body) });
      const detail = async (body: unknown) => {
        const response = await post(body);
        expect(response.status).toBe(422);
        return (await json(response)).detail as {
          type: string;
          loc: (string | number)[];
          msg: string;
          ctx?: unknown;
        }[];
      };
      expect((await detail({}))[0]).toMatchObject({ type: 'missing', loc: ['body', 'task'] });
      expect((await detail({ task: '' }))[0]).toMatchObject({
        type: 'string_too_short',
        loc: ['body', 'task'],
        ctx: { min_length: 1 },
      });
      expect((await detail({ task: 'x', processor: 'max' }))[0]).toMatchObject({
        type: 'enum',
        loc: ['body', 'processor'],
      });
      expect((await detail({ task: 'x', wait_seconds: 301 }))[0]).toMatchObject({
        type: 'less_than_equal',
        loc: ['body', 'wait_seconds'],
        ctx: { le: 300 },
      });
      const deep = {
        type: 'object',
        properties: {
          a: {
            type: 'object',
            properties: {
              b: { type: 'object', properties: { c: { type: 'object', properties: { d: { type: 'string' } } } } },
            },
          },
        },
      };
      expect((await detail({ task: 'x', output_schema: deep }))[0]).toMatchObject({
        type: 'value_error',
        loc: ['body', 'output_schema'],
        msg: expect.stringContaining('at most 3'),
      });
      const long = {
        type: 'object',
        properties: Object.fromEntries(
          Array.from({ length: 400 }, (_, i) => [`field_${i}`, { type: 'string', description: 'x'.repeat(60) }]),
        ),
      };
      expect((await detail({ task: 'x', output_schema: long }))[0]).toMatchObject({
        type: 'value_error',
        msg: expect.stringContaining('25000'),
      });
      expect(
        (await detail({ task: 'x', output_schema: { type: 'json', json_schema: { type: 'nope' } } }))[0],
      ).toMatchObject({ type: 'value_error', msg: expect.stringContaining('not a valid JSON Schema') });
      expect((await detail({ task: 'x', metadata: { a: 1 } }))[0]).toMatchObject({
        type: 'string_type',
        loc: ['body', 'metadata', 'a'],
      });
      // Blank where text is needed, refused by the service behind the gateway: still a list of errors.
      expect((await detail({ task: '   ' }))[0]).toMatchObject({
        type: 'value_error',
        loc: ['body'],
        msg: expect.stringContaining('task must be at least 1 character'),
      });
      const findall = await fetch(`${ctx.svc.baseUrl}/v1/findall`, {
        method: 'POST',
        headers: headers(),
        body: JSON.stringify({ query: '   ', limit: 5 }),
      });
      expect(findall.status).toBe(422);
      expect((await json(findall)).detail[0]).toMatchObject({ loc: ['body', 'query'] });
      // A NUL (or any control character) in a metadata key: BSON refuses it, so the read models could not store the run.
      expect((await detail({ task: 'x', metadata: { 'a\u0000b': 'v' } }))[0]).toMatchObject({
        type: 'value_error',
        loc: ['body', 'metadata', 'a\u0000b'],
        msg: expect.stringContaining('control characters'),
      });
      expect((await detail({ task: 'x', metadata: { 'tab\there': 'v' } }))[0]).toMatchObject({
        type: 'value_error',
        loc: ['body', 'metadata', 'tab\there'],
      });
      // A $ref may only point inside the request's own schema.
      for (const ref of [
        'urn:x',
        'https://schemas.example.test/company.json',
        'http://json-schema.org/draft-07/schema#',
      ]) {
        const schema = { type: 'object', properties: { a: { $ref: ref } } };
        expect((await detail({ task: 'x', output_schema: schema }))[0]).toMatchObject({
          type: 'value_error',
          loc: ['body', 'output_schema'],
          msg: expect.stringContaining('points outside the schema'),
        });
      }
      expect(
        (
          await detail({
            task: 'x',
            output_schema: { type: 'object', properties: { a: { $ref: '#/definitions/none' } } },
          })
        )[0],
      ).toMatchObject({ msg: expect.stringContaining('points to nothing') });
      const tasks = await json(await fetch(`${ctx.svc.baseUrl}/v1/tasks?status=bogus`, { headers: headers() }));
      expect(tasks.detail[0]).toMatchObject({ type: 'enum', loc: ['query', 'status'] });
    });

    it('lets two teams use the same schema $id, and each gets its own schema', async () => {
      const otherKey = (await ctx.svc.keys('create', '--team', 'same-id-other')).stdout.trim();
      ctx.secrets.push(otherKey);
      const schemaOf = (field: string) => ({
        $id: 'urn:x',
        type: 'object',
        properties: { [field]: { type: 'string', description: `The ${field} of the company` } },
      });
      const post = (key: string, field: string) =>
        fetch(`${ctx.svc.baseUrl}/v1/tasks/runs`, {
          method: 'POST',
          headers: { ...bearer(key), 'Content-Type': 'application/json' },
          body: JSON.stringify({ task: 'Acme Robotics', output_schema: schemaOf(field) }),
        });
      const first = await post(ctx.svc.demoKey, 'headquarters');
      expect(first.status).toBe(202);
      let second = await post(otherKey, 'ceo');
      // A new key is honoured once the gateway's read model has it.
      for (let i = 0; second.status === 401 && i < 50; i++) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        second = await post(otherKey, 'ceo');
      }
      expect(second.status).toBe(202);
      const [a, b] = [await json(first), await json(second)];
      const fieldsOf = async (key: string, runId: string) => {
        for (let i = 0; i < 600; i++) {
          const view = await json(await fetch(`${ctx.svc.baseUrl}/v1/tasks/runs/${runId}`, { headers: bearer(key) }));
          if (!['queued', 'running'].includes(view.status)) return Object.keys(view.output ?? {});
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
        throw new Error(`${runId} never ended`);
      };
      expect(await fieldsOf(ctx.svc.demoKey, a.run_id)).toEqual(['headquarters']);
      expect(await fieldsOf(otherKey, b.run_id)).toEqual(['ceo']);
    });

    it('lists tasks newest first with status, limit and offset; list items are full views', async () => {
      const page = await json(
        await fetch(`${ctx.svc.baseUrl}/v1/tasks?status=completed&limit=2&offset=0`, { headers: headers() }),
      );
      expect(page).toMatchObject({ limit: 2, offset: 0, total: expect.any(Number) });
      expect(page.tasks.length).toBeGreaterThan(0);
      for (const item of page.tasks as TaskView[]) {
        expect(item).toMatchObject({ status: 'completed', task_id: expect.any(String), output: expect.anything() });
        expect(Array.isArray(item.basis) && Array.isArray(item.usage_items) && item.usage_items.length > 0).toBe(true);
      }
      const next = await json(
        await fetch(`${ctx.svc.baseUrl}/v1/tasks?status=completed&limit=2&offset=2`, { headers: headers() }),
      );
      const ids = [...page.tasks, ...next.tasks].map((t: TaskView) => t.task_id);
      expect(new Set(ids).size).toBe(ids.length);
    });
  });
}
