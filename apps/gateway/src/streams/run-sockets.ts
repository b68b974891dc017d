import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { Logger } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { type WebSocket, WebSocketServer } from 'ws';
import { CONFIG, type Config } from '@app/config';
import { searchRunStream } from '@app/domain/search-run';
import { EVENT_STORE, type EventStore } from '@app/eventstore';
import { ApiError } from '@app/platform/http';
import { READ_STORE, type ReadStore } from '@app/readmodels';
import { SEARCH_RUNS, type SearchRunDoc } from '@app/readmodels/projections';
import { ApiKeyAuthenticator } from '../auth/api-key.authenticator';
import { parseResumeFrom, runStream } from './run-stream';
import { searchRunStreamSpec } from './search-run.stream-spec';

const ROUTE = /^\/v1\/searches\/([^/?#]+)\/ws(?:\?.*)?$/;
const FIRST_MESSAGE_WAIT_MS = 250;

const refuse = (socket: Duplex, status: number, detail: string, headers: Record<string, string> = {}) => {
  const body = JSON.stringify({ detail });
  const extra = Object.entries(headers).map(([k, v]) => `${k}: ${v}\r\n`).join('');
  socket.end(`HTTP/1.1 ${status} ${status === 401 ? 'Unauthorized' : 'Not Found'}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n${extra}Connection: close\r\n\r\n${body}`);
};

/**
 * WebSocket at /v1/searches/{id}/ws (a path parameter, so the upgrade is handled here by hand):
 * the same key check as HTTP, then each public event as `{"id","event","data"}`. A client resumes
 * with `?last_event_id=` or by sending `{"resume_from": <revision>}` as its first message.
 */
export function mountRunSockets(app: NestFastifyApplication): void {
  const logger = new Logger('RunSockets');
  const wss = new WebSocketServer({ noServer: true });
  const authenticator = app.get(ApiKeyAuthenticator);
  const reads = app.get<ReadStore>(READ_STORE);
  const events = app.get<EventStore>(EVENT_STORE);
  const config = app.get<Config>(CONFIG);
  const server = app.getHttpServer();

  server.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    const match = ROUTE.exec(request.url ?? '');
    if (!match) return refuse(socket, 404, 'Not Found');
    const searchId = decodeURIComponent(match[1]);
    void (async () => {
      let teamId: string;
      try {
        teamId = (await authenticator.authenticate(request.headers.authorization)).team_id;
      } catch (error) {
        const apiError = error as ApiError;
        return refuse(socket, apiError.getStatus?.() ?? 401, String(apiError.detail ?? 'Not authenticated'), { 'WWW-Authenticate': 'Bearer' });
      }
      const doc = (await reads.get(SEARCH_RUNS, searchId)) as SearchRunDoc | undefined;
      if (!doc || doc.team_id !== teamId) return refuse(socket, 404, `Search run ${searchId} not found`);
      wss.handleUpgrade(request, socket, head, (ws) => void serve(ws, searchId, new URL(request.url ?? '/', 'http://x').searchParams));
    })().catch((error: unknown) => {
      logger.error({ msg: 'websocket upgrade failed', err: (error as Error).message });
      socket.destroy();
    });
  });

  async function serve(ws: WebSocket, searchId: string, query: URLSearchParams): Promise<void> {
    const aborted = new AbortController();
    ws.on('close', () => aborted.abort());
    const ping = setInterval(() => ws.ping(), config.streamKeepAliveSeconds * 1000);
    try {
      let after = parseResumeFrom(query.get('last_event_id') ?? query.get('resume_from'));
      if (after === undefined) after = await firstResume(ws);
      if (after === 'invalid') {
        ws.close(1008, 'resume_from must be an event id');
        return;
      }
      for await (const event of runStream(events, searchRunStream(searchId), after, searchRunStreamSpec, aborted.signal)) {
        if (ws.readyState !== ws.OPEN) break;
        ws.send(JSON.stringify(event));
      }
      ws.close(1000, 'run ended');
    } finally {
      clearInterval(ping);
    }
  }

  /** A client may send `{"resume_from": n}` first; after a short wait, start from the beginning. */
  function firstResume(ws: WebSocket): Promise<bigint | undefined | 'invalid'> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        ws.off('message', onMessage);
        resolve(undefined);
      }, FIRST_MESSAGE_WAIT_MS);
      const onMessage = (data: Buffer) => {
        clearTimeout(timer);
        try {
          const message = JSON.parse(data.toString()) as { resume_from?: unknown };
          resolve(parseResumeFrom(message.resume_from));
        } catch {
          resolve('invalid');
        }
      };
      ws.once('message', onMessage);
    });
  }
}
