import type { DynamicModule, Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '@app/config';
import { EVENT_STORE, type EventStore } from '@app/eventstore';
import {
  ApiExceptionFilter,
  installFastifyErrorHandling,
  PydanticValidationPipe,
  type JsonLogger,
} from '@app/platform';
import { ApiKeyAuthenticator } from '../auth/api-key.authenticator';
import type { AuthedRequest } from '../auth/auth.context';
import { installEarlyKeyCheck } from '../auth/early-key-check';
import { registerConsole } from '../console/console.routes';
import { installForegroundRequests } from './foreground-requests';
import { installIdempotency } from './idempotency';
import { GatewayDrain } from '../streams/drain';
import { HttpMetrics } from './metrics';
import { requestIdFor } from './request-id';

/** Longest path parameter routed (ids are far shorter); past it the router answers 414. */
const MAX_PARAM_LENGTH = 1_024;

/**
 * The gateway's HTTP server (Fastify) with what every response needs: X-Request-Id, the pydantic
 * shaped errors, the body limit, one JSON log line and one metrics sample per request.
 */
export async function createHttpApp(
  module: Type<unknown> | DynamicModule,
  config: Config,
  logger: JsonLogger,
): Promise<NestFastifyApplication> {
  const adapter = new FastifyAdapter({
    bodyLimit: config.maxBodyBytes,
    // A client has this long to send its headers, and its whole request; a slow client holds a
    // connection no longer (the handler's own time, a wait or a stream, is not counted). Node
    // checks every second instead of its default 30.
    requestTimeout: config.requestReadTimeoutMs,
    http: {
      headersTimeout: config.headersTimeoutMs,
      requestTimeout: config.requestReadTimeoutMs,
      connectionsCheckingInterval: 1_000,
    },
    genReqId: requestIdFor,
    logger: false,
    return503OnClosing: true,
    forceCloseConnections: 'idle',
    // Ids in paths are short; a long one is still routed, so it gets the route's own 404 or 422.
    routerOptions: { maxParamLength: MAX_PARAM_LENGTH },
    // Errors the router raises before any route (a path parameter past the bound, a malformed URL)
    // answer in the API's error shape too, with the request id.
    frameworkErrors: (error: Error, request: FastifyRequest, reply: FastifyReply) => {
      const status = (error as { statusCode?: number }).statusCode ?? 400;
      const detail =
        (error as { code?: string }).code === 'FST_ERR_MAX_PARAM_LENGTH'
          ? `URI Too Long: a path parameter is longer than ${MAX_PARAM_LENGTH} characters`
          : `Bad Request: the URL is not valid`;
      void reply.code(status).header('X-Request-Id', request.id).send({ detail });
    },
  });
  const app = await NestFactory.create<NestFastifyApplication>(module, adapter, {
    logger,
    bufferLogs: true,
    abortOnError: false,
  });
  const fastify = app.getHttpAdapter().getInstance();
  const metrics = app.get(HttpMetrics);
  installFastifyErrorHandling(app);
  app.useGlobalPipes(new PydanticValidationPipe());
  app.useGlobalFilters(new ApiExceptionFilter());

  const drain = app.get(GatewayDrain);
  fastify.addHook('onSend', async (request, reply, payload) => {
    reply.header('X-Request-Id', request.id);
    // Draining: the connection closes after this answer, or it would be kept alive (Fastify's
    // keep-alive timeout is 72 s) and hold the closing server open.
    if (drain.draining) reply.header('Connection', 'close');
    return payload;
  });
  installForegroundRequests(fastify);
  installEarlyKeyCheck(fastify, app.get(ApiKeyAuthenticator));
  installIdempotency(fastify, app.get<EventStore>(EVENT_STORE), config.idempotencyMaxBodyBytes);
  fastify.addHook('onResponse', async (request, reply) => {
    const route = request.routeOptions.url ?? 'unmatched';
    const ms = reply.elapsedTime;
    metrics.observe(request.method, route, reply.statusCode, ms / 1000);
    // Framework seam: Fastify's request type does not know the auth context the API key guard sets on it.
    const auth = (request as unknown as AuthedRequest).auth;
    logger.pino.info({
      msg: 'request',
      req_id: request.id,
      method: request.method,
      route,
      status: reply.statusCode,
      ms: Math.round(ms * 100) / 100,
      team_id: auth?.team_id,
      key_id: auth?.key_id,
    });
  });
  // The console (static files) before Nest registers its routes on listen.
  await registerConsole(fastify);
  app.enableShutdownHooks();
  return app;
}
