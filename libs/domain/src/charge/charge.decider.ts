import { type Decider, Invalid } from '../decider';
import type { ChargeEvent, SkuLineItem } from './charge.events';

export type ChargeState = { status: 'uncharged' } | { status: 'charged'; credits: number };

export type ChargeCommand = { type: 'Charge'; team_id: string; request_id: string; items: SkuLineItem[] };

const validItem = (item: SkuLineItem): boolean =>
  /^sku_[a-z_]+$/.test(item.sku) &&
  Number.isInteger(item.quantity) &&
  item.quantity >= 0 &&
  Number.isInteger(item.credits) &&
  item.credits >= 0;

/**
 * Charging is appended with no-stream, so a retried request (same request id) decides nothing:
 * a request is never charged twice, and no team-wide stream is a hot spot.
 */
export const chargeDecider: Decider<ChargeCommand, ChargeEvent, ChargeState> = {
  initialState: { status: 'uncharged' },
  decide(command, state, { now }) {
    if (state.status === 'charged') return [];
    const bad = command.items.find((item) => !validItem(item));
    if (bad) throw new Invalid(`invalid line item ${JSON.stringify(bad)}`);
    const credits = command.items.reduce((sum, item) => sum + item.credits, 0);
    return [
      {
        type: 'CreditsCharged',
        data: { team_id: command.team_id, request_id: command.request_id, items: command.items, credits, at: now },
      },
    ];
  },
  evolve(state, event) {
    return event.type === 'CreditsCharged' && state.status === 'uncharged'
      ? { status: 'charged', credits: event.data.credits }
      : state;
  },
};
