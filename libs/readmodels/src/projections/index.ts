import { apiKeysProjection } from './api-keys.projection';
import { chargesProjection } from './charges.projection';
import { searchRunsProjection } from './search-runs.projection';
import { taskRunsProjection } from './task-runs.projection';
import { findAllRunsProjection } from './findall-runs.projection';
import { monitorEventsProjection, monitorsProjection } from './monitors.projection';
import { teamsProjection } from './teams.projection';
import { usageProjection } from './usage.projection';

export * from './api-keys.projection';
export * from './charges.projection';
export * from './runs.projection';
export * from './search-runs.projection';
export * from './task-runs.projection';
export * from './findall-runs.projection';
export * from './monitors.projection';
export * from './teams.projection';
export * from './usage.projection';

/** Every projection the gateway's read side needs. */
export const platformProjections = [apiKeysProjection, teamsProjection, usageProjection, chargesProjection, searchRunsProjection, taskRunsProjection, findAllRunsProjection, monitorsProjection, monitorEventsProjection];
