import { createHash } from 'node:crypto';
import { Reflector } from '@nestjs/core';
import { type CanActivate, type ExecutionContext, Inject, Injectable } from '@nestjs/common';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { CONFIG, type Config } from '@app/config';
import { Conflict, idempotencyDecider, Invalid, idempotencyKeyReuse, idempotencyStream } from '@app/domain';
import { EVENT_STORE, type EventStore, handleCommand } from '@app/eventstore';
import { ApiError, RequestValidationError, StoredAnswer } from '@app/platform';
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
      : (JSON.stringify(value) ?? 'null');

/** A claimed key on its request, until the answer is recorded or the key released. */
interface Claim {
  stream: string;
  /** The request's method, URL and body, hashed: what the key was claimed for. */
  fingerprint: string;
  requestId: string;
  metadata: Record<string, string>;
  settled: boolean;
}

type ClaimedRequest = FastifyRequest & AuthedRequest & { idempotency?: Claim };

/**
 * `Idempotency-Key` on every authenticated POST (API.md): same key and same body within 24 h
 * replays the first response and creates or charges nothing new; a different body is a 422
 * `idempotency_key_reuse`; while the first is still being answered, 409. A response of 5xx is not
 * kept, so the client's retry runs again.
 *
 * Two halves, so that a request without the header costs nothing beyond a header lookup (a Nest
 * interceptor wraps every handler, HTTP and bus alike, in observables): the claim is a guard that
 * runs after the API key guard (it needs the team), and a replay is thrown as the stored answer;
 * the answer is recorded by the HTTP server's onSend hook, from the status and body being sent.
 */
@Injectable()
export class IdempotencyGuard implements CanActivate {
  constructor(
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(CONFIG) private readonly config: Config,
    private readonly reflector: Reflector,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    if (context.getType() !== 'http') return true;
    const request = context.switchToHttp().getRequest<ClaimedRequest>();
    const header = request.headers['idempotency-key'];
    if (request.method !== 'POST' || header === undefined || !request.auth) return true;
    const key = String(header);
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
    const waits = this.reflector.get<AnswerWait | undefined>(ANSWER_WAIT, context.getHandler());
    const stream = idempotencyStream(request.auth.team_id, sha256(key).slice(0, 40));
    const requestId = request.id;
    const fingerprint = sha256(`${request.method} ${request.url}\n${canonical(request.body ?? null)}`);
    const metadata = { request_id: requestId, team_id: request.auth.team_id, key_id: request.auth.key_id };
    let claim;
    try {
      claim = await handleCommand(
        this.events,
        stream,
        idempotencyDecider,
        {
          type: 'Claim',
          fingerprint,
          request_id: requestId,
          abandon_after_ms: this.config.busTimeoutMs + 30_000 + (waits ? waits(request.body, this.config) : 0),
        },
        { metadata },
      );
    } catch (error) {
      if (error instanceof Invalid) {
        throw new RequestValidationError([
          { type: idempotencyKeyReuse, loc: ['header', 'idempotency-key'], msg: error.message, input: key },
        ]);
      }
      // Still being answered: a retry shortly replays the answer, so the 409 says when to try (clients retry it).
      if (error instanceof Conflict) throw new ApiError(409, error.message, { 'Retry-After': '1' });
      throw error;
    }
    if (claim.events.length === 0 && claim.state.status === 'completed') {
      const { response } = claim.state;
      if (response.omitted) {
        throw new ApiError(
          409,
          `The request with this Idempotency-Key was answered (status ${response.status}, ${response.omitted.bytes} bytes) and charged once; its answer was over ${this.config.idempotencyMaxBodyBytes} bytes, too large to keep for a replay. Use a new key to run it again.`,
          { 'Idempotent-Replayed': 'true' },
        );
      }
      throw new StoredAnswer(response.status, response.body, { 'Idempotent-Replayed': 'true' });
    }
    request.idempotency = { stream, fingerprint, requestId, metadata, settled: false };
    return true;
  }
}

/**
 * A name for the request that is the same on every retry of it (its Idempotency-Key and body,
 * hashed), or undefined for a request sent without a key: what work the handler records under
 * it can be found again when a retry runs after the first attempt was cut off.
 */
export function idempotentRequestOf(request: object): string | undefined {
  const claim = (request as { idempotency?: Claim }).idempotency;
  return claim ? sha256(`${claim.stream}\n${claim.fingerprint}`).slice(0, 40) : undefined;
}

/**
 * The recording half (see IdempotencyGuard): a claimed request's answer is kept before it is
 * sent (a retry that sees the answer finds it stored), unless it is a 5xx; a reply written by
 * hand (a chat completion streamed) cannot be replayed, and frees the key once it ends.
 */
export function installIdempotency(fastify: FastifyInstance, events: EventStore, maxBodyBytes: number): void {
  const command = (claim: Claim, body: Parameters<typeof idempotencyDecider.decide>[0]) =>
    handleCommand(events, claim.stream, idempotencyDecider, body, { metadata: claim.metadata });
  fastify.addHook('onRequest', async (request: ClaimedRequest, reply: FastifyReply) => {
    if (request.method !== 'POST' || request.headers['idempotency-key'] === undefined) return;
    reply.raw.once('close', () => {
      const claim = request.idempotency;
      // Only a reply written by hand ends without onSend; a client gone before the answer still
      // gets it recorded when the route finishes.
      if (!claim || claim.settled || !reply.sent) return;
      claim.settled = true;
      command(claim, { type: 'Release', request_id: claim.requestId }).catch(() => undefined);
    });
  });
  fastify.addHook('onSend', async (request: ClaimedRequest, reply: FastifyReply, payload: unknown) => {
    const claim = request.idempotency;
    if (!claim || claim.settled) return payload;
    claim.settled = true;
    const text =
      typeof payload === 'string' ? payload : Buffer.isBuffer(payload) ? payload.toString('utf8') : undefined;
    let body: unknown;
    try {
      body = text === undefined ? undefined : text === '' ? null : JSON.parse(text);
    } catch {
      body = undefined;
    }
    // A 503 (a service call timed out, or the read models lag) may hide work that finishes: the
    // key stays claimed until abandoned, so a quick retry gets 409 instead of doing it twice.
    if (reply.statusCode === 503) return payload;
    if (reply.statusCode >= 500 || body === undefined)
      await command(claim, { type: 'Release', request_id: claim.requestId });
    else {
      // Only answers up to maxBodyBytes are kept for replay (the log is no blob store, and an
      // event may carry 1 MiB at most); a larger one is recorded by its size and hash.
      const bytes = Buffer.byteLength(text!);
      const response =
        bytes <= maxBodyBytes
          ? { status: reply.statusCode, body }
          : { status: reply.statusCode, body: null, omitted: { bytes, sha256: sha256(text!) } };
      await command(claim, { type: 'RecordResponse', request_id: claim.requestId, response });
    }
    return payload;
  });
}
