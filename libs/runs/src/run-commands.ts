import { type LifecycleCommand, type RunKind, streamOf, Conflict, Invalid, NotFound } from '@app/domain';
import { type EventStore, handleCommand } from '@app/eventstore';

/** Who asks: the bus headers the gateway sets on every call. */
export interface Caller {
  team_id?: string;
  key_id?: string;
  request_id?: string;
}

const metadataOf = (caller: Caller, runId: string) => ({
  team_id: caller.team_id,
  key_id: caller.key_id,
  request_id: caller.request_id,
  correlation_id: runId,
});

/** Appends a run's request to its new stream; the reply's position lets the gateway read its own write. */
export async function requestRun(
  store: EventStore,
  kind: RunKind,
  runId: string,
  params: unknown,
  caller: Caller,
): Promise<{ position: string }> {
  if (!caller.team_id || !caller.key_id || !caller.request_id)
    throw new Invalid('a run needs team_id, key_id and request_id headers');
  const command: LifecycleCommand<unknown> = {
    type: 'RequestRun',
    run_id: runId,
    team_id: caller.team_id,
    key_id: caller.key_id,
    request_id: caller.request_id,
    params,
  };
  const stream = streamOf(kind, runId);
  const result = await handleCommand(store, stream, kind.decider, command, {
    metadata: metadataOf(caller, runId),
  });
  if (result.position !== undefined) return { position: String(result.position) };
  // Requested before (the same id again): where its request is in the log.
  const [first] = await store.readStream(stream, { maxCount: 1 });
  return { position: String(first?.position ?? -1n) };
}

/**
 * Checks that an entity's stream belongs to the caller's team (its first event names the team):
 * another team's entity is answered exactly like a missing one, a 404 naming the id.
 */
export async function assertOwned(store: EventStore, stream: string, caller: Caller, what: string): Promise<void> {
  const [first] = await store.readStream(stream, { maxCount: 1 });
  if (!first || (first.data as { team_id?: string }).team_id !== caller.team_id)
    throw new NotFound(`${what} not found`);
}

/** A command on a run of the caller's team (cancel, reopen); the reply carries the append position, if any. */
async function onOwnedRun(
  store: EventStore,
  kind: RunKind,
  runId: string,
  caller: Caller,
  command: Extract<LifecycleCommand<unknown>, { type: 'CancelRun' | 'ReopenRun' }>,
): Promise<{ position?: string }> {
  const stream = streamOf(kind, runId);
  await assertOwned(store, stream, caller, `${kind.noun} ${runId}`);
  const result = await handleCommand(store, stream, kind.decider, command, { metadata: metadataOf(caller, runId) });
  return result.position === undefined ? {} : { position: String(result.position) };
}

/** Cancels a run of the caller's team. */
export const cancelRun = (store: EventStore, kind: RunKind, runId: string, caller: Caller) =>
  onOwnedRun(store, kind, runId, caller, { type: 'CancelRun' });

/** Gives a completed run of the caller's team more work (FindAll extend and enrich). */
export const reopenRun = async (
  store: EventStore,
  kind: RunKind,
  runId: string,
  caller: Caller,
  reason: string,
  detail: Record<string, unknown>,
) => {
  if (!kind.reopenable) throw new Conflict(`a ${kind.noun} cannot be given more work`);
  return onOwnedRun(store, kind, runId, caller, { type: 'ReopenRun', reason, detail });
};
