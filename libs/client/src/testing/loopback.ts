import * as http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Seen {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
  at: number;
}

export type Handler = (req: http.IncomingMessage, res: http.ServerResponse, seen: Seen) => void;

/**
 * A real HTTP server on loopback for the client's specs: the n-th request is answered by the n-th
 * handler (the last one answers the rest); every request is recorded with its headers and body.
 */
export async function loopback(...handlers: Handler[]): Promise<{ url: string; seen: Seen[]; close(): Promise<void> }> {
  const seen: Seen[] = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    req.on('end', () => {
      const entry = { method: req.method!, url: req.url!, headers: req.headers, body, at: Date.now() };
      seen.push(entry);
      handlers[Math.min(seen.length, handlers.length) - 1]!(req, res, entry);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Answers JSON with a status and headers (X-Request-Id by default). */
export const reply =
  (status: number, body: unknown, headers: Record<string, string> = {}): Handler =>
  (_req, res) => {
    res.writeHead(status, { 'Content-Type': 'application/json', 'X-Request-Id': `req-${status}`, ...headers });
    res.end(body === undefined ? undefined : JSON.stringify(body));
  };
