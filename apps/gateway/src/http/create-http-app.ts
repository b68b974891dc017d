import type { DynamicModule, Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import type { Config } from '@app/config';
import { ApiExceptionFilter, installFastifyErrorHandling, PydanticValidationPipe } from '@app/platform/http';
import type { JsonLogger } from '@app/platform/logging/logger';
import type { AuthedRequest } from '../auth/auth.context';
import { registerConsole } from '../console/console.routes';
import { HttpMetrics } from './metrics';
import { requestIdFor } from './request-id';

/**
 * The gateway's HTTP server (Fastify) with what every response needs: X-Request-Id, the pydantic
 * shaped errors, the body limit, one JSON log line and one metrics sample per request.
 */
export async function createHttpApp(module: Type<unknown> | DynamicModule, config: Config, logger: JsonLogger): Promise<NestFastifyApplication> {
  const adapter = new FastifyAdapter({
    bodyLimit: config.maxBodyBytes,
    genReqId: requestIdFor,
    logger: false,
    return503OnClosing: true,
    forceCloseConnections: 'idle',
  });
  const app = await NestFactory.create<NestFastifyApplication>(module, adapter, { logger, bufferLogs: true, abortOnError: false });
  const fastify = app.getHttpAdapter().getInstance();
  const metrics = app.get(HttpMetrics);
  installFastifyErrorHandling(app);
  app.useGlobalPipes(new PydanticValidationPipe());
  app.useGlobalFilters(new ApiExceptionFilter());

  fastify.addHook('onSend', async (request, reply, payload) => {
    reply.header('X-Request-Id', request.id);
    return payload;
  });
  fastify.addHook('onResponse', async (request, reply) => {
    const route = request.routeOptions.url ?? 'unmatched';
    const ms = reply.elapsedTime;
    metrics.observe(request.method, route, reply.statusCode, ms / 1000);
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

