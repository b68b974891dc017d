import { budgetPeriod, type KeyBudget, keyBudgetDecider, keyBudgetStream, teamDecider, teamStream } from '@app/domain';
import { aggregateStream, type EventStore, handleCommand } from '@app/eventstore';

/** One charge against a key's budget: whose, and its id (a charge counted once whatever the retries). */
export interface BudgetCharge {
  team_id: string;
  key_id?: string;
  request_id: string;
  charge_id: string;
  budget: KeyBudget;
}

/** A key's budget as the log has it now (set, changed or removed by the keys CLI), or undefined. */
export async function keyBudgetOf(store: EventStore, teamId: string, keyId: string): Promise<KeyBudget | undefined> {
  const { state } = await aggregateStream(store, teamStream(teamId), teamDecider);
  return state.status === 'active' ? state.keys[keyId]?.budget : undefined;
}

/** Writers of one key's budget retry on contention this many times (jittered, growing pauses: ~5 s in all). */
const BUDGET_ATTEMPTS = 10;

/**
 * Counts `credits` against the context's key budget, on the log: refused with PaymentRequired (402,
 * naming the budget, what was spent and when it resets) when they would pass it. Returns how to
 * give them back should the charge itself not be appended.
 */
export async function spendKeyBudget(
  store: EventStore,
  context: BudgetCharge,
  credits: number,
  now = new Date().toISOString(),
): Promise<{ release(): Promise<void> } | undefined> {
  const budget = context.budget;
  if (credits === 0) return undefined;
  const stream = keyBudgetStream(context.team_id, budget.budget_id, budgetPeriod(budget.per, now).id);
  const metadata = {
    team_id: context.team_id,
    key_id: context.key_id,
    request_id: context.request_id,
    correlation_id: context.request_id,
  };
  await handleCommand(
    store,
    stream,
    keyBudgetDecider,
    { type: 'Spend', charge_id: context.charge_id, credits, budget },
    { metadata, maxAttempts: BUDGET_ATTEMPTS, now },
  );
  return {
    release: async () => {
      await handleCommand(
        store,
        stream,
        keyBudgetDecider,
        { type: 'Release', charge_id: context.charge_id },
        { metadata, maxAttempts: BUDGET_ATTEMPTS },
      );
    },
  };
}
