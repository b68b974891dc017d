/**
 * An MCP client speaking to `node scripts/service.js mcp` over stdio, pointed at a running
 * service: what an agent host starts. Errors of the client and the transport (a progress
 * notification it cannot place, a stdout line that is not an MCP message) go to `onError`.
 */
import * as path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { RunningService } from './service-process';

const ROOT = path.join(__dirname, '..', '..');

export async function connectStdioMcp(
  svc: RunningService,
  onError: (error: Error) => void,
  onStderr?: (text: string) => void,
): Promise<Client> {
  const client = new Client({ name: 'e2e-stdio', version: '1.0.0' });
  client.onerror = onError;
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [path.join(ROOT, 'scripts', 'service.js'), 'mcp'],
    env: { PATH: process.env.PATH ?? '', WEB_RESEARCH_URL: svc.baseUrl, WEB_RESEARCH_API_KEY: svc.demoKey },
    stderr: 'pipe',
  });
  if (onStderr) transport.stderr?.on('data', (chunk: Buffer) => onStderr(chunk.toString()));
  transport.onerror = onError;
  await client.connect(transport);
  return client;
}
