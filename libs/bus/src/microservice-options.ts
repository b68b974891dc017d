import { Logger } from '@nestjs/common';
import {
  type MessageHandler,
  type MicroserviceOptions,
  type NatsContext,
  type NatsOptions,
  ServerNats,
} from '@nestjs/microservices';
import type { Msg, NatsConnection, Subscription } from 'nats';
import { NATS_CONNECTION_DEFAULTS } from './bus-client';
import { InProcessServer } from './inprocess.transport';
import {
  isLargePayloadRef,
  isTooLarge,
  type LargePayloadOptions,
  loadLargePayload,
  storeLargePayload,
} from './large-payloads';
import { SafeNatsRecordSerializer } from './wire';

/** The part of Config (libs/config) the bus needs; structural so tests can pass a literal. */
export interface BusTransportConfig {
  bus: 'inprocess' | 'nats';
  /** One server URL, or every node of a cluster (Config.natsServers). */
  natsServers: string | string[];
  /** Where payloads larger than a NATS message go (large-payloads.ts; its defaults when absent). */
  largePayloads?: LargePayloadOptions;
  /** How long a closing service waits for the messages it took to be answered (NatsServer.close); 20 s when absent. */
  busDrainMs?: number;
}

/** How long a closing service waits for the messages it took to be answered. */
const DRAIN_MS = 20_000;

/**
 * Nest's NATS server with handlers found by their subject directly: subjects are plain strings,
 * registered as they are, and Nest's own lookup first tries JSON.parse on each message's subject,
 * which throws every time (InProcessServer does the same).
 */
export class NatsServer extends ServerNats {
  private readonly log = new Logger('NatsServer');

  private readonly inFlight = new Set<Promise<unknown>>();

  constructor(
    options: NonNullable<NatsOptions['options']>,
    private readonly largePayloads: LargePayloadOptions = {},
    private readonly drainMs = DRAIN_MS,
  ) {
    super(options);
    // A request or event too large for a message arrives as a reference (BusClient): its payload
    // is read back before the handler sees it.
    const plain = this.deserializer;
    this.deserializer = {
      deserialize: async (value: unknown, options?: Record<string, unknown>) => {
        const message = (await plain.deserialize(value, options)) as { data?: unknown };
        if (!isLargePayloadRef(message.data)) return message;
        const stored = await loadLargePayload(this.unwrap<NatsConnection>(), message.data);
        if (!stored)
          throw new Error(
            `a ${message.data.$bus_large_payload.bytes}-byte payload sent through the object store is gone (its TTL passed?)`,
          );
        return { ...message, data: stored.value };
      },
    } as typeof plain;
  }

  /**
   * A message whose large payload cannot be read back is answered as a 502 saying so (a request),
   * or logged and dropped (an event), never an unhandled rejection.
   */
  override handleMessage(channel: string, natsMsg: Msg): Promise<unknown> {
    const work = this.handleTracked(channel, natsMsg);
    this.inFlight.add(work);
    void work.finally(() => this.inFlight.delete(work));
    return work;
  }

  /**
   * A drain, so that a replica restarted in turn fails no request: the subscriptions are drained
   * (no new message is taken; those the server sent already are still handled, and the queue
   * group's other members get the rest), the messages taken are answered, then the connection
   * closes. Bounded by `drainMs`: a handler that never ends does not hold the process.
   */
  override async close(): Promise<void> {
    const nc = this.unwrapOrUndefined();
    if (nc && !nc.isClosed()) {
      const deadline = Date.now() + this.drainMs;
      const subscriptions = (this as unknown as { subscriptions: Subscription[] }).subscriptions;
      await Promise.all(subscriptions.map((sub) => sub.drain().catch(() => undefined)));
      while (this.inFlight.size > 0 && Date.now() < deadline) {
        const left = deadline - Date.now();
        await Promise.race([Promise.allSettled([...this.inFlight]), new Promise((r) => setTimeout(r, left).unref())]);
      }
      if (this.inFlight.size > 0) this.log.warn(`closing with ${this.inFlight.size} message(s) still being handled`);
      // Replies go out on the next tick (Nest's publisher): let them, and let them reach the server.
      await new Promise((resolve) => setImmediate(resolve));
      await nc.flush().catch(() => undefined);
    }
    await super.close();
  }

