/**
 * The MCP server over Streamable HTTP, on the standalone service and the fixture web: a tool call
 * is charged as the REST operations it performs and takes the rate limiter's tokens like them,
 * a wrong key is refused before any MCP message, and the endpoint stays a stateless server that
 * answers bad bodies with errors.
 */
import * as http from 'node:http';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { bearer, startService } from '../support/service-process';
import { json, useService } from './harness';
import { mcpClients, type Obj, textOf, TOOLS } from './mcp-clients';

jest.setTimeout(180_000);

describe('MCP server (standalone, fixture web)', () => {
  const ctx = useService('standalone');
  const { clients, transportErrors, connectHttp } = mcpClients(ctx);

  afterAll(async () => {
    for (const client of clients) await client.close().catch(() => undefined);
    expect(transportErrors).toEqual([]);
  });

  const usage = async (): Promise<Map<string, number>> => {
    const body = await json(await fetch(`${ctx.svc.baseUrl}/v1/usage`, { headers: bearer(ctx.svc.demoKey) }));
    const bySku = new Map<string, number>();
    for (const day of body.days as { sku: string; credits: number }[])
      bySku.set(day.sku, (bySku.get(day.sku) ?? 0) + day.credits);
    return bySku;
  };
  const delta = (before: Map<string, number>, after: Map<string, number>) =>
    Object.fromEntries(
      [...after]
        .map(([sku, credits]) => [sku, credits - (before.get(sku) ?? 0)])
        .filter(([, credits]) => credits !== 0),
    );

  it('charges a tool call as the REST operations it performs (checked in /v1/usage)', async () => {
    const client = await connectHttp();
    const page = `${ctx.web.baseUrl('acme-robotics.test')}/`;
    const before = await usage();
    const searched = (await client.callTool({
      name: 'web_search',
      arguments: { queries: ['battery plant'], objective: 'new battery factories', depth: 'fast' },
    })) as CallToolResult;
    const extracted = (await client.callTool({ name: 'extract', arguments: { urls: [page] } })) as CallToolResult;
    expect(searched.isError).toBeFalsy();
    expect(extracted.isError).toBeFalsy();
    const viaMcp = delta(before, await usage());
    const middle = await usage();
    const headers = { ...bearer(ctx.svc.demoKey), 'Content-Type': 'application/json' };
    const rest = await fetch(`${ctx.svc.baseUrl}/v1/search`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ queries: ['battery plant'], objective: 'new battery factories', depth: 'fast' }),
    });
    expect(rest.status).toBe(200);
    expect(
      (
        await fetch(`${ctx.svc.baseUrl}/v1/extract`, {
          method: 'POST',
          headers,
          body: JSON.stringify({ urls: [page] }),
        })
      ).status,
    ).toBe(200);
    const viaRest = delta(middle, await usage());
    expect(viaMcp).toEqual(viaRest);
    expect(viaMcp).toMatchObject({ sku_search: 1, sku_objective_rerank: 1, sku_extract: 2 });
    expect((searched.structuredContent as Obj).credits).toBe(2);
  });

  it('every POST takes a token: a flood of calls to an unknown tool (no REST operation) meets 429 with Retry-After', async () => {
    const limited = await startService('standalone', { RATE_LIMIT_RPS: '1', RATE_LIMIT_BURST: '5' });
    try {
      const headers = {
        ...bearer(limited.demoKey),
        'Content-Type': 'application/json',
        Accept: 'application/json, text/event-stream',
      };
      const call = (id: number) => ({
        jsonrpc: '2.0',
        id,
        method: 'tools/call',
        params: { name: 'no_such_tool', arguments: {} },
      });
      const responses = await Promise.all(
        Array.from({ length: 30 }, (_, i) =>
          fetch(`${limited.baseUrl}/mcp`, {
            method: 'POST',
            headers,
            body: JSON.stringify(i % 2 ? [call(i), call(i + 1000)] : call(i)),
          }),
        ),
      );
      const statuses = responses.map((r) => r.status);
      // The burst (and a token or two back meanwhile) answered; the rest refused.
      expect(statuses.filter((s) => s === 200).length).toBeGreaterThanOrEqual(1);
      expect(statuses.filter((s) => s === 200).length).toBeLessThanOrEqual(8);
      expect(statuses.filter((s) => s !== 200 && s !== 429)).toEqual([]);
      const refused = responses.find((r) => r.status === 429)!;
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      expect(await json(refused)).toEqual({ detail: expect.any(String) });
      const answered = responses.find((r) => r.status === 200)!;
      expect(await answered.text()).toMatch(/no_such_tool/);
      await Promise.all(responses.map((r) => r.body?.cancel().catch(() => undefined)));
    } finally {
      await limited.stop();
    }
  });

  it('a tool call takes its POST’s token and its REST operations take their own: their 429 is the tool’s error', async () => {
    const limited = await startService('standalone', {
      RATE_LIMIT_RPS: '1',
      RATE_LIMIT_BURST: '3',
      FETCH_ALLOW_HOSTS: ctx.web.allowHosts.join(','),
    });
    try {
      const client = await connectHttp(limited);
      let refused: CallToolResult | undefined;
      // Spend the key's bucket, wait for one token to come back (one a second): the POST takes it and
      // its search finds none (a token or the POST's own 429 otherwise: try a few times).
      for (let attempt = 0; attempt < 5 && !refused; attempt++) {
        await Promise.all(
          Array.from({ length: 8 }, () => fetch(`${limited.baseUrl}/v1/usage`, { headers: bearer(limited.demoKey) })),
        );
        await new Promise((resolve) => setTimeout(resolve, 1_300));
        const result = (await client
          .callTool({ name: 'web_search', arguments: { queries: ['battery'] } })
          .catch(() => null)) as CallToolResult | null;
        if (result?.isError) refused = result;
      }
      expect(refused).toBeDefined();
      expect(textOf(refused!)).toMatch(/^429: /);
      expect(refused!.structuredContent).toMatchObject({ status: 429 });
    } finally {
      await limited.stop();
    }
  });

  it('a wrong or missing key is a 401 before any MCP message', async () => {
    const initialize = {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } },
    };
    const headers = { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' };
    for (const auth of [
      {},
      bearer('wr_AAAAAAAAAAAA_wrongsecretwrongsecretwrongsecret'),
      { Authorization: 'Basic Zm9vOmJhcg==' },
    ]) {
      const response = await fetch(`${ctx.svc.baseUrl}/mcp`, {
        method: 'POST',
        headers: { ...headers, ...auth },
        body: JSON.stringify(initialize),
      });
      expect(response.status).toBe(401);
      expect(response.headers.get('www-authenticate')).toBe('Bearer');
      expect(await json(response)).toEqual({ detail: expect.any(String) });
    }
    expect((await fetch(`${ctx.svc.baseUrl}/mcp`, { headers: { Accept: 'text/event-stream' } })).status).toBe(401);
    await expect(connectHttp(ctx.svc, 'wr_AAAAAAAAAAAA_wrongsecretwrongsecretwrongsecret')).rejects.toMatchObject({
      code: 401,
    });
  });

  it('GET and DELETE are 405 (a stateless server: no session, no server-initiated stream)', async () => {
    for (const method of ['GET', 'DELETE']) {
      const response = await fetch(`${ctx.svc.baseUrl}/mcp`, {
        method,
        headers: { ...bearer(ctx.svc.demoKey), Accept: 'text/event-stream' },
      });
      expect(response.status).toBe(405);
      expect(response.headers.get('allow')).toBe('POST');
      expect((await json(response)).error.message).toMatch(/stateless/);
    }
  });

  it('an oversized, malformed or non-MCP body answers an error, and the service still serves', async () => {
    const headers = {
      ...bearer(ctx.svc.demoKey),
      'Content-Type': 'application/json',
      Accept: 'application/json, text/event-stream',
    };
    const post = (body: string) => fetch(`${ctx.svc.baseUrl}/mcp`, { method: 'POST', headers, body });
    // A body declared larger than the limit is refused from its Content-Length, before it is read.
    // (The headers alone are sent: the service answers 413 and closes the connection, and a client
    // still writing 2 MB then may see the close, EPIPE, before the answer.)
    const declaredOnly = (bytes: number) =>
      new Promise<number>((resolve, reject) => {
        const request = http.request(
          `${ctx.svc.baseUrl}/mcp`,
          {
            method: 'POST',
            headers: { ...headers, 'Content-Length': String(bytes) },
            signal: AbortSignal.timeout(10_000),
          },
          (response) => {
            response.resume();
            resolve(response.statusCode ?? 0);
            request.destroy();
          },
        );
        request.on('error', reject);
        request.flushHeaders();
      });
    expect(await declaredOnly(2 * 1024 * 1024)).toBe(413);
    expect((await post('{"jsonrpc": "2.0", "id": 1, "method": ')).status).toBe(422);
    const notRpc = await post(JSON.stringify({ hello: 'world' }));
    expect(notRpc.status).toBe(400);
    expect((await json(notRpc)).error.code).toBe(-32700);
    const longArg = await post(
      JSON.stringify({
        jsonrpc: '2.0',
        id: 2,
        method: 'tools/call',
        params: { name: 'web_search', arguments: { queries: ['y'.repeat(5_000)] } },
      }),
    );
    expect(longArg.status).toBe(200);
    expect(await longArg.text()).toContain('queries.0: must NOT have more than 1000 characters');
    expect((await fetch(`${ctx.svc.baseUrl}/healthz`)).status).toBe(200);
    const client = await connectHttp();
    expect((await client.listTools()).tools.length).toBe(TOOLS.length);
  });
});
