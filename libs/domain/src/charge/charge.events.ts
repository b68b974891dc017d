import type { DomainEvent } from '../decider';

export interface SkuLineItem {
  sku: string;
  quantity: number;
  credits: number;
}

/** The only event of a `charge-<team>-<request id>` stream: one request charged once. */
export type CreditsCharged = DomainEvent<
  'CreditsCharged',
  { team_id: string; request_id: string; items: SkuLineItem[]; credits: number; at: string }
>;

export type ChargeEvent = CreditsCharged;

export const chargeStream = (teamId: string, requestId: string): string => `charge-${teamId}-${requestId}`;
