import { Controller, Delete, Get, Post, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiKeyAuthenticator } from '../auth/api-key.authenticator';
import { type AuthContext, type AuthedRequest, Public } from '../auth/auth.context';
import { RateLimiter } from '../auth/rate-limiter';

type McpRequest = FastifyRequest & AuthedRequest;

/**
 * The MCP server's parts (its SDK, tool schemas and the REST backend), loaded with the first MCP
 * request rather than with the gateway: some 0.3 s of a boot that most deployments' clients never
 * reach through MCP.
 */
const loadMcp = () =>
  Promise.all([
    import('@app/mcp'),
    import('@modelcontextprotocol/sdk/server/streamableHttp.js'),
    import('./inject-backend'),
  ]);
let mcp: ReturnType<typeof loadMcp> | undefined;

/**
 * The MCP server (Streamable HTTP transport) at /mcp, stateless: every POST gets a fresh server
 * and transport, and a tool call's progress and result go back on that POST's own stream. No
 * session lives in a gateway's memory, so any replica behind a load balancer answers any request
 * and a restart loses nothing (a run's state is in the log; a long wait answers its id). Hence GET
 * (a server-initiated stream) and DELETE (ending a session) are 405.
 *
 * The key is checked before any MCP message is read (401), by the same authenticator as /v1
 * (before the body, for a POST: installEarlyKeyCheck). The tools perform REST operations through
 * the gateway's own HTTP app with the caller's key (InjectRestBackend), so rate limits, validation
 * and charges are those operations' own. Every POST also takes one token itself, before any message
 * is read: a POST whose messages reach no REST operation (a call of an unknown tool, arguments its
 * schema refuses, a batch of such) would otherwise cost nothing, and a flood of them must meet 429
 * with Retry-After like any other. A tool call thus costs its POST's token and its operations'.
 */
@ApiExcludeController()
@Controller('mcp')
export class McpController {
  constructor(
    private readonly authenticator: ApiKeyAuthenticator,
    private readonly limiter: RateLimiter,
  ) {}

  @Public()
  @Post()
  async post(@Req() request: McpRequest, @Res() reply: FastifyReply): Promise<void> {
    const auth = await this.authenticate(request);
    const limits = this.limiter.take(auth.key_id);
    const [{ createMcpServer }, { StreamableHTTPServerTransport }, { InjectRestBackend }] = await (mcp ??= loadMcp());
    const server = createMcpServer(new InjectRestBackend(request.server, request.headers.authorization!, request.id));
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    await server.connect(transport);
    reply.hijack();
    reply.raw.setHeader('X-Request-Id', request.id);
    for (const [name, value] of Object.entries(limits)) reply.raw.setHeader(name, value);
    reply.raw.once('close', () => void server.close());
    await transport.handleRequest(request.raw, reply.raw, request.body);
  }

  @Public()
  @Get()
  async stream(@Req() request: McpRequest, @Res() reply: FastifyReply): Promise<void> {
    await this.refuse(request, reply);
  }

  @Public()
  @Delete()
  async end(@Req() request: McpRequest, @Res() reply: FastifyReply): Promise<void> {
    await this.refuse(request, reply);
  }

  private async authenticate(request: McpRequest): Promise<AuthContext> {
    request.auth ??= await this.authenticator.authenticate(request.headers.authorization);
    return request.auth;
  }

  /** GET and DELETE: no session and no server-initiated stream in a stateless server (the MCP spec's 405). */
  private async refuse(request: McpRequest, reply: FastifyReply): Promise<void> {
    const auth = await this.authenticate(request);
    void reply
      .status(405)
      .headers({ ...this.limiter.take(auth.key_id), Allow: 'POST' })
      .send({
        jsonrpc: '2.0',
        error: {
          code: -32000,
          message:
            'Method Not Allowed: this MCP server is stateless (no sessions, no server-initiated stream); send JSON-RPC messages with POST',
        },
        id: null,
      });
  }
}
