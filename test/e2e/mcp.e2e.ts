import * as path from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { ReplayServer } from '../support/replay-server';
import { bearer, type RunningService, startService } from '../support/service-process';
import { searxngEnv, startSlowSearxng } from '../support/slow-searxng';
import { json, useService } from './harness';
import { mcpClients, type Obj, textOf, TOOLS } from './mcp-clients';

jest.setTimeout(180_000);

const ROOT = path.join(__dirname, '..', '..');
const COMPANY_SCHEMA = {
  type: 'object',
  properties: {
    founded_year: { type: 'integer', description: 'Year the company was founded' },
    headquarters: { type: 'string', description: 'City where the company is headquartered' },
    ceo: { type: 'string', description: 'Name of the chief executive officer' },
    employees: { type: 'integer', description: 'Number of employees' },
  },
};

/**
 * The MCP server through the official SDK client: Streamable HTTP with a bearer key, and stdio.
 * Two services on the fixture web: one on its local index (whose hits carry the pages' text), and
 * one searching through a SearXNG stand-in whose hits are loopback pages that must really be read
 * (so a deep run reports each page read, and `fetch` can read what `search` found).
 */
describe('MCP server (standalone, fixture web)', () => {
  const ctx = useService('standalone');
  let reading: RunningService;
  let searxng: ReplayServer;
  const { clients, transportErrors, connectHttp, connectStdio, stdioLog } = mcpClients(ctx);

  beforeAll(async () => {
    // Each search waits 1.5 s: a deep run cannot end within a 1 s wait.
    searxng = await startSlowSearxng(ctx.web, 1_500);
    reading = await startService('standalone', searxngEnv(searxng, ctx.web));
  }, 60_000);

  afterAll(async () => {
    for (const client of clients) await client.close().catch(() => undefined);
    await reading?.stop();
    await searxng?.close();
    expect(transportErrors).toEqual([]);
  });

  describe.each([
    ['Streamable HTTP', connectHttp],
    ['stdio', connectStdio],
  ])('over %s', (transport, connect) => {
    /** On the local index; `reader` on the service whose hits are read from the fixture web. */
    let client: Client;
    let reader: Client;
    beforeAll(async () => {
      client = await connect(ctx.svc);
      reader = await connect(reading);
    });

    it('lists the thirteen tools, each with a JSON Schema input', async () => {
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name)).toEqual(TOOLS);
      for (const tool of tools) {
        expect(tool.inputSchema.type).toBe('object');
        expect(tool.description!.length).toBeGreaterThan(20);
      }
      expect(tools.find((tool) => tool.name === 'search')!.outputSchema).toMatchObject({ required: ['results'] });
    });

    it('web_search answers rows with URLs: the text lists them, structuredContent is the REST response', async () => {
      const result = (await client.callTool({
        name: 'web_search',
        arguments: { queries: ['sodium-ion battery'], limit: 5 },
      })) as CallToolResult;
      expect(result.isError).toBeFalsy();
      const response = result.structuredContent as Obj;
      expect(response.results.length).toBeGreaterThan(0);
      expect(response.results.length).toBeLessThanOrEqual(5);
      expect(response).toMatchObject({ depth: 'auto', credits: expect.any(Number), queries: ['sodium-ion battery'] });
      for (const row of response.results) {
        expect(row.url).toMatch(/^https?:\/\//);
        expect(textOf(result)).toContain(row.url);
      }
    });

    it('deep_research returns a report whose [N] markers resolve to its sources, with a progress notification per stage', async () => {
      const stages: string[] = [];
      const result = (await reader.callTool(
        {
          name: 'deep_research',
          arguments: {
            prompt: 'What is new in sodium-ion batteries?',
            queries: ['sodium-ion battery'],
            max_fetches: 6,
            wait_seconds: 120,
          },
        },
        undefined,
        { timeout: 150_000, onprogress: (progress) => void stages.push(progress.message ?? '') },
      )) as CallToolResult;
      expect(result.isError).toBeFalsy();
      const view = result.structuredContent as Obj;
      expect(view.status).toBe('completed');
      const sources = new Map<number, string>(
        (view.sources as { index: number; url: string }[]).map((s) => [s.index, s.url]),
      );
      const cited = [...String(view.report).matchAll(/\[(\d+)\]/g)].map((m) => Number(m[1]));
      expect(cited.length).toBeGreaterThan(0);
      const text = textOf(result);
      for (const n of cited) {
        expect(sources.has(n)).toBe(true);
        expect(text).toContain(`[${n}]`);
        expect(text).toContain(sources.get(n)!);
      }
      // The report comes first, the numbered sources after it.
      expect(text.indexOf(String(view.report).slice(0, 40))).toBe(0);
      // One notification per stage, as the run's log recorded them: the plan, each page read, each finding.
      const history = await json(
        await fetch(`${reading.baseUrl}/v1/searches/${view.search_id}/history`, { headers: bearer(reading.demoKey) }),
      );
      const recorded = (type: string) => (history.events as { type: string }[]).filter((e) => e.type === type).length;
      const count = (pattern: RegExp) => stages.filter((s) => pattern.test(s)).length;
      expect(recorded('SubqueriesPlanned')).toBeGreaterThan(0);
      expect(recorded('PageFetched')).toBeGreaterThan(0);
      expect(recorded('FindingGraded')).toBeGreaterThan(0);
      expect(count(/^plan: /)).toBe(recorded('SubqueriesPlanned'));
      expect(count(/^(read|could not read) https?:\/\//)).toBe(recorded('PageFetched'));
      expect(count(/^finding \(/)).toBe(recorded('FindingGraded'));
      expect(stages[stages.length - 1]).toBe('completed');

      const again = (await reader.callTool({
        name: 'get_research',
        arguments: { search_id: view.search_id },
      })) as CallToolResult;
      expect((again.structuredContent as Obj).report).toBe(view.report);
    });

    it('deep_research whose wait ends first answers the search_id, and get_research later has the report', async () => {
      const startedAt = Date.now();
      // A prompt of its own per transport: the service keeps searches it made, which would not wait.
      const prompt = transport === 'stdio' ? 'Where is HelioGrid building its plant?' : 'Who leads Acme Robotics?';
      const result = (await reader.callTool({
        name: 'deep_research',
        arguments: { prompt, max_fetches: 3, wait_seconds: 1 },
      })) as CallToolResult;
      expect(Date.now() - startedAt).toBeLessThan(15_000);
      expect(result.isError).toBeFalsy();
      const view = result.structuredContent as Obj;
      expect(['queued', 'running']).toContain(view.status);
      expect(textOf(result)).toContain(`get_research with search_id "${view.search_id}"`);
      let later: Obj = view;
      for (let i = 0; i < 300 && ['queued', 'running'].includes(later.status); i++) {
        await new Promise((r) => setTimeout(r, 200));
        later = (await reader.callTool({ name: 'get_research', arguments: { search_id: view.search_id } }))
          .structuredContent as Obj;
      }
      expect(later.status).toBe('completed');
      expect(later.report).toEqual(expect.any(String));
    });

    it('findall lists the entities found, each with its URL, reporting each as found', async () => {
      const found: string[] = [];
      const result = (await client.callTool(
        { name: 'findall', arguments: { query: 'robotics companies', limit: 5, wait_seconds: 120 } },
        undefined,
        { timeout: 150_000, onprogress: (progress) => void found.push(progress.message ?? '') },
      )) as CallToolResult;
      expect(result.isError).toBeFalsy();
      const view = result.structuredContent as Obj;
      expect(view.status).toMatchObject({ status: 'completed' });
      expect(view.entities.length).toBeGreaterThan(0);
      const text = textOf(result);
      for (const entity of view.entities) {
        expect(text).toContain(entity.url);
        expect(found).toContain(`found ${entity.name} ${entity.url}`);
      }
      const again = (await client.callTool({
        name: 'get_findall',
        arguments: { findall_id: view.findall_id },
      })) as CallToolResult;
      expect((again.structuredContent as Obj).entities).toEqual(view.entities);
      // A second call told to leave out what the first found returns none of it.
      const next = (await client.callTool(
        {
          name: 'findall',
          arguments: { query: 'robotics companies', limit: 5, wait_seconds: 120, exclude_list: view.entities },
        },
        undefined,
        { timeout: 150_000 },
      )) as CallToolResult;
      expect(next.isError).toBeFalsy();
      const urls = new Set(view.entities.map((e: Obj) => e.url));
      for (const entity of (next.structuredContent as Obj).entities) expect(urls.has(entity.url)).toBe(false);
    });

    it('findall with generator "preview" checks a few candidates and fills no field, charging no enrichment', async () => {
      const result = (await client.callTool(
        {
          name: 'findall',
          arguments: { query: 'robotics companies', fields: ['city'], generator: 'preview', wait_seconds: 120 },
        },
        undefined,
        { timeout: 150_000 },
      )) as CallToolResult;
      expect(result.isError).toBeFalsy();
      const view = result.structuredContent as Obj;
      expect(view.status).toMatchObject({ status: 'completed' });
      expect(view.candidates.length).toBeGreaterThan(0);
      expect(view.candidates.length).toBeLessThanOrEqual(10);
      for (const entity of view.entities) expect(entity.city).toBeUndefined();
      expect(view.usage_items.map((i: Obj) => i.sku)).not.toContain('sku_findall_enrich');
    });

    it('task fills a JSON schema with what the pages state, citing them', async () => {
      const result = (await client.callTool(
        {
          name: 'task',
          arguments: {
            task: 'Company profile of Acme Robotics',
            output_schema: { type: 'json', json_schema: COMPANY_SCHEMA },
            wait_seconds: 120,
          },
        },
        undefined,
        { timeout: 150_000 },
      )) as CallToolResult;
      expect(result.isError).toBeFalsy();
      const view = result.structuredContent as Obj;
      expect(view).toMatchObject({
        status: 'completed',
        output: { founded_year: 2014, headquarters: 'Pittsburgh', ceo: 'Lena Okonkwo', employees: 620 },
      });
      const text = textOf(result);
      expect(text.startsWith('Output:')).toBe(true);
      expect(text).toContain('"ceo": "Lena Okonkwo"');
      for (const url of view.sources as string[]) expect(text).toContain(url);
      const fetched = (await client.callTool({
        name: 'get_task',
        arguments: { task_id: view.task_id },
      })) as CallToolResult;
      expect((fetched.structuredContent as Obj).output).toEqual(view.output);
    });

    it('task_group runs one task per input; get_task_group shows its progress and each output', async () => {
      const made = (await client.callTool({
        name: 'task_group',
        arguments: {
          inputs: ['Where is Acme Robotics headquartered?', 'Who founded Acme Robotics?'],
          processor: 'base',
          metadata: { via: 'mcp' },
        },
      })) as CallToolResult;
      expect(made.isError).toBeFalsy();
      const group = made.structuredContent as Obj;
      expect(group.taskgroup_id).toMatch(/^tgrp_/);
      expect(group.run_ids).toHaveLength(2);
      expect(textOf(made)).toContain(`get_task_group with taskgroup_id "${group.taskgroup_id}"`);
      let view: Obj = group;
      let result: CallToolResult | undefined;
      for (let i = 0; i < 600 && view.status.is_active !== false; i++) {
        if (i) await new Promise((r) => setTimeout(r, 100));
        result = (await client.callTool({
          name: 'get_task_group',
          arguments: { taskgroup_id: group.taskgroup_id },
        })) as CallToolResult;
        view = result.structuredContent as Obj;
      }
      expect(view.status).toMatchObject({ num_task_runs: 2, is_active: false });
      expect(view.runs.map((run: Obj) => run.run_id)).toEqual(group.run_ids);
      const text = textOf(result!);
      for (const run of view.runs) {
        expect(text).toContain(run.run_id);
        if (run.status === 'completed') expect(run.output).toBeTruthy();
      }
      const bad = (await client.callTool({ name: 'task_group', arguments: { inputs: [] } })) as CallToolResult;
      expect(bad.isError).toBe(true);
    });

    it('search then fetch answer the ChatGPT connector shapes, as JSON text and structuredContent', async () => {
      const found = (await reader.callTool({
        name: 'search',
        arguments: { query: 'sodium-ion battery' },
      })) as CallToolResult;
      expect(found.isError).toBeFalsy();
      const results = (found.structuredContent as { results: Obj[] }).results;
      expect(results.length).toBeGreaterThan(0);
      expect(JSON.parse(textOf(found))).toEqual(found.structuredContent);
      for (const row of results) expect(Object.keys(row).sort()).toEqual(['id', 'title', 'url']);
      const document = (await reader.callTool({ name: 'fetch', arguments: { id: results[0]!.id } })) as CallToolResult;
      expect(document.isError).toBeFalsy();
      const doc = document.structuredContent as Obj;
      expect(Object.keys(doc).sort()).toEqual(['id', 'metadata', 'text', 'title', 'url']);
      expect(doc.id).toBe(results[0]!.id);
      expect(doc.text.length).toBeGreaterThan(100);
      expect(JSON.parse(textOf(document))).toEqual(doc);
    });

    it('a refused REST operation or a bad argument is a tool error naming the field and bound', async () => {
      const tooMany = (await client.callTool({
        name: 'web_search',
        arguments: { queries: ['a', 'b', 'c', 'd', 'e', 'f'] },
      })) as CallToolResult;
      expect(tooMany.isError).toBe(true);
      expect(textOf(tooMany)).toMatch(/queries: must NOT have more than 5 items/);
      const missing = (await client.callTool({
        name: 'get_research',
        arguments: { search_id: 'search_nope' },
      })) as CallToolResult;
      expect(missing.isError).toBe(true);
      expect(textOf(missing)).toContain('404');
      expect(textOf(missing)).toContain('search_nope');
      expect(missing.structuredContent).toMatchObject({ status: 404, detail: expect.stringContaining('search_nope') });
      const badUrl = (await client.callTool({ name: 'extract', arguments: { urls: ['not a url'] } })) as CallToolResult;
      expect(badUrl.isError).toBe(true);
      expect(textOf(badUrl)).toMatch(/^422: urls\.0: /);
    });
  });

  it('the stdio server logs to stderr only, and refuses to start without its service and key', async () => {
    expect(stdioLog()).toContain('web-research MCP server on stdio');
    expect(stdioLog()).not.toContain(ctx.svc.demoKey.slice(16));
    const { spawnSync } = await import('node:child_process');
    const bare = spawnSync(process.execPath, [path.join(ROOT, 'scripts', 'service.js'), 'mcp'], {
      env: { PATH: process.env.PATH ?? '' },
      input: '',
      encoding: 'utf8',
    });
    expect(bare.status).toBe(2);
    expect(bare.stdout).toBe('');
    expect(bare.stderr).toContain('WEB_RESEARCH_URL and WEB_RESEARCH_API_KEY must be set');
  });
});
