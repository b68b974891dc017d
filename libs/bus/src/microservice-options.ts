import { type MessageHandler, type MicroserviceOptions, type NatsOptions, ServerNats } from '@nestjs/microservices';
import { NATS_CONNECTION_DEFAULTS } from './bus-client';
import { InProcessServer } from './inprocess.transport';
import { SafeNatsRecordSerializer } from './wire';

/** The part of Config (libs/config) the bus needs; structural so tests can pass a literal. */
export interface BusTransportConfig {
  bus: 'inprocess' | 'nats';
  natsUrl: string;
}

/**
 * Nest's NATS server with handlers found by their subject directly: subjects are plain strings,
 * registered as they are, and Nest's own lookup first tries JSON.parse on each message's subject,
 * which throws every time (InProcessServer does the same).
 */
export class NatsServer extends ServerNats {
  override getHandlerByPattern(pattern: string): MessageHandler | null {
    return this.messageHandlers.get(pattern) ?? super.getHandlerByPattern(pattern);
  }
}

/**
 * What a service's main.ts passes to NestFactory.createMicroservice / app.connectMicroservice:
 * NATS with queue group = service name (replicas share the work), or the in-process strategy
 * with the same queue semantics. For a fan-out listener use `@EventPattern(subject, { queue: FAN_OUT })`.
 */
export function microserviceOptions(config: BusTransportConfig, serviceName: string): MicroserviceOptions {
  if (config.bus === 'nats') {
    const options: NatsOptions['options'] = {
      servers: config.natsUrl,
      queue: serviceName,
      name: serviceName,
      serializer: new SafeNatsRecordSerializer(),
      ...NATS_CONNECTION_DEFAULTS,
    };
    return { strategy: new NatsServer(options) };
  }
  return { strategy: new InProcessServer({ queue: serviceName }) };
}

/** Handler extras that opt out of the service's queue group: every instance gets every event. */
export const FAN_OUT = { queue: '' } as const;
