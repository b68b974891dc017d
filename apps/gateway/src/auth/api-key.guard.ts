import { type CanActivate, type ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { CONFIG, type Config } from '@app/config';
import { READ_STORE, type ReadStore } from '@app/readmodels';
import { API_KEYS, type ApiKeyDoc } from '@app/readmodels/projections';
import { apiKeyMatches, parseApiKey } from '@app/platform/secrets';
import { tooManyRequests, unauthorized } from '@app/platform/http';
import { TokenBuckets } from '@app/platform/ratelimit/token-bucket';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { type AuthedRequest, PUBLIC_ROUTE } from './auth.context';

const BEARER = /^Bearer +(\S+) *$/i;

/**
 * Every /v1 operation: a `wr_` key whose SHA-256 matches the `api_keys` read model (constant-time
 * compare), not revoked, not past its rotation overlap. Then the per-key token bucket.
 * The read model follows the log live, so a key revoked by the CLI is refused within ~10 ms.
 */
@Injectable()
export class ApiKeyGuard implements CanActivate {
  private readonly buckets: TokenBuckets;
  private readonly policy: string;

  constructor(
    private readonly reflector: Reflector,
    @Inject(READ_STORE) private readonly reads: ReadStore,
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
    const header = request.headers.authorization;
    if (!header) throw unauthorized('Not authenticated');
    const token = BEARER.exec(header)?.[1];
    if (!token) throw unauthorized('Invalid authentication credentials');
    const parsed = parseApiKey(token);
    if (!parsed) throw unauthorized('Invalid API key');
    const doc = (await this.reads.get(API_KEYS, parsed.keyId)) as (ApiKeyDoc & { _id: string }) | undefined;
    if (!doc || !apiKeyMatches(token, doc.key_hash)) throw unauthorized('Invalid API key');
    if (doc.revoked_at) throw unauthorized('API key has been revoked');
    if (doc.expires_at && Date.parse(doc.expires_at) <= Date.now()) throw unauthorized('API key has expired');
    request.auth = { team_id: doc.team_id, key_id: doc.key_id };
    this.limit(doc.key_id, http.getResponse<FastifyReply>());
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
