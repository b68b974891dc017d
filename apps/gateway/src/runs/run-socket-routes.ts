import { findAllRuns } from '@app/domain/findall';
import { searchRuns } from '@app/domain/search-run';
import { taskRuns } from '@app/domain/task-run';
import type { RunSocketRoute } from '../streams/run-sockets';

/** The WebSocket path of each run kind (beside its SSE `/events`). */
export const RUN_SOCKET_ROUTES: readonly RunSocketRoute[] = [
  { pattern: /^\/v1\/searches\/([^/]+)\/ws$/, kind: searchRuns },
  { pattern: /^\/v1\/tasks\/runs\/([^/]+)\/ws$/, kind: taskRuns },
  { pattern: /^\/v1\/findall\/runs\/([^/]+)\/ws$/, kind: findAllRuns },
];
