import type { FastifyInstance, FastifyRequest } from 'fastify';
import { foreground } from '@app/runs';

/**
 * Every request someone waits on is foreground work while it is answered (libs/runs/src/foreground.ts):
 * task group runs of this process step aside meanwhile. Streams (server-sent events, the MCP
 * endpoint's held connections, WebSocket upgrades) are not: they are open for minutes while
 * nothing waits on them, and would hold the groups back all that time.
 */
export function installForegroundRequests(fastify: FastifyInstance): void {
  fastify.addHook('onRequest', async (request: FastifyRequest, reply) => {
    if (isStream(request)) return;
    const release = foreground.hold();
    reply.raw.once('close', release);
    reply.raw.once('finish', release);
  });
}

const isStream = (request: FastifyRequest): boolean => {
  const route = request.routeOptions.url ?? '';
  return (
    route.endsWith('/events') ||
    route.startsWith('/mcp') ||
    route.endsWith('/ws') ||
    request.headers.upgrade !== undefined ||
    (request.headers.accept ?? '').includes('text/event-stream')
  );
};
