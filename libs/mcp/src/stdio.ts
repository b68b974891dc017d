import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { createMcpServer } from './mcp-server';
import { HttpRestBackend } from './rest-backend';

/** What the stdio server needs: the service and the key, from WEB_RESEARCH_URL and WEB_RESEARCH_API_KEY. */
export function stdioSettings(env: NodeJS.ProcessEnv): { url: string; apiKey: string } {
  const url = env.WEB_RESEARCH_URL?.trim();
  const apiKey = env.WEB_RESEARCH_API_KEY?.trim();
  const missing = [!url && 'WEB_RESEARCH_URL', !apiKey && 'WEB_RESEARCH_API_KEY'].filter(Boolean);
  if (missing.length)
    throw new Error(
      `${missing.join(' and ')} must be set: the service the MCP server calls (e.g. http://127.0.0.1:8080) and its API key (wr_...)`,
    );
  let parsed: URL;
  try {
    parsed = new URL(url!);
  } catch {
    throw new Error(`WEB_RESEARCH_URL is not a URL: ${url}`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
    throw new Error(`WEB_RESEARCH_URL must be http or https, not ${parsed.protocol}`);
  return { url: parsed.toString(), apiKey: apiKey! };
}

/**
 * The MCP tools over stdio against a running service (for desktop agents): stdout carries only
 * MCP messages, anything else goes to stderr. Resolves when the client closes stdin.
 */
export async function runStdioServer(env: NodeJS.ProcessEnv, log: (line: string) => void): Promise<void> {
  const { url, apiKey } = stdioSettings(env);
  const server = createMcpServer(new HttpRestBackend(url, apiKey));
  const transport = new StdioServerTransport();
  const closed = new Promise<void>((resolve) => (server.onclose = resolve));
  await server.connect(transport);
  log(`web-research MCP server on stdio, calling ${new URL(url).origin}`);
  process.stdin.once('end', () => void server.close());
  await closed;
}
