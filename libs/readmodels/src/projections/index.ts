import { RUN_KINDS, type RunKind } from '@app/domain';
import type { Projection } from '../projection';
import { runProjections } from './runs.projection';
import { apiKeysProjection } from './api-keys.projection';
import { chargesProjection } from './charges.projection';
import { monitorEventsProjection, monitorsProjection } from './monitors.projection';
import { teamsProjection } from './teams.projection';
import { usageProjection } from './usage.projection';
import { taskGroupsProjection } from './task-groups.projection';

export * from './api-keys.projection';
export * from './charges.projection';
export * from './runs.projection';
export * from './monitors.projection';
export * from './teams.projection';
export * from './usage.projection';
export * from './task-groups.projection';

/** Every projection the gateway's read side needs: the platform's own and one per run kind with a read model. */
export const platformProjections = (kinds: readonly RunKind[] = RUN_KINDS): Projection[] => [
  apiKeysProjection,
  teamsProjection,
  usageProjection,
  chargesProjection,
  ...runProjections(kinds),
  monitorsProjection,
  monitorEventsProjection,
  taskGroupsProjection,
];
