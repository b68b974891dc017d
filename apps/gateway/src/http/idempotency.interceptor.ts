import { createHash } from 'node:crypto';
import { Reflector } from '@nestjs/core';
import { type CallHandler, type ExecutionContext, HttpException, Inject, Injectable, type NestInterceptor } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { from, lastValueFrom, type Observable } from 'rxjs';
import { CONFIG, type Config } from '@app/config';
import { DomainError, idempotencyDecider, idempotencyKeyReuse, idempotencyStream } from '@app/domain';
import { EVENT_STORE, type EventStore, handleCommand } from '@app/eventstore';
import { ApiError, RequestValidationError } from '@app/platform/http';
import type { AuthedRequest } from '../auth/auth.context';
import { ANSWER_WAIT, type AnswerWait } from './answer-wait';

const KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** Canonical JSON (sorted keys), so the same body in another key order is the same request. */
const canonical = (value: unknown): string =>
  Array.isArray(value)
    ? `[${value.map(canonical).join(',')}]`
    : value !== null && typeof value === 'object'
      ? `{${Object.keys(value)
          .sort()
          .map((key) => `${JSON.stringify(key)}:${canonical((value as Record<string, unknown>)[key])}`)
          .join(',')}}`
      : JSON.stringify(value) ?? 'null';

/**
 * `Idempotency-Key` on every authenticated POST (API.md): same key and same body within 24 h
 * replays the first response and creates or charges nothing new; a different body is a 422
 * `idempotency_key_reuse`; while the first is still being answered, 409. A response of 5xx is not
 * kept, so the client's retry runs again.
 */
@Injectable()
export class IdempotencyInterceptor implements NestInterceptor {
  constructor(
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(CONFIG) private readonly config: Config,
    private readonly reflector: Reflector,
  ) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (context.getType() !== 'http') return next.handle();
    const request = context.switchToHttp().getRequest<FastifyRequest & AuthedRequest>();
    const header = request.headers['idempotency-key'];
    if (request.method !== 'POST' || header === undefined || !request.auth) return next.handle();
    const waits = this.reflector.get<AnswerWait | undefined>(ANSWER_WAIT, context.getHandler());
    return from(this.handle(request, context.switchToHttp().getResponse<FastifyReply>(), String(header), next, waits ? waits(request.body) : 0));
  }

  private async handle(request: FastifyRequest & AuthedRequest, reply: FastifyReply, key: string, next: CallHandler, waitMs: number): Promise<unknown> {
    if (!KEY_PATTERN.test(key)) {
      throw new RequestValidationError([
        {
          type: 'string_pattern_mismatch',
          loc: ['header', 'idempotency-key'],
          msg: "String should match pattern '^[!-~]{1,255}$'",
          input: key,
          ctx: { pattern: '^[!-~]{1,255}$' },
        },
      ]);
    }
    const stream = idempotencyStream(request.auth!.team_id, sha256(key).slice(0, 40));
    const requestId = request.id;
    const fingerprint = sha256(`${request.method} ${request.url}\n${canonical(request.body ?? null)}`);
    const metadata = { request_id: requestId, team_id: request.auth!.team_id, key_id: request.auth!.key_id };
    let claim;
    try {
      claim = await handleCommand(this.events, stream, idempotencyDecider, {
        type: 'Claim',
        fingerprint,
        request_id: requestId,
        abandon_after_ms: this.config.busTimeoutMs + 30_000 + waitMs,
      }, { metadata });
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      if (error.status === 422) {
        throw new RequestValidationError([
          { type: idempotencyKeyReuse, loc: ['header', 'idempotency-key'], msg: error.message, input: key },
        ]);
      }
      throw new ApiError(error.status, error.message);
    }
    if (claim.events.length === 0 && claim.state.status === 'completed') {
      reply.status(claim.state.response.status).header('Idempotent-Replayed', 'true');
      return claim.state.response.body;
    }
    try {
      const body = await lastValueFrom(next.handle(), { defaultValue: undefined });
      if (reply.sent) {
        // A stream written by hand (chat completions with stream: true) cannot be replayed: the key is freed.
        await handleCommand(this.events, stream, idempotencyDecider, { type: 'Release', request_id: requestId }, { metadata });
        return body;
      }
      await this.record(stream, requestId, { status: reply.statusCode, body: body ?? null }, metadata);
      return body;
    } catch (error) {
      const status = error instanceof HttpException ? error.getStatus() : 500;
      if (status < 500 && error instanceof HttpException) {
        const response = error instanceof ApiError ? { detail: error.detail } : error.getResponse();
        await this.record(stream, requestId, { status, body: response }, metadata);
      } else {
        await handleCommand(this.events, stream, idempotencyDecider, { type: 'Release', request_id: requestId }, { metadata });
      }
      throw error;
    }
  }

  private record(stream: string, requestId: string, response: { status: number; body: unknown }, metadata: Record<string, string>) {
    return handleCommand(this.events, stream, idempotencyDecider, { type: 'RecordResponse', request_id: requestId, response }, { metadata });
  }
}
