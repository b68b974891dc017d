import {
  applyDecorators,
  ArgumentsHost,
  Catch,
  Controller,
  HttpException,
  Logger,
  RpcExceptionFilter,
  UseFilters,
} from '@nestjs/common';
import { RpcException } from '@nestjs/microservices';
import { Observable, of } from 'rxjs';
import { BusErrorReply, INTERNAL_ERROR } from './wire';

/**
 * The service did not answer in time, nobody listens on the subject, or the bus is unreachable.
 * All three are "try again later": the gateway maps it to 503 with Retry-After.
 */
export class BusTimeoutError extends Error {
  constructor(
    readonly subject: string,
    readonly timeoutMs: number,
    readonly reason: 'timeout' | 'no_responders' | 'unavailable',
  ) {
    super(`bus request "${subject}" failed: ${reason}${reason === 'timeout' ? ` after ${timeoutMs} ms` : ''}`);
    this.name = 'BusTimeoutError';
  }
}

/** The service answered with `{error: {status, detail}}`; the gateway maps it to that HTTP status. */
export class BusReplyError extends Error {
  constructor(
    readonly subject: string,
    readonly status: number,
    readonly detail: string,
  ) {
    super(`bus request "${subject}" refused: ${status} ${detail}`);
    this.name = 'BusReplyError';
  }
}

/**
 * The HTTP status of API.md for each refusal a domain names (libs/domain's NotFound, Conflict,
 * Invalid, PaymentRequired). The domain knows nothing of HTTP; this table is where its refusals become statuses, at
 * the bus's reply and in the gateway's exception filter alike.
 */
export const REFUSAL_STATUS = { not_found: 404, conflict: 409, invalid: 422, payment_required: 402 } as const;
export type RefusalName = keyof typeof REFUSAL_STATUS;

/** The status of a domain refusal (duck-typed `{refusal, message}`, so libs/bus needn't depend on libs/domain), or null. */
export function refusalStatus(err: unknown): { status: number; detail: string } | null {
  if (typeof err !== 'object' || err === null) return null;
  const { refusal, message } = err as { refusal?: unknown; message?: unknown };
  if (typeof refusal !== 'string' || !Object.hasOwn(REFUSAL_STATUS, refusal) || typeof message !== 'string')
    return null;
  return { status: REFUSAL_STATUS[refusal as RefusalName], detail: message };
}

const isStatus = (value: unknown): value is number =>
  Number.isInteger(value) && (value as number) >= 400 && (value as number) <= 599;

/**
 * Maps what a handler threw to the error-as-data reply. Known refusals keep their status and message:
 * HttpException (e.g. ValidationPipe's 400), a domain refusal (see refusalStatus) and any error
 * carrying an HTTP `{status, message}` of its own. Anything else is a 500 with a fixed detail: internals
 * (messages, stacks) never cross the bus.
 */
export function toBusError(err: unknown): BusErrorReply {
  if (err instanceof HttpException) {
    const body = err.getResponse() as string | { message?: string | string[] };
    const message = typeof body === 'string' ? body : body.message;
    return {
      error: {
        status: err.getStatus(),
        detail: Array.isArray(message) ? message.join('; ') : (message ?? err.message),
      },
    };
  }
  const candidate = err instanceof RpcException ? err.getError() : err;
  const refused = refusalStatus(candidate);
  if (refused) return { error: refused };
  if (typeof candidate === 'object' && candidate !== null) {
    const { status, message, isAxiosError } = candidate as {
      status?: unknown;
      message?: unknown;
      isAxiosError?: unknown;
    };
    // An HTTP client's error also carries a status, but it is the upstream's status, not ours.
    if (isStatus(status) && typeof message === 'string' && isAxiosError !== true)
      return { error: { status, detail: message } };
  }
  return INTERNAL_ERROR;
}

/** Turns every exception of a bus handler into the error-as-data reply (the default filter would send `{status:'error'}`). */
@Catch()
export class BusErrorFilter implements RpcExceptionFilter<unknown> {
  private readonly logger = new Logger('BusErrorFilter');

  catch(exception: unknown, host: ArgumentsHost): Observable<BusErrorReply> {
    const reply = toBusError(exception);
    if (reply.error.status >= 500) {
      const subject = host.getType() === 'rpc' ? String(host.switchToRpc().getContext()?.getArgByIndex?.(0) ?? '') : '';
      this.logger.error(
        `handler for "${subject}" failed`,
        exception instanceof Error ? exception.stack : String(exception),
      );
    }
    return of(reply);
  }
}

/** `@BusController()` = a Nest controller whose handlers answer errors as data. Use it for every bus handler class. */
export const BusController = (): ClassDecorator => applyDecorators(Controller(), UseFilters(new BusErrorFilter()));
