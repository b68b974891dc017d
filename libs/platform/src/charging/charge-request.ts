import { chargeDecider, chargeStream, type SkuLineItem } from '@app/domain';
import { type EventStore, handleCommand } from '@app/eventstore';

/** Who a service call charges: from the bus headers the gateway sets on every call. */
export interface ChargeContext {
  team_id: string;
  key_id?: string;
  /** The X-Request-Id (the client's own or generated): how a team finds its charges. */
  request_id: string;
  /** Unique per service call, made by the gateway: the charge stream's id. */
  charge_id: string;
}

export function chargeContextFrom(headers: Record<string, string | undefined>): ChargeContext {
  const { team_id, request_id, charge_id, key_id } = headers;
  if (!team_id || !request_id || !charge_id)
    throw new Error('bus call without team_id, request_id and charge_id headers');
  return { team_id, request_id, charge_id, key_id };
}

/**
 * Charges a synchronous call once: `charge-<team>-<charge id>` appended with no-stream, so a
 * redelivered call decides nothing. Line items of 0 credits are kept (they document the call);
 * a call that costs nothing appends nothing. Returns the append position for read-your-writes.
 */
export async function chargeRequest(
  store: EventStore,
  context: ChargeContext,
  items: SkuLineItem[],
): Promise<string | undefined> {
  if (items.reduce((sum, item) => sum + item.credits, 0) === 0) return undefined;
  const result = await handleCommand(
    store,
    chargeStream(context.team_id, context.charge_id),
    chargeDecider,
    { type: 'Charge', team_id: context.team_id, request_id: context.request_id, items },
    // The charge id is made once per call: the stream is new unless the call was delivered twice.
    {
      metadata: {
        team_id: context.team_id,
        key_id: context.key_id,
        request_id: context.request_id,
        correlation_id: context.request_id,
      },
      expectNew: true,
    },
  );
  return result.position === undefined ? undefined : String(result.position);
}
