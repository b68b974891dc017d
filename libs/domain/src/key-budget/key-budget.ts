import { type Decider, DomainError, Invalid } from '../decider';
import type { DomainEvent } from '../decider';

/** How long a key's budget lasts before it starts again: a UTC day, a UTC month, or the key's life. */
export const BUDGET_PERIODS = ['day', 'month', 'total'] as const;
export type BudgetPeriod = (typeof BUDGET_PERIODS)[number];

/** The largest budget a key takes (a bound on input, far above any team's spend). */
export const MAX_KEY_CREDITS = 1_000_000_000;

/**
 * A key's spending limit. `budget_id` names what it counts against: the key's own id, kept by the
 * keys a rotation makes, so rotating a key does not reset what it has spent.
 */
export interface KeyBudget {
  max_credits: number;
  per: BudgetPeriod;
  budget_id: string;
}

export const isBudgetPeriod = (value: unknown): value is BudgetPeriod =>
  typeof value === 'string' && (BUDGET_PERIODS as readonly string[]).includes(value);

/** The budget's bounds, else why not (the caller names the flag or field). */
export function keyBudgetProblem(maxCredits: unknown, per: unknown): string | null {
  if (!Number.isInteger(maxCredits) || (maxCredits as number) < 0 || (maxCredits as number) > MAX_KEY_CREDITS)
    return `max credits must be a whole number from 0 to ${MAX_KEY_CREDITS.toLocaleString('en-US')}`;
  if (!isBudgetPeriod(per)) return `per must be one of ${BUDGET_PERIODS.join(', ')}`;
  return null;
}

/** The period `at` falls in: its id (part of the stream name) and when the next one starts (null: never). */
export function budgetPeriod(per: BudgetPeriod, at: string | Date): { id: string; resets_at: string | null } {
  const date = typeof at === 'string' ? new Date(at) : at;
  const [y, m, d] = [date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate()];
  const pad = (n: number) => String(n).padStart(2, '0');
  switch (per) {
    case 'day':
      return { id: `day-${y}-${pad(m + 1)}-${pad(d)}`, resets_at: new Date(Date.UTC(y, m, d + 1)).toISOString() };
    case 'month':
      return { id: `month-${y}-${pad(m + 1)}`, resets_at: new Date(Date.UTC(y, m + 1, 1)).toISOString() };
    case 'total':
      return { id: 'total', resets_at: null };
  }
}

/** `budget-<team>-<budget id>-<period id>`: every charge of one key in one period, in order. */
export const keyBudgetStream = (teamId: string, budgetId: string, periodId: string): string =>
  `budget-${teamId}-${budgetId}-${periodId}`;

/** What a 402 says: the budget, what was spent, and when it resets (API.md "Budgets"). */
export function describeBudget(budget: Pick<KeyBudget, 'max_credits' | 'per'>, spent: number, at: string): string {
  const { resets_at } = budgetPeriod(budget.per, at);
  const limit =
    budget.per === 'total'
      ? `this key's budget of ${budget.max_credits} credits in total`
      : `this key's budget of ${budget.max_credits} credits per ${budget.per}`;
  const reset = resets_at
    ? `it resets at ${resets_at}`
    : 'it does not reset (a total budget lasts the life of the key)';
  return `${limit} has ${Math.max(0, budget.max_credits - spent)} left: ${spent} spent; ${reset}`;
}

/** A charge refused because it would pass its key's budget: a 402 whose detail names the budget. */
export class PaymentRequired extends DomainError {
  readonly refusal = 'payment_required' as const;
  override readonly name = 'PaymentRequired';
}

export type BudgetSpent = DomainEvent<'BudgetSpent', { charge_id: string; credits: number; at: string }>;
/** A charge whose own append failed after its credits were counted: they are given back. */
export type BudgetReleased = DomainEvent<'BudgetReleased', { charge_id: string; credits: number; at: string }>;
export type KeyBudgetEvent = BudgetSpent | BudgetReleased;

/** How many recent charge ids a budget remembers, so a charge delivered twice is counted once. */
export const RECENT_CHARGES = 256;

export interface KeyBudgetState {
  spent: number;
  /** Charge id -> credits still counted (0: released), of the latest RECENT_CHARGES charges (oldest first). */
  recent: Map<string, number>;
}

export type KeyBudgetCommand =
  | { type: 'Spend'; charge_id: string; credits: number; budget: Pick<KeyBudget, 'max_credits' | 'per'> }
  | { type: 'Release'; charge_id: string };

/**
 * One key's budget in one period, decided on the log: each charge is appended here with the
 * stream's expected revision before it is charged, so two replicas never both spend the last
 * credits (the second is refused or decides again on the stream as it then stands).
 */
export const keyBudgetDecider: Decider<KeyBudgetCommand, KeyBudgetEvent, KeyBudgetState> = {
  initialState: { spent: 0, recent: new Map() },
  decide(command, state, { now }) {
    if (command.type === 'Release') {
      const credits = state.recent.get(command.charge_id);
      return credits ? [{ type: 'BudgetReleased', data: { charge_id: command.charge_id, credits, at: now } }] : [];
    }
    if (!Number.isInteger(command.credits) || command.credits < 0)
      throw new Invalid(`credits must be a whole number of at least 0, got ${command.credits}`);
    // Counted already (a call delivered twice); one released (its charge was not appended) counts again.
    if ((state.recent.get(command.charge_id) ?? 0) > 0 || command.credits === 0) return [];
    if (state.spent + command.credits > command.budget.max_credits)
      throw new PaymentRequired(
        `${describeBudget(command.budget, state.spent, now)}; this call costs ${command.credits} credits`,
      );
    return [{ type: 'BudgetSpent', data: { charge_id: command.charge_id, credits: command.credits, at: now } }];
  },
  evolve(state, event) {
    const recent = new Map(state.recent);
    if (event.type === 'BudgetSpent') {
      recent.delete(event.data.charge_id); // counted again after a release: it is the latest now
      recent.set(event.data.charge_id, event.data.credits);
      if (recent.size > RECENT_CHARGES) recent.delete(recent.keys().next().value as string);
      return { spent: state.spent + event.data.credits, recent };
    }
    if (!recent.get(event.data.charge_id)) return state;
    recent.set(event.data.charge_id, 0);
    return { spent: state.spent - event.data.credits, recent };
  },
};
