import { EventEmitter } from 'node:events';
import {
  BaseRpcContext,
  ClientProxy,
  CustomTransportStrategy,
  MessageHandler,
  IncomingRequest,
  ReadPacket,
  Server,
  WritePacket,
} from '@nestjs/microservices';
import type { Deserializer, Serializer } from '@nestjs/microservices';
import { NO_MESSAGE_HANDLER } from '@nestjs/microservices/constants';
import { EmptyResponseException } from '@nestjs/microservices/errors/empty-response.exception';
import { BusPayloadError, encodeReply } from './wire';

/**
 * The in-process bus of the standalone mode. It mirrors Nest's NATS transport (ServerNats /
 * ClientNats) step for step so that code which works standalone also works in cluster mode:
 * packets cross as JSON text, delivery is asynchronous, queue groups get one copy per group,
 * a request nobody subscribes to fails at once with the same EmptyResponseException.
 */
export const IN_PROCESS_TRANSPORT = Symbol('IN_PROCESS_TRANSPORT');

export type WireHeaders = Record<string, string>;

/** What a handler's `@Ctx()` receives in-process; `busHeaders(ctx)` reads it like a NatsContext. */
export class InProcessContext extends BaseRpcContext<[string, WireHeaders]> {
  getSubject(): string {
    return this.args[0];
  }
  getHeaders(): WireHeaders {
    return this.args[1];
  }
}

/** The in-process counterpart of Nest's NatsRecord: a payload plus headers. */
export class InProcessRecord<T = unknown> {
  constructor(
    readonly data: T,
    readonly headers: WireHeaders = {},
  ) {}
}

interface Delivery {
  subject: string;
  body: string;
  headers: WireHeaders;
  reply?: (body: string) => void;
}

interface Subscriber {
  server: InProcessServer;
  /** Undefined or '' = no queue group (fan-out), as nats.js treats it. */
  queue: string | undefined;
}

/** The process-wide broker: subscribers by exact subject (no NATS wildcards). */
class InProcessBroker {
  private readonly subjects = new Map<string, Subscriber[]>();
  private readonly turns = new Map<string, number>();

  subscribe(subject: string, subscriber: Subscriber): void {
    this.subjects.set(subject, [...(this.subjects.get(subject) ?? []), subscriber]);
  }

  unsubscribeAll(server: InProcessServer): void {
    for (const [subject, subscribers] of this.subjects) {
      const rest = subscribers.filter((s) => s.server !== server);
      if (rest.length > 0) this.subjects.set(subject, rest);
      else this.subjects.delete(subject);
    }
  }

  /** Delivers a copy to every ungrouped subscriber and to one member of each queue group; returns how many. */
  publish(delivery: Delivery): number {
    const targets = this.targets(delivery.subject);
    for (const { server } of targets) {
      // Asynchronous like a network hop: the publisher never runs the handler on its own stack.
      queueMicrotask(() => void server.deliver(delivery));
    }
    return targets.length;
  }

  private targets(subject: string): Subscriber[] {
    const out: Subscriber[] = [];
    const groups = new Map<string, Subscriber[]>();
    for (const s of this.subjects.get(subject) ?? []) {
      if (s.queue) groups.set(s.queue, [...(groups.get(s.queue) ?? []), s]);
      else out.push(s);
    }
    for (const [queue, members] of groups) {
      // Round robin (NATS picks at random; deterministic is kinder to tests and equally fair).
      const key = `${subject}\u0000${queue}`;
      const turn = this.turns.get(key) ?? 0;
      this.turns.set(key, turn + 1);
      out.push(members[turn % members.length]);
    }
    return out;
  }
}

const broker = new InProcessBroker();

export interface InProcessServerOptions {
  /** Queue group of every handler (a handler's `extras.queue` overrides it; '' = fan-out). */
  queue?: string;
  serializer?: Serializer;
  deserializer?: Deserializer;
}

export class InProcessServer extends Server implements CustomTransportStrategy {
  private readonly statusEvents = new EventEmitter();
  private listening = false;

  constructor(private readonly options: InProcessServerOptions = {}) {
    super();
    this.transportId = IN_PROCESS_TRANSPORT;
    this.initializeSerializer(options);
    this.initializeDeserializer(options);
  }

  listen(callback: (...optionalParams: unknown[]) => unknown): void {
    // Nest registers every handler (addHandler) before listen, like ServerNats.bindEvents expects.
    for (const [pattern, handler] of this.messageHandlers) {
      broker.subscribe(pattern, { server: this, queue: handler.extras?.queue ?? this.options.queue });
    }
    this.listening = true;
    this._status$.next('connected');
    callback();
  }

  close(): void {
    broker.unsubscribeAll(this);
    this.listening = false;
    this._status$.next('disconnected');
    this.statusEvents.removeAllListeners();
  }

