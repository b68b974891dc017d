import { Logger } from '@nestjs/common';
import { WritePacket } from '@nestjs/microservices';
import { NatsRecordSerializer } from '@nestjs/microservices/serializers/nats-record.serializer';

/** Errors cross the bus as data (DESIGN.md): a reply of this shape is a refusal, never a thrown class. */
export interface BusErrorBody {
  status: number;
  detail: string;
}
export interface BusErrorReply {
  error: BusErrorBody;
}

export const INTERNAL_ERROR: BusErrorReply = { error: { status: 500, detail: 'Internal Server Error' } };

export function isBusErrorReply(value: unknown): value is BusErrorReply {
  const error = (value as { error?: Partial<BusErrorBody> } | null)?.error;
  return (
    typeof error === 'object' && error !== null && Number.isInteger(error.status) && typeof error.detail === 'string'
  );
}

/**
 * The payload can't go on the wire (a bigint, a cycle). Thrown by request()/emit() on both transports
 * (ClientNats reports it as NatsError "Bad JSON", JSON.stringify as a TypeError; callers see one class).
 */
export class BusPayloadError extends TypeError {
  constructor(
    readonly subject: string,
    cause: unknown,
  ) {
    super(
      `bus payload for "${subject}" is not JSON-serializable: ${cause instanceof Error ? cause.message : String(cause)}`,
      { cause },
    );
    this.name = 'BusPayloadError';
  }
}

const logger = new Logger('Bus');

/**
 * Encodes a reply packet; one the wire can't carry (a bigint, a cycle) becomes INTERNAL_ERROR instead.
 * Nest's responders serialize on process.nextTick, so a throw there would be an unhandled rejection
 * (a crashed service) and the caller would only see a timeout.
 */
export function encodeReply<T>(
  packet: WritePacket & { id: string },
  encode: (packet: WritePacket & { id: string }) => T,
): T {
  try {
    return encode(packet);
  } catch (err) {
    logger.error(
      `reply is not JSON-serializable, sent a 500 instead: ${err instanceof Error ? err.message : String(err)}`,
    );
    return encode({ id: packet.id, response: INTERNAL_ERROR, isDisposed: packet.isDisposed });
  }
}

/** The NATS server-side serializer with the same guard as the in-process server. */
export class SafeNatsRecordSerializer extends NatsRecordSerializer {
  override serialize(packet: WritePacket & { id: string }): ReturnType<NatsRecordSerializer['serialize']> {
    return encodeReply(packet, (p) => super.serialize(p));
  }
}
