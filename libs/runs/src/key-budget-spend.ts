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

/** What a key may still spend in the period `at` falls in, with its budget; undefined: it has no budget. */
export async function keyRoom(
  store: EventStore,
  teamId: string,
  keyId: string,
  at: string,
): Promise<{ room: number; spent: number; budget: KeyBudget } | undefined> {
  const budget = await keyBudgetOf(store, teamId, keyId);
  if (!budget) return undefined;
  const stream = keyBudgetStream(teamId, budget.budget_id, budgetPeriod(budget.per, at).id);
  const { spent } = (await aggregateStream(store, stream, keyBudgetDecider)).state;
  return { room: budget.max_credits - spent, spent, budget };
}

/**
 * handleCommand's `beforeAppend` for a stream that charges as it goes (a run's, a monitor's): the
 * credits of what was decided are counted against its key's budget before they are appended, as
 * charge `<id>-<revision they go to>` (a retry counts once; an append that fails gives them back).
 * A step the key cannot pay for throws PaymentRequired and appends nothing.
 */
export const chargesWithinKeyBudget =
  (store: EventStore, owner: { id: string; team_id: string; key_id: string }, now: () => string) =>
  async (
    decided: readonly { type: string; data: unknown }[],
    _state: unknown,
    expected: bigint | undefined,
  ): Promise<(() => Promise<void>) | undefined> => {
    const credits = decided
      .filter((event) => event.type === 'CreditsCharged')
      .reduce((sum, event) => sum + (event.data as { credits: number }).credits, 0);
    if (credits === 0) return undefined;
    const budget = await keyBudgetOf(store, owner.team_id, owner.key_id);
    if (!budget) return undefined;
    const charge_id = `${owner.id}-${String((expected ?? -1n) + 1n)}`;
    const { team_id, key_id } = owner;
    const spent = await spendKeyBudget(
      store,
      { team_id, key_id, request_id: owner.id, charge_id, budget },
      credits,
      now(),
    );
    return spent?.release;
  };
