/**
 * The gRPC channels under EsdbEventStore's clients (@eventstore/db-client 6.x over grpc-js):
 * finding them so that closing the store really closes them.
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
