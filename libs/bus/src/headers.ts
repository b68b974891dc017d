import { BaseRpcContext, NatsContext } from '@nestjs/microservices';
import type { MsgHdrs } from 'nats';
import { InProcessContext } from './inprocess.transport';

/** Headers a request carries (DESIGN.md: correlation ids travel in headers, not in payloads). */
export interface BusHeaders {
  correlation_id?: string;
  request_id?: string;
  [name: string]: string | undefined;
}

/** A handler's view of the request headers, whichever transport delivered it: `busHeaders(ctx)` with `@Ctx() ctx`. */
export function busHeaders(ctx: BaseRpcContext): Record<string, string> {
  if (ctx instanceof InProcessContext) return { ...ctx.getHeaders() };
  if (ctx instanceof NatsContext) {
    const headers = ctx.getHeaders() as MsgHdrs | undefined;
    const out: Record<string, string> = {};
    for (const key of headers?.keys() ?? []) out[key] = headers!.get(key);
    return out;
  }
  return {};
}
