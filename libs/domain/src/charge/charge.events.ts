import type { DomainEvent } from '../decider';
import { type Static, Type } from '../schema';

/** One priced line of a charge: a SKU, how many, and the credits they cost. */
export const SkuLineItemSchema = Type.Object(
  { sku: Type.String(), quantity: Type.Number(), credits: Type.Number() },
  { $id: 'SkuLineItem' },
);
export type SkuLineItem = Static<typeof SkuLineItemSchema>;

/**
 * The only event of a `charge-<team>-<charge id>` stream: one service call charged once. The
 * charge id is made by the gateway for each call (a client-chosen X-Request-Id could repeat);
 * `request_id` is the X-Request-Id, by which a team looks its charges up.
 */
export type CreditsCharged = DomainEvent<
  'CreditsCharged',
  { team_id: string; request_id: string; items: SkuLineItem[]; credits: number; at: string }
>;

export type ChargeEvent = CreditsCharged;

export const chargeStream = (teamId: string, chargeId: string): string => `charge-${teamId}-${chargeId}`;
