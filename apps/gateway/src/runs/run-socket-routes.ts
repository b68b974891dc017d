import type { RunKind } from '@app/domain';

/** A WebSocket route: its path pattern (one capture: the run id) and the run kind it streams. */
export interface RunSocketRoute {
  pattern: RegExp;
  kind: RunKind;
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The WebSocket path of each kind that declares one (beside its SSE `/events`): `:param` captures the run id. */
export const runSocketRoutes = (kinds: readonly RunKind[]): RunSocketRoute[] =>
  kinds.flatMap((kind) => {
    const path = kind.routes.socket;
    if (!path) return [];
    const pattern = new RegExp(`^/${escape(path).replace(`:${kind.routes.param}`, '([^/]+)')}$`);
    return [{ pattern, kind }];
  });
