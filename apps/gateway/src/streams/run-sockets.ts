import { STATUS_CODES, type IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { Logger } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { type WebSocket, WebSocketServer } from 'ws';
import { CONFIG, type Config } from '@app/config';
import type { RunKind } from '@app/domain';
import { ApiError } from '@app/platform';
import { ApiKeyAuthenticator } from '../auth/api-key.authenticator';
import { RateLimiter } from '../auth/rate-limiter';
import { requestIdFor } from '../http/request-id';
import { RunHttp } from '../runs/run-http';
import { HTTP_RUN_KIND_LIST, type HttpRunKind } from '../runs/run-kind-routes';
import { type RunSocketRoute, runSocketRoutes } from '../runs/run-socket-routes';
import { GatewayDrain } from './drain';
import { LiveStreams, type Release } from './live-streams';
import { parseResumeFrom } from './run-stream';

/** Unsent bytes a socket may hold before the stream waits for its client to read. */
const SEND_HIGH_WATER = 1024 * 1024;

/** How long a client has to send `{"resume_from"}` before the replay starts from the beginning. */
export const FIRST_MESSAGE_WAIT_MS = 2_000;

/** A path segment decoded, or null when its percent-encoding is malformed (`%`, `%ZZ`, a cut UTF-8 sequence). */
function decodeSegment(segment: string): string | null {
  try {
    return decodeURIComponent(segment);
  } catch {
    return null;
  }
}

const refuse = (socket: Duplex, status: number, detail: unknown, headers: Record<string, string>) => {
  if (!socket.writable) return void socket.destroy();
  const body = JSON.stringify({ detail });
  const extra = Object.entries(headers)
    .map(([k, v]) => `${k}: ${v}\r\n`)
    .join('');
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? 'Error'}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n${extra}Connection: close\r\n\r\n${body}`,
  );
};

/**
 * WebSocket at `<run path>/ws` for every run kind (a path parameter, so the upgrade is handled here
 * by hand): the same key check and rate limit as HTTP, `X-Request-Id` on every answer, then each
 * public event as `{"id","event","data"}`. A client resumes with `?last_event_id=` or by sending
 * `{"resume_from": <revision>}` within FIRST_MESSAGE_WAIT_MS of connecting (no replay is sent
 * before that message or the wait's end, so a late resume gets no duplicates).
 */
/** `routes`: by default every kind the gateway serves whose registration has a socket path. */
export function mountRunSockets(
  app: NestFastifyApplication,
  routes: readonly RunSocketRoute[] = runSocketRoutes(app.get<readonly HttpRunKind[]>(HTTP_RUN_KIND_LIST)),
): void {
  const logger = new Logger('RunSockets');
  const config = app.get<Config>(CONFIG);
  // A client only ever sends `{"resume_from"}`: a larger message closes the socket with 1009.
  const wss = new WebSocketServer({ noServer: true, maxPayload: config.wsMaxMessageBytes });
  const live = app.get(LiveStreams);
  const drain = app.get(GatewayDrain);
  const authenticator = app.get(ApiKeyAuthenticator);
  const limiter = app.get(RateLimiter);
  const runs = app.get(RunHttp);
  const server = app.getHttpServer();

  server.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    // Anything thrown here would escape every handler and stop the process: the whole listener is
    // guarded, and a socket reset by its client before the answer is only logged.
    socket.on('error', (error) => logger.warn({ msg: 'websocket upgrade socket error', err: error.message }));
    let requestId: string | undefined;
    try {
      requestId = requestIdFor(request);
      upgrade(request, socket, head, requestId);
    } catch (error) {
      logger.error({ msg: 'websocket upgrade failed', req_id: requestId, err: (error as Error).message });
      refuse(socket, 500, 'Internal Server Error', requestId ? { 'X-Request-Id': requestId } : {});
    }
  });

  function upgrade(request: IncomingMessage, socket: Duplex, head: Buffer, requestId: string): void {
    const path = (request.url ?? '').split('?')[0]!;
    const route = routes.map((r) => ({ r, match: r.pattern.exec(path) })).find((m) => m.match);
    if (!route) return refuse(socket, 404, 'Not Found', { 'X-Request-Id': requestId });
    const runId = decodeSegment(route.match![1]!);
    if (runId === null)
      return refuse(socket, 400, 'the run id in the path is not valid percent-encoding', { 'X-Request-Id': requestId });
    void (async () => {
      let headers: Record<string, string> = { 'X-Request-Id': requestId };
      let release: Release;
      try {
        const auth = await authenticator.authenticate(request.headers.authorization);
        headers = { ...headers, ...limiter.take(auth.key_id) };
        await runs.owned(route.r.kind, auth, runId);
        release = live.take(auth.key_id);
      } catch (error) {
        if (!(error instanceof ApiError)) throw error;
        return refuse(socket, error.getStatus(), error.detail, { ...headers, ...error.headers });
      }
      socket.once('close', release);
      wss.handleUpgrade(
        request,
        socket,
        head,
        (ws) => void serve(ws, route.r.kind, runId, new URL(request.url ?? '/', 'http://x').searchParams),
      );
    })().catch((error: unknown) => {
      logger.error({
        msg: 'websocket upgrade failed',
        req_id: requestId,
        run_id: runId,
        err: (error as Error).message,
      });
      refuse(socket, 500, 'Internal Server Error', { 'X-Request-Id': requestId });
    });
  }
  // The request id of an accepted upgrade rides on the 101 answer too.
  wss.on('headers', (headers, request) => headers.push(`X-Request-Id: ${requestIdFor(request)}`));

  async function serve(ws: WebSocket, kind: RunKind, runId: string, query: URLSearchParams): Promise<void> {
    const aborted = new AbortController();
    ws.on('close', () => aborted.abort());
    // This replica drains: 1012 (service restart) tells the client to come back, through the
    // balancer, to another replica and resume from the last event it got.
    const restart = () => ws.close(1012, 'service restart: resume on another replica');
    if (drain.streamsEnd.aborted) return restart();
    drain.streamsEnd.addEventListener('abort', restart, { once: true });
    ws.once('close', () => drain.streamsEnd.removeEventListener('abort', restart));
    // A protocol error (a frame over the size, bad UTF-8, a bad opcode) closes the socket with its
    // code; unheard, the 'error' event would stop the process.
    ws.on('error', (error: Error & { code?: string }) =>
      logger.warn({ msg: 'websocket closed on a client error', run_id: runId, code: error.code, err: error.message }),
    );
    const ping = setInterval(() => ws.ping(), config.streamKeepAliveSeconds * 1000);
    try {
      let after = parseResumeFrom(query.get('last_event_id') ?? query.get('resume_from'));
      if (after === undefined) after = await firstResume(ws);
      if (after === 'invalid') {
        ws.close(1008, 'resume_from must be an event id');
        return;
      }
      for await (const event of runs.stream(kind, runId, after, aborted.signal)) {
        if (ws.readyState !== ws.OPEN) break;
        // Backpressure: past SEND_HIGH_WATER unsent bytes, wait until this frame is written out.
        if (ws.bufferedAmount > SEND_HIGH_WATER)
          await new Promise<void>((resolve) => ws.send(JSON.stringify(event), () => resolve()));
        else ws.send(JSON.stringify(event));
      }
      ws.close(1000, 'run ended');
    } catch (error) {
      logger.error({ msg: 'websocket stream failed', run_id: runId, err: (error as Error).message });
      ws.close(1011, 'stream failed');
    } finally {
      clearInterval(ping);
    }
  }

  /** A client may send `{"resume_from": n}` first; with no message within the wait, start from the beginning. */
  function firstResume(ws: WebSocket): Promise<bigint | undefined | 'invalid'> {
    return new Promise((resolve) => {
      const done = (value: bigint | undefined | 'invalid') => {
        clearTimeout(timer);
        ws.off('message', onMessage);
        ws.off('close', onClose);
        resolve(value);
      };
      const timer = setTimeout(() => done(undefined), FIRST_MESSAGE_WAIT_MS);
      const onClose = () => done(undefined);
      const onMessage = (data: Buffer) => {
        try {
          const message = JSON.parse(data.toString()) as { resume_from?: unknown };
          done(parseResumeFrom(message.resume_from));
        } catch {
          done('invalid');
        }
      };
      ws.once('message', onMessage);
      ws.once('close', onClose);
    });
  }
}
