import { fold } from '../decider';
import {
  budgetPeriod,
  describeBudget,
  keyBudgetDecider,
  keyBudgetProblem,
  keyBudgetStream,
  PaymentRequired,
  RECENT_CHARGES,
  type KeyBudgetEvent,
} from './key-budget';

const now = '2026-11-29T13:45:00.000Z';
const ctx = { now, newId: () => 'id' };
const budget = { max_credits: 10, per: 'day' as const };
const spend = (charge_id: string, credits: number) => ({ type: 'Spend' as const, charge_id, credits, budget });
const run = (events: KeyBudgetEvent[]) => fold(keyBudgetDecider, events);

describe('key budget periods', () => {
  it('starts a day at UTC midnight, a month on its first, and never resets a total', () => {
    expect(budgetPeriod('day', now)).toEqual({ id: 'day-2026-11-29', resets_at: '2026-11-30T00:00:00.000Z' });
    expect(budgetPeriod('month', now)).toEqual({ id: 'month-2026-11', resets_at: '2026-12-01T00:00:00.000Z' });
    expect(budgetPeriod('month', '2026-12-31T23:59:59.999Z')).toEqual({
      id: 'month-2026-12',
      resets_at: '2027-01-01T00:00:00.000Z',
    });
    expect(budgetPeriod('total', now)).toEqual({ id: 'total', resets_at: null });
    expect(keyBudgetStream('acme', 'K1', 'day-2026-11-29')).toBe('budget-acme-K1-day-2026-11-29');
  });

  it('bounds a budget and names what is wrong', () => {
    expect(keyBudgetProblem(50, 'day')).toBeNull();
    expect(keyBudgetProblem(-1, 'day')).toMatch(/max credits must be a whole number/);
    expect(keyBudgetProblem(1.5, 'day')).toMatch(/max credits/);
    expect(keyBudgetProblem(50, 'week')).toBe('per must be one of day, month, total');
  });
});

describe('keyBudgetDecider', () => {
  it('counts charges up to the budget and refuses the one that would pass it, naming budget, spent and reset', () => {
    const events = keyBudgetDecider.decide(spend('c1', 7), keyBudgetDecider.initialState, ctx);
    expect(events).toEqual([{ type: 'BudgetSpent', data: { charge_id: 'c1', credits: 7, at: now } }]);
    const state = run(events);
    expect(state.spent).toBe(7);
    expect(() => keyBudgetDecider.decide(spend('c2', 4), state, ctx)).toThrow(PaymentRequired);
    expect(() => keyBudgetDecider.decide(spend('c2', 4), state, ctx)).toThrow(
      "this key's budget of 10 credits per day has 3 left: 7 spent; it resets at 2026-11-30T00:00:00.000Z; this call costs 4 credits",
    );
    expect(keyBudgetDecider.decide(spend('c2', 3), state, ctx)).toHaveLength(1);
  });

  it('counts a charge delivered twice once, and gives back a released one', () => {
    const state = run([{ type: 'BudgetSpent', data: { charge_id: 'c1', credits: 4, at: now } }]);
    expect(keyBudgetDecider.decide(spend('c1', 4), state, ctx)).toEqual([]);
    const released = keyBudgetDecider.decide({ type: 'Release', charge_id: 'c1' }, state, ctx);
    expect(released).toEqual([{ type: 'BudgetReleased', data: { charge_id: 'c1', credits: 4, at: now } }]);
    const after = [...released].reduce(keyBudgetDecider.evolve, state);
    expect(after.spent).toBe(0);
    // released once: a second release gives nothing back
    expect(keyBudgetDecider.decide({ type: 'Release', charge_id: 'c1' }, after, ctx)).toEqual([]);
    expect(keyBudgetDecider.decide({ type: 'Release', charge_id: 'unknown' }, after, ctx)).toEqual([]);
  });

  it('remembers only the latest charges (bounded state) and keeps the sum of all', () => {
    const events: KeyBudgetEvent[] = Array.from({ length: RECENT_CHARGES + 10 }, (_, i) => ({
      type: 'BudgetSpent',
      data: { charge_id: `c${i}`, credits: 1, at: now },
    }));
    const state = run(events);
    expect(state.spent).toBe(RECENT_CHARGES + 10);
    expect(state.recent.size).toBe(RECENT_CHARGES);
    expect(state.recent.has('c0')).toBe(false);
    expect(state.recent.has(`c${RECENT_CHARGES + 9}`)).toBe(true);
  });

  it('says a total budget does not reset', () => {
    expect(describeBudget({ max_credits: 5, per: 'total' }, 5, now)).toBe(
      "this key's budget of 5 credits in total has 0 left: 5 spent; it does not reset (a total budget lasts the life of the key)",
    );
  });
});

describe('keyBudgetDecider, a charge released then tried again', () => {
  it('counts it again (its first append failed, so it was never charged)', () => {
    const state = run([
      { type: 'BudgetSpent', data: { charge_id: 'c1', credits: 4, at: now } },
      { type: 'BudgetReleased', data: { charge_id: 'c1', credits: 4, at: now } },
    ]);
    expect(state.spent).toBe(0);
    const again = keyBudgetDecider.decide(spend('c1', 4), state, ctx);
    expect(again).toHaveLength(1);
    expect(again.reduce(keyBudgetDecider.evolve, state).spent).toBe(4);
  });
});
