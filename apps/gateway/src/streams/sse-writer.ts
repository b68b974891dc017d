import type { FastifyReply } from 'fastify';

/** An open server-sent-events answer: frames written with backpressure, a keep-alive, one end. */
export interface SseWriter {
  /** Aborted when the client goes away. */
  readonly gone: AbortSignal;
  /** Writes raw frame text; when the socket's buffer is full, waits until the client has read it (or left). */
  write(text: string): Promise<void>;
  /**
   * Stops the keep-alive and ends the answer (once); `closeConnection` also ends the connection
   * (a draining replica: a kept-alive connection would hold its HTTP server open).
   */
  end(closeConnection?: boolean): void;
}

/**
 * Takes over the reply as an SSE stream (the gateway writes it by hand): the headers every stream
 * answers with, the request id, a comment at once and a keep-alive comment every
 * `keepAliveSeconds`. The one SSE writer of the gateway: run streams and streamed chat completions.
 */
export function openSse(
  reply: FastifyReply,
  requestId: string,
  keepAliveSeconds: number,
  first = ': connected\n\n',
): SseWriter {
  reply.hijack();
  const raw = reply.raw;
  raw.writeHead(200, {
    'Content-Type': 'text/event-stream; charset=utf-8',
    'Cache-Control': 'no-cache, no-transform',
    Connection: 'keep-alive',
    'X-Accel-Buffering': 'no',
    'X-Request-Id': requestId,
  });
  if (first) raw.write(first);
  const gone = new AbortController();
  raw.on('close', () => gone.abort());
  const keepAlive = setInterval(() => raw.write(': keep-alive\n\n'), keepAliveSeconds * 1000);
  let ended = false;
  return {
    gone: gone.signal,
    async write(text: string): Promise<void> {
      if (ended || gone.signal.aborted) return;
      if (!raw.write(text)) await new Promise((resolve) => (raw.once('drain', resolve), raw.once('close', resolve)));
    },
    end(closeConnection = false): void {
      if (ended) return;
      ended = true;
      clearInterval(keepAlive);
      raw.end(() => closeConnection && raw.socket?.end());
    },
  };
}
