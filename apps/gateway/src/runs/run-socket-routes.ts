import type { RunKind } from '@app/domain';
import type { HttpRunKind } from './run-kind-routes';

/** A WebSocket route: its path pattern (one capture: the run id) and the run kind it streams. */
export interface RunSocketRoute {
  pattern: RegExp;
  kind: RunKind;
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The WebSocket path of each kind that declares one (beside its SSE `/events`): `:param` captures the run id. */
export const runSocketRoutes = (registrations: readonly HttpRunKind[]): RunSocketRoute[] =>
  registrations.flatMap(({ kind, routes }) => {
    const path = routes.socket;
    if (!path) return [];
    const pattern = new RegExp(`^/${escape(path).replace(`:${routes.param}`, '([^/]+)')}$`);
    return [{ pattern, kind }];
  });
