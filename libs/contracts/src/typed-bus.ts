import type { ReplyOf, RequestOf, Subject } from './contracts';

/** What a typed call needs of a bus client (BusClient fits): kept structural so contracts need not import the bus. */
export interface RequestSender {
  request<Req, Rep>(
    subject: string,
    payload: Req,
    options?: { timeoutMs?: number; headers?: Record<string, string | undefined> },
  ): Promise<Rep>;
}

/** A bus request whose payload and reply types come from the subject's contract. */
export const callBus = <S extends Subject>(
  bus: RequestSender,
  subject: S,
  payload: RequestOf<S>,
  options?: { timeoutMs?: number; headers?: Record<string, string | undefined> },
): Promise<ReplyOf<S>> => bus.request<RequestOf<S>, ReplyOf<S>>(subject, payload, options);
