import { DomainError } from '@app/domain';
import { type RunKind, streamOf } from '@app/domain/run';
import { type EventStore, handleCommand } from '@app/eventstore';

/** Who asks: the bus headers the gateway sets on every call. */
export interface Caller {
  team_id?: string;
  key_id?: string;
  request_id?: string;
}

const metadataOf = (caller: Caller, runId: string) => ({ team_id: caller.team_id, key_id: caller.key_id, request_id: caller.request_id, correlation_id: runId });

/** Appends a run's request to its new stream; the reply's position lets the gateway read its own write. */
export async function requestRun(store: EventStore, kind: RunKind, runId: string, params: unknown, caller: Caller): Promise<{ position: string }> {
  if (!caller.team_id || !caller.key_id || !caller.request_id) throw new DomainError(422, 'a run needs team_id, key_id and request_id headers');
  const command = { type: 'RequestRun', run_id: runId, team_id: caller.team_id, key_id: caller.key_id, request_id: caller.request_id, params };
  const result = await handleCommand(store, streamOf(kind, runId), kind.decider, command, { metadata: metadataOf(caller, runId) });
  return { position: String(result.position) };
}

/** Cancels a run of the caller's team; another team's run is answered exactly like a missing one. */
export async function cancelRun(store: EventStore, kind: RunKind, runId: string, caller: Caller): Promise<{ position?: string }> {
  const stream = streamOf(kind, runId);
  const [first] = await store.readStream(stream, { maxCount: 1 });
  if (!first || (first.data as { team_id?: string }).team_id !== caller.team_id) throw new DomainError(404, `${kind.noun} ${runId} not found`);
  const result = await handleCommand(store, stream, kind.decider, { type: 'CancelRun' }, { metadata: metadataOf(caller, runId) });
  return result.position === undefined ? {} : { position: String(result.position) };
}
