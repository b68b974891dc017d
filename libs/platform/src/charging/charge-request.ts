import { chargeDecider, chargeStream, isBudgetPeriod, type KeyBudget, type SkuLineItem } from '@app/domain';
import { type EventStore, handleCommand } from '@app/eventstore';
import { spendKeyBudget } from '@app/runs';

/** Who a service call charges: from the bus headers the gateway sets on every call. */
export interface ChargeContext {
  team_id: string;
  key_id?: string;
  /** The X-Request-Id (the client's own or generated): how a team finds its charges. */
  request_id: string;
  /** Unique per service call, made by the gateway: the charge stream's id. */
  charge_id: string;
  /** The key's spending limit, when it has one: every charge is counted against it first. */
  budget?: KeyBudget;
}

/** The `key_budget` bus header: the key's budget as the gateway read it with the key. */
export const encodeKeyBudget = (budget: KeyBudget): string => JSON.stringify(budget);

export function decodeKeyBudget(header: string | undefined): KeyBudget | undefined {
  if (!header) return undefined;
  const value = JSON.parse(header) as Partial<KeyBudget>;
  if (
    !Number.isInteger(value.max_credits) ||
    !isBudgetPeriod(value.per) ||
    typeof value.budget_id !== 'string' ||
    !value.budget_id
  )
    throw new Error('bus call with a malformed key_budget header');
  return { max_credits: value.max_credits!, per: value.per, budget_id: value.budget_id };
}

export function chargeContextFrom(headers: Record<string, string | undefined>): ChargeContext {
  const { team_id, request_id, charge_id, key_id } = headers;
  if (!team_id || !request_id || !charge_id)
    throw new Error('bus call without team_id, request_id and charge_id headers');
  const budget = decodeKeyBudget(headers.key_budget);
  return { team_id, request_id, charge_id, key_id, ...(budget && { budget }) };
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
  const credits = items.reduce((sum, item) => sum + item.credits, 0);
  if (credits === 0) return undefined;
  // The key's budget first: a call it cannot pay for is refused before it is charged.
  const spent = context.budget && (await spendKeyBudget(store, { ...context, budget: context.budget }, credits));
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
  ).catch(async (error: unknown) => {
    // Not charged: the budget gives the credits back (should that fail too, it counts credits
    // never charged, which can only refuse a later call early, never let one spend past it).
    await spent?.release().catch(() => undefined);
    throw error;
  });
  return result.position === undefined ? undefined : String(result.position);
}
