import type { SkuLineItem } from '../charge/charge.events';
import { lineItem, type Sku } from '../pricing';
import type { ExistingRun, RunTermination } from './run.events';

/** The largest `max_credits` a run takes (a bound on input, far above any run's cost). */
export const MAX_RUN_CREDITS = 1_000_000;

/**
 * A completion charge cut to the credits left in the run's budget: whole line items in order while
 * they fit, then as much of the next as fits (by units, never a credit past `room`). `cut` says
 * something was left out. A run that stops on its budget (its executor did only what it could
 * pay for) is charged exactly its budget where its work cost more.
 */
export function chargeWithin(items: readonly SkuLineItem[], room: number): { items: SkuLineItem[]; cut: boolean } {
  const total = items.reduce((sum, item) => sum + item.credits, 0);
  if (total <= room) return { items: [...items], cut: false };
  const kept: SkuLineItem[] = [];
  let left = Math.max(0, room);
  for (const item of items) {
    if (left <= 0) break;
    if (item.credits <= left) {
      kept.push(item);
      left -= item.credits;
      continue;
    }
    // As many units of this SKU as fit (a SKU priced per ten units charges by the ten).
    for (let quantity = item.quantity - 1; quantity > 0; quantity--) {
      const part = lineItem(item.sku as Sku, quantity);
      if (part.credits <= left) {
        kept.push(part);
        break;
      }
    }
    break;
  }
  return { items: kept, cut: true };
}

/** Why a completed run stopped before its work was done, for its view (null: it was not stopped). */
export const terminationOf = <Params, Progress>(state: ExistingRun<Params, Progress>): RunTermination | null =>
  state.status === 'completed' ? (state.termination_reason ?? null) : null;