  private unwrapOrUndefined(): NatsConnection | undefined {
    try {
      return this.unwrap<NatsConnection>();
    } catch {
      return undefined;
    }
  }

  private async handleTracked(channel: string, natsMsg: Msg): Promise<unknown> {
    try {
      return await super.handleMessage(channel, natsMsg as never);
    } catch (err) {
      const detail = err instanceof Error ? err.message : String(err);
      this.log.error(`message on "${channel}" not handled: ${detail}`);
      // The request's id is in the envelope that carried the reference (a small message).
      let id: unknown;
      try {
        id = (JSON.parse(Buffer.from(natsMsg.data).toString('utf8')) as { id?: unknown }).id;
      } catch {
        id = undefined;
      }
      if (natsMsg.reply && typeof id === 'string') {
        const out = this.serializer.serialize({
          id,
          isDisposed: true,
          response: { error: { status: 502, detail } },
        }) as { data: Uint8Array; headers?: Msg['headers'] };
        natsMsg.respond(out.data, { headers: out.headers });
      }
      return undefined;
    }
  }

  override getHandlerByPattern(pattern: string): MessageHandler | null {
    return this.messageHandlers.get(pattern) ?? super.getHandlerByPattern(pattern);
  }

  /**
   * Nest's publisher (serialize, respond), except that a reply larger than a NATS message goes
   * through the object store (large-payloads.ts) and the message carries its reference; one the
   * store cannot take is answered as a 502 naming the sizes, at once.
   */
  override getPublisher(natsMsg: Msg, id: string, ctx: NatsContext): ReturnType<ServerNats['getPublisher']> {
    if (!natsMsg.reply) return super.getPublisher(natsMsg as never, id, ctx);
    return (packet: { id?: string; isDisposed?: boolean }) => {
      Object.assign(packet, { id });
      const out = this.serializer.serialize(packet as { id: string }) as { data: Uint8Array; headers?: Msg['headers'] };
      this.onProcessingEndHook?.(this.transportId, ctx);
      try {
        return natsMsg.respond(out.data, { headers: out.headers });
      } catch (err) {
        if (!isTooLarge(err)) throw err;
      }
      const nc = this.unwrap<NatsConnection>();
      const respond = (response: unknown) => {
        const small = this.serializer.serialize({ id, isDisposed: packet.isDisposed, response }) as {
          data: Uint8Array;
          headers?: Msg['headers'];
        };
        natsMsg.respond(small.data, { headers: small.headers });
      };
      storeLargePayload(nc, out.data, this.largePayloads, 'response').then(respond, (err: unknown) => {
        const detail = `the reply (${out.data.length} bytes) is larger than a bus message (${nc.info?.max_payload ?? 'unknown'} bytes) and could not be stored: ${err instanceof Error ? err.message : String(err)}`;
        this.log.error(detail);
        respond({ error: { status: 502, detail } });
      });
    };
  }
}

/**
 * What a service's main.ts passes to NestFactory.createMicroservice / app.connectMicroservice:
 * NATS with queue group = service name (replicas share the work), or the in-process strategy
 * with the same queue semantics. For a fan-out listener use `@EventPattern(subject, { queue: FAN_OUT })`.
 */
export function microserviceOptions(config: BusTransportConfig, serviceName: string): MicroserviceOptions {
  if (config.bus === 'nats') {
    const options: NonNullable<NatsOptions['options']> = {
      servers: config.natsServers,
      queue: serviceName,
      name: serviceName,
      serializer: new SafeNatsRecordSerializer(),
      ...NATS_CONNECTION_DEFAULTS,
    };
    return { strategy: new NatsServer(options, config.largePayloads, config.busDrainMs) };
  }
  return { strategy: new InProcessServer({ queue: serviceName }) };
}

/** Handler extras that opt out of the service's queue group: every instance gets every event. */
export const FAN_OUT = { queue: '' } as const;
