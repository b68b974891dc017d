/**
 * The gRPC channels under EsdbEventStore's clients (@eventstore/db-client 6.x over grpc-js): a
 * connection of its own for each client, and finding the channels so that closing the store
 * really closes them.
 */
import type { EventStoreDBClient } from '@eventstore/db-client';
import type { Channel } from '@grpc/grpc-js';

/** grpc-js ConnectivityState.SHUTDOWN: a closed channel. */
const SHUTDOWN = 4;

/**
 * The client's protected channel getter (6.x: an instance property, called as `this.getChannel()`
 * for every gRPC call). It creates the channel on first use and again after a reconnection.
 */
interface ChannelOwner {
  getChannel?: () => Promise<Channel>;
}

/**
 * Records into `channels` every channel `client` opens from now on. The client's `dispose()` only
 * cancels its calls: its channel stays open (grpc-js keeps an idle connection for 30 minutes), so
 * the store closes the channels itself. A client without the getter (a test double) is left as is.
 */
export function trackChannels(client: EventStoreDBClient, channels: Set<Channel>): void {
  const owner = client as unknown as ChannelOwner;
  const get = owner.getChannel;
  if (typeof get !== 'function') return;
  owner.getChannel = async () => {
    const channel = await get();
    channels.add(channel);
    return channel;
  };
}

/**
 * Closes the channels: their calls end, no call can start on them, and grpc-js drops each
 * connection that no channel still open uses (closing a channel sweeps its subchannel pool).
 */
export function closeChannels(channels: Set<Channel>): void {
  for (const channel of channels) {
    // The client closes a channel itself when it reconnects elsewhere.
    if (channel.getConnectivityState(false) !== SHUTDOWN) channel.close();
  }
  channels.clear();
}

const DEFAULT_KEEPALIVE_MS = 10_000; // the client's default keepAliveInterval and keepAliveTimeout

/** The last value of a connection-string option, matched as the client matches keys (case, - and _ aside). */
function option(connectionString: string, name: string): number | undefined {
  const query = connectionString.indexOf('?');
  if (query < 0) return undefined;
  const flat = (key: string) => key.trim().toLowerCase().replace(/[_-]/g, '');
  let value: number | undefined;
  for (const pair of connectionString.slice(query + 1).split('&')) {
    const [key = '', raw = ''] = pair.split('=');
    if (flat(key) === flat(name) && !Number.isNaN(parseInt(raw, 10))) value = parseInt(raw, 10);
  }
  return value;
}

/**
 * The connection string for a store's `index`-th client, made to get a connection of its own.
 * grpc-js shares one connection (subchannel) among channels whose target, options and
 * credentials are equal, and any two insecure credentials are equal: with tls=false every client
 * of the store would ride one HTTP/2 connection, and a busy subscription's flow control could hold
 * appends and the other subscriptions behind it. (With TLS each client builds its own secure
 * context, so the connections were separate already.) The client takes no channel options of
 * ours, but puts its keepalive settings into them: client `index` waits `index` ms longer for a
 * keepalive ack (or, with that wait disabled, pings `index` ms later), which changes nothing else.
 */
export function distinctChannel(connectionString: string, index: number): string {
  if (index === 0) return connectionString;
  const timeout = option(connectionString, 'keepAliveTimeout') ?? DEFAULT_KEEPALIVE_MS;
  const interval = option(connectionString, 'keepAliveInterval') ?? DEFAULT_KEEPALIVE_MS;
  // -1 disables either. Without pings (interval -1) the timeout is never used: any value will do.
  const [key, value] =
    timeout !== -1
      ? ['keepAliveTimeout', timeout + index]
      : interval !== -1
        ? ['keepAliveInterval', interval + index]
        : ['keepAliveTimeout', DEFAULT_KEEPALIVE_MS + index];
  // A repeated option overrides the earlier one in the client's parser.
  return `${connectionString}${connectionString.includes('?') ? '&' : '?'}${key}=${value}`;
}