  // eslint-disable-next-line @typescript-eslint/no-unsafe-function-type -- Nest's Server.on takes any Function
  on(event: string, callback: Function): void {
    this.statusEvents.on(event, callback as (...args: unknown[]) => void);
  }

  unwrap<T>(): T {
    if (!this.listening)
      throw new Error('Not initialized. Please call the "listen"/"startAllMicroservices" method first.');
    return broker as T;
  }

  /**
   * Subjects are plain strings and handlers are registered under them as they are: a direct
   * lookup. Nest's own first tries JSON.parse on the subject, which throws (slowly) every time.
   */
  override getHandlerByPattern(pattern: string): MessageHandler | null {
    return this.messageHandlers.get(pattern) ?? super.getHandlerByPattern(pattern);
  }

  /** The broker's entry point; the same steps as ServerNats.handleMessage. */
  async deliver({ subject, body, headers, reply }: Delivery): Promise<void> {
    try {
      const ctx = new InProcessContext([subject, { ...headers }]);
      const packet = await this.deserializer.deserialize(JSON.parse(body), { channel: subject });
      const { id } = packet as Partial<IncomingRequest>;
      if (id === undefined || !reply) return await this.handleEvent(subject, packet, ctx);
      const respond = this.responder(id, ctx, reply);
      const handler = this.getHandlerByPattern(subject);
      if (!handler) return respond({ status: 'error', err: NO_MESSAGE_HANDLER } as WritePacket);
      await this.onProcessingStartHook(this.transportId!, ctx, async () => {
        const response$ = this.transformToObservable(await handler(packet.data, ctx));
        if (response$) this.send(response$, respond);
      });
    } catch (err) {
      // Never let a delivery reject: there is no one to catch it (it would be an unhandled rejection).
      this.logger.error(`in-process delivery on "${subject}" failed`, err instanceof Error ? err.stack : String(err));
    }
  }

  private responder(id: string, ctx: InProcessContext, reply: (body: string) => void) {
    return (response: WritePacket): void => {
      this.onProcessingEndHook?.(this.transportId!, ctx);
      reply(encodeReply({ ...response, id }, (packet) => JSON.stringify(this.serializer.serialize(packet))));
    };
  }
}

export interface InProcessClientOptions {
  serializer?: Serializer;
  deserializer?: Deserializer;
}

export class InProcessClient extends ClientProxy {
  private readonly statusEvents = new EventEmitter();

  constructor(options: InProcessClientOptions = {}) {
    super();
    this.initializeSerializer(options);
    this.initializeDeserializer(options);
  }

  async connect(): Promise<void> {
    this._status$.next('connected');
  }

  async close(): Promise<void> {
    this._status$.next('disconnected');
    this.statusEvents.removeAllListeners();
  }

  override on(event: string, callback: (...args: unknown[]) => void): void {
    this.statusEvents.on(event, callback);
  }

  unwrap<T>(): T {
    return broker as T;
  }

  /** Same steps as ClientNats.publish + createSubscriptionHandler. */
  protected publish(partialPacket: ReadPacket, callback: (packet: WritePacket) => void): () => void {
    let open = true;
    try {
      const packet = this.assignPacketId(partialPacket);
      const subject = this.normalizePattern(packet.pattern);
      const reply = async (raw: string): Promise<void> => {
        if (!open) return; // the caller unsubscribed (timeout, first reply taken)
        const message = await this.deserializer.deserialize(JSON.parse(raw));
        if (message.id && message.id !== packet.id) return;
        const { err, response, isDisposed } = message;
        callback(isDisposed || err ? { err, response, isDisposed: true } : { err, response });
      };
      if (broker.publish({ subject, ...this.encode(packet), reply }) === 0) {
        // NATS answers "no responders" at once; do the same rather than let the caller wait out its timeout.
        queueMicrotask(() => open && callback({ err: new EmptyResponseException(subject), isDisposed: true }));
      }
    } catch (err) {
      callback({ err });
    }
    return () => {
      open = false;
    };
  }

  protected async dispatchEvent<T = unknown>(packet: ReadPacket): Promise<T> {
    broker.publish({ subject: this.normalizePattern(packet.pattern), ...this.encode(packet) });
    return undefined as T;
  }

  /** JSON text on the wire, as ClientNats sends it, so standalone rejects (bigint) or converts (Date) what cluster would. */
  private encode(packet: ReadPacket): { body: string; headers: WireHeaders } {
    const record = packet.data instanceof InProcessRecord ? packet.data : new InProcessRecord(packet.data);
    try {
      const body = JSON.stringify(this.serializer.serialize({ ...packet, data: record.data }));
      return { body, headers: { ...record.headers } };
    } catch (err) {
      throw new BusPayloadError(this.normalizePattern(packet.pattern), err);
    }
  }
}
