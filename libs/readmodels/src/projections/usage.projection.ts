import type { CreditsCharged } from '@app/domain';
import { toDomainEvent } from '@app/eventstore';
import type { Projection } from '../projection';
import { Collection } from '../read-store.port';

/**
 * `usage_daily`: credits per team, UTC day and SKU, summed over CreditsCharged events from every
 * `charge-*` stream and run stream. An aggregate of many streams, so it is versioned by global
 * position: a replayed event is skipped per document.
 */
export const USAGE_DAILY = 'usage_daily';

export type UsageDoc = {
  team_id: string;
  date: string;
  sku: string;
  quantity: number;
  credits: number;
};

/** The `usage_daily` collection, typed. */
export const usageDaily = new Collection<UsageDoc>(USAGE_DAILY);

export const usageDocId = (team: string, date: string, sku: string): string => `${team}|${date}|${sku}`;

export const usageProjection: Projection<UsageDoc> = {
  name: 'usage_daily',
  version: 1,
  eventTypes: ['CreditsCharged'],
  collection: USAGE_DAILY,
  versionBy: 'position',
  indexes: ['team_id'],
  ids(event) {
    const { data } = toDomainEvent<CreditsCharged>(event);
    const date = data.at.slice(0, 10);
    return [...new Set(data.items.map((item) => usageDocId(data.team_id, date, item.sku)))];
  },
  apply(doc, event, id) {
    const { data } = toDomainEvent<CreditsCharged>(event);
    const sku = id.slice(id.lastIndexOf('|') + 1);
    const lines = data.items.filter((item) => item.sku === sku);
    const current = doc ?? {
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
