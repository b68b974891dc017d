/**
 * What the MCP e2e suites share: the tools a client lists, a tool result's text, and the clients
 * a suite connects to a service (Streamable HTTP with a bearer key, or stdio), kept so the suite
 * can close them and check that no transport error was seen.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { connectStdioMcp } from '../support/mcp-stdio';
import { bearer, type RunningService } from '../support/service-process';
import type { E2eContext } from './harness';

export const TOOLS = [
  'web_search',
  'extract',
  'deep_research',
  'get_research',
  'task',
  'get_task',
  'task_group',
  'get_task_group',
  'findall',
  'get_findall',
  'map',
  'crawl',
  'get_crawl',
  'search',
  'fetch',
];

export type Obj = Record<string, any>;
export const textOf = (result: CallToolResult) =>
  result.content.map((part) => (part.type === 'text' ? part.text : '')).join('\n');

/** Connects MCP clients to `ctx`'s service (or another), recording each and any transport error. */
export function mcpClients(ctx: E2eContext) {
  const clients: Client[] = [];
  const transportErrors: Error[] = [];
  const connectHttp = async (svc: RunningService = ctx.svc, key = svc.demoKey): Promise<Client> => {
    const client = new Client({ name: 'e2e-http', version: '1.0.0' });
    if (key === svc.demoKey) client.onerror = (error) => transportErrors.push(error);
    const transport = new StreamableHTTPClientTransport(new URL(`${svc.baseUrl}/mcp`), {
      requestInit: { headers: bearer(key) },
    });
    await client.connect(transport);
    clients.push(client);
    return client;
  };
  let stdioLog = '';
  const connectStdio = async (svc: RunningService = ctx.svc): Promise<Client> => {
    // A progress notification the client cannot place (one that came after its call's result) and a
    // line on stdout that is not an MCP message are errors too.
    const client = await connectStdioMcp(
      svc,
      (error) => transportErrors.push(error),
      (text) => (stdioLog += text),
    );
    clients.push(client);
    return client;
  };
  return { clients, transportErrors, connectHttp, connectStdio, stdioLog: () => stdioLog };
}
