import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { startFixtureWeb, type FixtureWeb } from '../support/fixture-web';
import type { ReplayServer } from '../support/replay-server';
import { bearer, type RunningService, startService } from '../support/service-process';
import { TOOLS } from './mcp-clients';
import { searxngEnv, startSlowSearxng } from '../support/slow-searxng';

jest.setTimeout(120_000);

/**
 * The MCP server keeps no session: behind a load balancer (two gateway processes, cluster mode),
 * each request of one client may land on either gateway, a long tool call included.
 */
describe('MCP across gateway replicas (cluster, REPLICAS=gateway=2)', () => {
  let web: FixtureWeb;
  let stub: ReplayServer;
  let svc: RunningService;
  const ports: number[] = [];

  beforeAll(async () => {
    web = await startFixtureWeb();
    stub = await startSlowSearxng(web, 200);
    svc = await startService('cluster', { REPLICAS: 'gateway=2', ...searxngEnv(stub, web) });
    const first = Number(new URL(svc.baseUrl).port);
    ports.push(first, first + 1);
    // startService waits for every gateway replica's /readyz (test/support/service-process.ts).
  }, 120_000);
  afterAll(async () => {
    await svc?.stop();
    await stub?.close();
    await web?.stop();
  });

  it('a client whose requests alternate between the gateways lists the tools and gets a deep run’s cited report with its progress', async () => {
    const served: number[] = [];
    let next = 0;
    // The load balancer: each request to the next gateway in turn.
    const balanced = (input: string | URL, init?: RequestInit) => {
      const url = new URL(String(input));
      url.port = String(ports[next++ % ports.length]);
      served.push(Number(url.port));
      return fetch(url, init);
    };
    const client = new Client({ name: 'e2e-balanced', version: '1.0.0' });
    const errors: Error[] = [];
    client.onerror = (error) => errors.push(error);
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${svc.baseUrl}/mcp`), {
        requestInit: { headers: bearer(svc.demoKey) },
        fetch: balanced,
      }),
    );
    try {
      expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(TOOLS);
      const stages: string[] = [];
      const result = (await client.callTool(
        {
          name: 'deep_research',
          arguments: {
            prompt: 'What is new in sodium-ion batteries?',
            queries: ['sodium-ion battery'],
            max_fetches: 6,
            wait_seconds: 90,
          },
        },
        undefined,
        { timeout: 100_000, onprogress: (progress) => void stages.push(progress.message ?? '') },
      )) as CallToolResult;
      expect(result.isError).toBeFalsy();
      const view = result.structuredContent as { search_id: string; status: string; report: string };
      expect(view.status).toBe('completed');
      expect(view.report).toMatch(/\[\d+\]/);
      expect(stages.some((s) => s.startsWith('plan: '))).toBe(true);
      expect(stages.some((s) => s.startsWith('read '))).toBe(true);
      const again = (await client.callTool({
        name: 'get_research',
        arguments: { search_id: view.search_id },
      })) as CallToolResult;
      expect((again.structuredContent as { report: string }).report).toBe(view.report);
      expect(new Set(served)).toEqual(new Set(ports));
      expect(errors).toEqual([]);
    } finally {
      await client.close();
    }
  });
});
