import * as http from 'node:http';
import * as net from 'node:net';
import type { AddressInfo } from 'node:net';

/** A frame of a run's SSE stream that carries an id, ended by its blank line. */
const ID_FRAME = /(?:^|\n)id: [^\n]*\n(?:[^\n]+\n)*\n/g;

export interface CuttingProxy {
  url: string;
  /** Each event-stream request that came through: its path and Last-Event-ID (undefined when none). */
  streams: Array<{ path: string; lastEventId: string | undefined }>;
  close(): Promise<void>;
}

/**
 * A TCP proxy on loopback in front of `targetPort` that forwards bytes as they are, except that
 * the first event-stream answer (`GET .../events`) is cut off, both sockets destroyed, right after
 * its `cutAfter`-th event frame: a connection dropped mid-stream, as a restarted load balancer or
 * a lost network does it. Later streams pass whole.
 */
export async function startCuttingProxy(targetPort: number, cutAfter: number): Promise<CuttingProxy> {
  const streams: CuttingProxy['streams'] = [];
  const sockets = new Set<net.Socket>();
  let cut = false;
  const server = net.createServer((client) => {
    const upstream = net.connect(targetPort, '127.0.0.1');
    sockets.add(client).add(upstream);
    let watching = false;
    let seen = '';
    client.on('data', (chunk: Buffer) => {
      const head = chunk.toString('latin1');
      const line = /^GET (\S+\/events)(?:\?\S*)? HTTP\/1\.1\r\n/.exec(head);
      if (line) {
        streams.push({ path: line[1]!, lastEventId: /\r\nlast-event-id: *([^\r]*)\r\n/i.exec(head)?.[1] });
        if (!cut) {
          cut = true;
          watching = true;
        }
      }
      upstream.write(chunk);
    });
    upstream.on('data', (chunk: Buffer) => {
      if (!watching) return void client.write(chunk);
      const before = seen.length;
      seen += chunk.toString('latin1');
      const frames = [...seen.matchAll(ID_FRAME)];
      if (frames.length < cutAfter) return void client.write(chunk);
      const end = frames[cutAfter - 1]!.index! + frames[cutAfter - 1]![0].length;
      watching = false;
      client.write(chunk.subarray(0, end - before), () => {
        client.destroy();
        upstream.destroy();
      });
    });
    const close = () => {
      client.destroy();
      upstream.destroy();
    };
    client.on('close', close).on('error', close);
    upstream.on('close', close).on('error', close);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    streams,
    close: () =>
      new Promise((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

export interface LosingProxy {
  url: string;
  /** Each POST forwarded: its Idempotency-Key and what the service answered (status, X-Request-Id, Idempotent-Replayed). */
  posts: Array<{
    path: string;
    idempotencyKey: string | undefined;
    status: number;
    requestId: string | null;
    replayed: string | null;
  }>;
  close(): Promise<void>;
}

/**
 * An HTTP proxy on loopback in front of `target` that forwards every request, but answers the
 * first `lose` POSTs with `status` (and `Retry-After: 1`) once the service has answered them: the
 * work is done and charged, the answer lost on the way back, as a gateway in front of the
 * service answers when its upstream read times out.
 */
export async function startLosingProxy(target: string, lose: number, status: 429 | 503): Promise<LosingProxy> {
  const posts: LosingProxy['posts'] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(req.headers)) {
        if (typeof value === 'string' && !['host', 'connection', 'content-length'].includes(name))
          headers[name] = value;
      }
      const body = chunks.length ? Buffer.concat(chunks) : undefined;
      fetch(`${target}${req.url}`, { method: req.method, headers, body })
        .then(async (answer) => {
          const text = Buffer.from(await answer.arrayBuffer());
          if (req.method === 'POST') {
            posts.push({
              path: req.url!,
              idempotencyKey: headers['idempotency-key'],
              status: answer.status,
              requestId: answer.headers.get('x-request-id'),
              replayed: answer.headers.get('idempotent-replayed'),
            });
            if (posts.length <= lose) {
              res
                .writeHead(status, { 'Content-Type': 'application/json', 'Retry-After': '1' })
                .end(JSON.stringify({ detail: 'upstream answer lost' }));
              return;
            }
          }
          const relayed: Record<string, string> = {};
          answer.headers.forEach((value, name) => {
            if (!['connection', 'keep-alive', 'transfer-encoding', 'content-length', 'content-encoding'].includes(name))
              relayed[name] = value;
          });
          res.writeHead(answer.status, relayed).end(text);
        })
        .catch(() => res.writeHead(502).end());
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    posts,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
