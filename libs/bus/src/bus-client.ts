import { Inject, Injectable, Logger, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { ClientProxy, ClientProxyFactory, NatsRecordBuilder, Transport } from '@nestjs/microservices';
import { NO_MESSAGE_HANDLER } from '@nestjs/microservices/constants';
import { EmptyResponseException } from '@nestjs/microservices/errors/empty-response.exception';
import { headers as natsHeaders, type NatsConnection } from 'nats';
import { EmptyError, firstValueFrom, lastValueFrom, timeout, TimeoutError } from 'rxjs';
import { BusReplyError, BusTimeoutError } from './errors';
import { BusHeaders } from './headers';
import { InProcessClient, InProcessRecord } from './inprocess.transport';
import {
  isLargePayloadRef,
  isTooLarge,
  type LargePayloadOptions,
  loadLargePayload,
  storeLargePayload,
} from './large-payloads';
import { correctNatsTransport } from './nats-stalled-node';
import { BusPayloadError, isBusErrorReply } from './wire';

// Before any connection: the NATS transport's handling of a stalled node, corrected (see there).
correctNatsTransport();

export interface BusModuleOptions {
  transport: 'inprocess' | 'nats';
  /** Required when transport is 'nats': one server URL, or every node of a cluster. */
  natsServers?: string | string[];
  /** Names the NATS connection (`<service>:client`), visible in the server's connz monitoring. */
  service?: string;
  /** Default timeout of request() and emit(); Config.busTimeoutMs in the apps. Default 10,000. */
  timeoutMs?: number;
  /**
   * Where a request too large for a NATS message goes (large-payloads.ts; Config.largePayloads in
   * the apps): the same bucket bounds as the services' replies, whichever side creates it first.
   */
  largePayloads?: LargePayloadOptions;
}

export interface BusRequestOptions {
  timeoutMs?: number;
  headers?: BusHeaders;
}

export const BUS_OPTIONS = Symbol('BUS_OPTIONS');
export const DEFAULT_BUS_TIMEOUT_MS = 10_000;

/**
 * Connection settings shared by clients and servers: wait for NATS at boot and reconnect forever,
 * so a service outlives a NATS restart; meanwhile requests fail as BusTimeoutError (503).
 */
export const NATS_CONNECTION_DEFAULTS = {
  waitOnFirstConnect: true,
  maxReconnectAttempts: -1,
  reconnectTimeWait: 500,
  // A server that stalls (a paused or overloaded node) holds its connections open: ping it every
  // 2 s and leave it for another node of the cluster after two unanswered pings (within about
  // 6 s), not after the client's default of four minutes.
  pingInterval: 2_000,
  maxPingOut: 2,
  // Each attempt to reach a node gives up after 2 s: a stalled node accepts the TCP connection
  // (its kernel does) and never sends INFO, and the client's default of 20 s per attempt held a
  // reconnect on it that long while live nodes were there.
  timeout: 2_000,
} as const;

const NATS_UNAVAILABLE = new Set([
  'CONNECTION_REFUSED',
  'CONNECTION_CLOSED',
  'CONNECTION_DRAINING',
  'CONNECTION_TIMEOUT',
  'DISCONNECT',
]);

@Injectable()
export class BusClient implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger(BusClient.name);
  private readonly proxy: ClientProxy;
  private readonly timeoutMs: number;

  constructor(@Inject(BUS_OPTIONS) private readonly options: BusModuleOptions) {
    this.timeoutMs = options.timeoutMs ?? DEFAULT_BUS_TIMEOUT_MS;
    if (options.transport === 'nats') {
      if (!options.natsServers?.length) throw new Error('BusModule: natsServers is required when transport is "nats"');
      this.proxy = ClientProxyFactory.create({
        transport: Transport.NATS,
        options: {
          servers: options.natsServers,
          name: options.service && `${options.service}:client`,
          ...NATS_CONNECTION_DEFAULTS,
        },
      });
    } else {
      this.proxy = new InProcessClient();
    }
  }

  onModuleInit(): void {
    // Connect early so the first request doesn't pay for it; a failure here is retried by the next request.
    this.proxy.connect().catch((err) => this.logger.warn(`bus connect failed: ${String(err)}`));
  }

  async onApplicationShutdown(): Promise<void> {
    await this.proxy.close();
  }

  /**
   * Request/reply. Resolves with the reply; rejects with BusTimeoutError (timeout, no responders,
   * bus down), BusReplyError (the reply was `{error: {status, detail}}`) or BusPayloadError (the
   * payload can't go on the wire, e.g. a bigint: send it as a decimal string).
   */
  async request<Req, Rep>(subject: string, payload: Req, options: BusRequestOptions = {}): Promise<Rep> {
    const timeoutMs = options.timeoutMs ?? this.timeoutMs;
    let reply: unknown;
    try {
      const send = (body: unknown) =>
        firstValueFrom(
          this.proxy.send<unknown>(subject, this.message(subject, body, options.headers)).pipe(timeout(timeoutMs)),
        );
      reply = await this.sized(subject, payload, send);
    } catch (err) {
      throw this.mapError(subject, timeoutMs, err);
    }
    if (isLargePayloadRef(reply)) reply = await this.largeReply(subject, reply);
    if (isBusErrorReply(reply)) throw new BusReplyError(subject, reply.error.status, reply.error.detail);
    return reply as Rep;
  }

  /** A reply too large for a message, read from the object store it was put in (large-payloads.ts). */
  private async largeReply(subject: string, ref: Parameters<typeof loadLargePayload>[1]): Promise<unknown> {
    const stored = await loadLargePayload(this.proxy.unwrap<NatsConnection>(), ref).catch((err: unknown) => {
      this.logger.error(
        `large reply to "${subject}" could not be read: ${err instanceof Error ? err.message : String(err)}`,
      );
      return null;
    });
    if (!stored)
      throw new BusReplyError(
        subject,
        502,
        `the reply (${ref.$bus_large_payload.bytes} bytes) was stored for the bus but could not be read back`,
      );
    return stored.value;
  }

  /**
   * Sends the payload; one NATS refuses for its size (larger than a message) goes through the
   * object store and its reference in its place (large-payloads.ts; the server reads it back).
   * Nothing was sent the first time: nats.js checks the size before publishing.
   */
  private async sized<T>(subject: string, payload: unknown, send: (body: unknown) => Promise<T>): Promise<T> {
    try {
      return await send(payload);
    } catch (err) {
      if (!isTooLarge(err)) throw err;
    }
    return send(
      await storeLargePayload(
        this.proxy.unwrap<NatsConnection>(),
        Buffer.from(JSON.stringify(payload)),
        this.options.largePayloads,
      ),
    );
  }

  /** Fire-and-forget event (no reply, no delivery guarantee); resolves once handed to the bus. */
  async emit<E>(subject: string, payload: E, options: BusRequestOptions = {}): Promise<void> {
    const timeoutMs = options.timeoutMs ?? this.timeoutMs;
    try {
      const send = (body: unknown) =>
        lastValueFrom(this.proxy.emit(subject, this.message(subject, body, options.headers)).pipe(timeout(timeoutMs)), {
          defaultValue: undefined,
        });
      await this.sized(subject, payload, send);
    } catch (err) {
      throw this.mapError(subject, timeoutMs, err);
    }
  }

  private message(subject: string, payload: unknown, headers: BusHeaders = {}): unknown {
    // Nest rejects a nil payload only when there are no headers; reject it always, so callers see one rule.
    if (payload === undefined || payload === null)
      throw new BusPayloadError(subject, 'null or undefined payload (send {})');
    const entries = Object.entries(headers).filter((entry): entry is [string, string] => entry[1] !== undefined);
    if (entries.length === 0) return payload;
    if (this.options.transport === 'inprocess') return new InProcessRecord(payload, Object.fromEntries(entries));
    const natsHeaderSet = natsHeaders();
    for (const [name, value] of entries) natsHeaderSet.set(name, value);
    return new NatsRecordBuilder(payload).setHeaders(natsHeaderSet).build();
  }

  private mapError(subject: string, timeoutMs: number, err: unknown): unknown {
    if (err instanceof TimeoutError) return new BusTimeoutError(subject, timeoutMs, 'timeout');
    if (err instanceof EmptyResponseException || err === NO_MESSAGE_HANDLER)
      return new BusTimeoutError(subject, timeoutMs, 'no_responders');
    // ClientNats rejects with a bare string while it reconnects.
    if (typeof err === 'string' || NATS_UNAVAILABLE.has((err as { code?: string } | null)?.code ?? '')) {
      return new BusTimeoutError(subject, timeoutMs, 'unavailable');
    }
    if ((err as { code?: string } | null)?.code === 'BAD_JSON') {
      return new BusPayloadError(subject, (err as { chainedError?: unknown }).chainedError ?? err);
    }
    if (err instanceof EmptyError) {
      this.logger.error(`handler for "${subject}" completed without a reply`);
      return new BusReplyError(subject, 500, 'Internal Server Error');
    }
    // An error packet that isn't error-as-data: the handler class lacks @BusController()/BusErrorFilter.
    if (!(err instanceof Error)) {
      this.logger.error(
        `handler for "${subject}" replied with a raw RPC error (missing BusErrorFilter?): ${JSON.stringify(err)}`,
      );
      return new BusReplyError(subject, 500, 'Internal Server Error');
    }
    return err;
  }
}
