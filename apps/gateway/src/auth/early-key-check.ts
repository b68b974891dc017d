import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ApiKeyAuthenticator } from './api-key.authenticator';
import type { AuthedRequest } from './auth.context';

/** Routes under /v1 that answer without a key (every /v1 route else, and /mcp, needs one). */
const PUBLIC = new Set(['/v1/openapi.json']);

/**
 * A request carrying a body to a keyed route has its key checked before the body is read (Fastify
 * reads bodies before Nest's guards run): without a valid key, nobody gets the server to read or
 * hold a megabyte. The guard reuses the result (`request.auth`) and applies the rate limit.
 */
export function installEarlyKeyCheck(fastify: FastifyInstance, authenticator: ApiKeyAuthenticator): void {
  fastify.addHook('onRequest', async (request: FastifyRequest) => {
    if (!hasBody(request)) return;
    const route = request.routeOptions.url;
    if (!route || !(route.startsWith('/v1/') || route === '/mcp') || PUBLIC.has(route)) return;
    (request as FastifyRequest & AuthedRequest).auth = await authenticator.authenticate(request.headers.authorization);
  });
}

const hasBody = (request: FastifyRequest) => {
  const length = request.headers['content-length'];
  return request.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
};
