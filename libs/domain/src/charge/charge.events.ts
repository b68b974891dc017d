import type { DomainEvent } from '../decider';

export interface SkuLineItem {
  sku: string;
  quantity: number;
  credits: number;
}

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
