/**
 * The gRPC connections under EsdbEventStore, with the real client and grpc-js against a local
 * HTTP/2 server on loopback that stands in for EventStoreDB only as far as connections go: it
 * counts them and answers every call UNIMPLEMENTED (the client's calls then fail, which is fine:
 * what is measured is how many connections they open and whether close() ends them).
 */
import * as http2 from 'node:http2';
import type { AddressInfo } from 'node:net';
import { distinctChannel } from './esdb.channels';
import { EsdbEventStore } from './esdb.event-store';

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

async function loopbackServer() {
  const open = new Set<http2.ServerHttp2Session>();
  let opened = 0;
  const server = http2.createServer();
  server.on('session', (session) => {
    opened++;
    open.add(session);
    session.on('close', () => open.delete(session));
  });
  server.on('stream', (stream) =>
    stream.respond(
      { ':status': 200, 'content-type': 'application/grpc', 'grpc-status': '12', 'grpc-message': 'loopback stand-in' },
      { endStream: true },
    ),
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `esdb://127.0.0.1:${port}?tls=false`,
    opened: () => opened,
    open: () => open.size,
    async until(check: () => boolean, ms: number) {
      for (const deadline = Date.now() + ms; !check() && Date.now() < deadline;) await sleep(20);
    },
    async close() {
      for (const session of open) session.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/** A call on the appending client and a subscription on each subscription client. */
async function useEveryClient(store: EsdbEventStore, subscriptionChannels: number) {
  await store.ping().catch(() => undefined); // UNIMPLEMENTED: only the connection matters
  return Array.from({ length: subscriptionChannels }, () => store.subscribeToAll());
}

describe('EsdbEventStore gRPC connections (real client, loopback HTTP/2 server)', () => {
  let server: Awaited<ReturnType<typeof loopbackServer>>;
  beforeEach(async () => {
    server = await loopbackServer();
  });
  afterEach(async () => {
    await server.close();
  });

  it('opens a connection for the appending client and one for each subscription client, with tls=false', async () => {
    const store = EsdbEventStore.connect(server.url, 2);
    try {
      const subscriptions = await useEveryClient(store, 2);
      await server.until(() => server.opened() >= 3, 5_000);
      await sleep(100); // a fourth would show by now
      expect(server.opened()).toBe(3);
      await Promise.all(subscriptions.map((subscription) => subscription.close()));
    } finally {
      await store.close();
    }
  }, 15_000);

  it('close() closes the connections its clients opened, not only their calls', async () => {
    const store = EsdbEventStore.connect(server.url, 2);
    const subscriptions = await useEveryClient(store, 2);
    await server.until(() => server.opened() > 0 && server.open() === server.opened(), 5_000);
    expect(server.open()).toBeGreaterThan(0);
    await Promise.all(subscriptions.map((subscription) => subscription.close()));
    await store.close();
    await server.until(() => server.open() === 0, 5_000);
    expect(server.open()).toBe(0);
  }, 15_000);
});

describe('distinctChannel', () => {
  // The client's own parser: what each client is built with.
  const { parseConnectionString } = require('@eventstore/db-client/dist/Client/parseConnectionString');
  const keepalive = (connectionString: string) => {
    const { keepAliveTimeout, keepAliveInterval } = parseConnectionString(connectionString);
    return { keepAliveTimeout, keepAliveInterval };
  };

  it('leaves the first client as configured and moves the keepalive timeout of the others by their index', () => {
    expect(distinctChannel('esdb://db:2113?tls=false', 0)).toBe('esdb://db:2113?tls=false');
    expect(keepalive(distinctChannel('esdb://db:2113?tls=false', 1))).toEqual({ keepAliveTimeout: 10_001 });
    expect(keepalive(distinctChannel('esdb://db:2113', 2))).toEqual({ keepAliveTimeout: 10_002 });
    // A configured timeout (keys matched as the client matches them) is kept, plus the index.
    expect(keepalive(distinctChannel('esdb://db:2113?tls=false&keep_alive_timeout=20000', 1))).toEqual({
      keepAliveTimeout: 20_001,
    });
  });

  it('with the ack timeout disabled, moves the ping interval instead; with pings disabled, any timeout will do', () => {
    expect(keepalive(distinctChannel('esdb://db:2113?keepAliveTimeout=-1', 1))).toEqual({
      keepAliveTimeout: -1,
      keepAliveInterval: 10_001,
    });
    expect(keepalive(distinctChannel('esdb://db:2113?keepAliveTimeout=-1&keepAliveInterval=30000', 2))).toEqual({
      keepAliveTimeout: -1,
      keepAliveInterval: 30_002,
    });
    expect(keepalive(distinctChannel('esdb://db:2113?keepAliveTimeout=-1&keepAliveInterval=-1', 1))).toEqual({
      keepAliveTimeout: 10_001,
      keepAliveInterval: -1,
    });
  });
});
