import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

const CLIENT_ID = /^[A-Za-z0-9._-]{1,128}$/;

/** The client's X-Request-Id when it is safe to echo and log, otherwise a fresh uuid. */
export function requestIdFor(request: IncomingMessage): string {
  const given = request.headers['x-request-id'];
  return typeof given === 'string' && CLIENT_ID.test(given) ? given : randomUUID();
}
