import { Inject, Injectable } from '@nestjs/common';
import {
  budgetPeriod,
  describeBudget,
  keyBudgetDecider,
  keyBudgetStream,
  PaymentRequired,
  type KeyBudget,
} from '@app/domain';
import { aggregateStream, EVENT_STORE, type EventStore } from '@app/eventstore';

/**
 * A call that would charge, refused at once (402) when its key's budget is already spent: no work
 * is started that could not be paid for. The exact decision is where each charge is appended
 * (libs/platform's spendKeyBudget); this check reads the same stream, so it never refuses a key
 * with credits left.
 */
@Injectable()
export class KeyBudgetCheck {
  constructor(@Inject(EVENT_STORE) private readonly events: EventStore) {}

  /** What the key has spent in the current period. */
  async spent(teamId: string, budget: KeyBudget, now = new Date().toISOString()): Promise<number> {
    const stream = keyBudgetStream(teamId, budget.budget_id, budgetPeriod(budget.per, now).id);
    return (await aggregateStream(this.events, stream, keyBudgetDecider)).state.spent;
  }

  async assertRoom(auth: { team_id: string; budget?: KeyBudget }): Promise<void> {
    if (!auth.budget) return;
    const now = new Date().toISOString();
    const spent = await this.spent(auth.team_id, auth.budget, now);
    if (spent >= auth.budget.max_credits) throw new PaymentRequired(describeBudget(auth.budget, spent, now));
  }
}
