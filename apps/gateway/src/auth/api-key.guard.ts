import { type CanActivate, type ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { CONFIG, type Config } from '@app/config';
import { tooManyRequests } from '@app/platform/http';
import { TokenBuckets } from '@app/platform/ratelimit/token-bucket';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiKeyAuthenticator } from './api-key.authenticator';
import { type AuthedRequest, PUBLIC_ROUTE } from './auth.context';

/** Every /v1 operation: a valid key (ApiKeyAuthenticator), then the per-key token bucket. */
@Injectable()
export class ApiKeyGuard implements CanActivate {
  private readonly buckets: TokenBuckets;
  private readonly policy: string;

  constructor(
    private readonly reflector: Reflector,
    private readonly authenticator: ApiKeyAuthenticator,
    @Inject(CONFIG) config: Config,
  ) {
    this.buckets = new TokenBuckets(config.rateLimitRps, config.rateLimitBurst);
    this.policy = `${config.rateLimitBurst};w=${Math.max(1, Math.ceil(config.rateLimitBurst / Math.max(config.rateLimitRps, 1)))}`;
  }

  async canActivate(context: ExecutionContext): Promise<boolean> {
    // Global guards also run for bus handlers in the standalone (hybrid) app: they are not HTTP.
    if (context.getType() !== 'http') return true;
    if (this.reflector.getAllAndOverride<boolean>(PUBLIC_ROUTE, [context.getHandler(), context.getClass()])) return true;
    const http = context.switchToHttp();
    const request = http.getRequest<FastifyRequest & AuthedRequest>();
    request.auth = await this.authenticator.authenticate(request.headers.authorization);
    this.limit(request.auth.key_id, http.getResponse<FastifyReply>());
    return true;
  }

  private limit(keyId: string, reply: FastifyReply): void {
    if (!this.buckets.enabled) return;
    const decision = this.buckets.take(keyId);
    const headers = {
      'RateLimit-Policy': this.policy,
      RateLimit: `limit=${this.buckets.burst}, remaining=${decision.remaining}, reset=${decision.resetSeconds}`,
    };
    if (!decision.allowed) {
      throw tooManyRequests(decision.retryAfterSeconds, headers);
    }
    reply.headers(headers);
  }
}
