import { type CanActivate, type ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiKeyAuthenticator } from './api-key.authenticator';
import { type AuthedRequest, PUBLIC_ROUTE } from './auth.context';
import { RateLimiter } from './rate-limiter';

/** Every /v1 operation: a valid key (ApiKeyAuthenticator), then the per-key token bucket. */
@Injectable()
export class ApiKeyGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly authenticator: ApiKeyAuthenticator,
    private readonly limiter: RateLimiter,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    // Global guards also run for bus handlers in the standalone (hybrid) app: they are not HTTP.
    if (context.getType() !== 'http') return true;
    if (this.reflector.getAllAndOverride<boolean>(PUBLIC_ROUTE, [context.getHandler(), context.getClass()]))
      return true;
    const http = context.switchToHttp();
    const request = http.getRequest<FastifyRequest & AuthedRequest>();
    // Checked already, before the body was read, when the request has one (installEarlyKeyCheck).
    request.auth ??= await this.authenticator.authenticate(request.headers.authorization);
    http.getResponse<FastifyReply>().headers(this.limiter.take(request.auth.key_id));
    return true;
  }
}
