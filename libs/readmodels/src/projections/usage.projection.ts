import type { Projection } from '../projection';

/**
 * `usage_daily`: credits per team, UTC day and SKU, summed over CreditsCharged events from every
 * `charge-*` stream and run stream. An aggregate of many streams, so it is versioned by global
 * position: a replayed event is skipped per document.
 */
export const USAGE_DAILY = 'usage_daily';

export interface UsageDoc {
  team_id: string;
  date: string;
  sku: string;
  quantity: number;
  credits: number;
}

interface Charged {
  team_id: string;
  at: string;
  items: { sku: string; quantity: number; credits: number }[];
}

export const usageDocId = (team: string, date: string, sku: string): string => `${team}|${date}|${sku}`;

export const usageProjection: Projection = {
  name: 'usage_daily',
  version: 1,
  eventTypes: ['CreditsCharged'],
  collection: USAGE_DAILY,
  versionBy: 'position',
  indexes: ['team_id'],
  ids(event) {
    const data = event.data as unknown as Charged;
    const date = data.at.slice(0, 10);
    return [...new Set(data.items.map((item) => usageDocId(data.team_id, date, item.sku)))];
  },
  apply(doc, event, id) {
    const data = event.data as unknown as Charged;
    const sku = id.slice(id.lastIndexOf('|') + 1);
    const lines = data.items.filter((item) => item.sku === sku);
    const current = (doc as UsageDoc | undefined) ?? {
      team_id: data.team_id,
      date: data.at.slice(0, 10),
      sku,
      quantity: 0,
      credits: 0,
    };
    return {
      ...current,
      quantity: current.quantity + lines.reduce((sum, item) => sum + item.quantity, 0),
      credits: current.credits + lines.reduce((sum, item) => sum + item.credits, 0),
    };
  },
};
