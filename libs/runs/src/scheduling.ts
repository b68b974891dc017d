import type { RunKind } from '@app/domain';
import type { RunInfo } from './run-registry';

/** One step of a scheduling tick: confirm a dead holder's cancel, resume an abandoned run, or start a queued one. */
export type TickAction =
  { type: 'confirm-cancel'; run: RunInfo } | { type: 'resume'; run: RunInfo } | { type: 'start'; run: RunInfo };

/** What a tick decides on: the unfinished runs and this worker's situation, both clocks read once. */
export interface SchedulingInput {
  runs: readonly RunInfo[];
  /** Wall clock, epoch ms (leases are wall-clock times). */
  now: number;
  /** This process's monotonic clock (performance.now()), against `RunInfo.seen_at`. */
  monotonicNow: number;
  leaseMs: number;
  /** Streams this worker is working. */
  active: ReadonlySet<string>;
  /** Kinds this worker has executors for. */
  works: (kind: RunKind) => boolean;
  maxLocalRuns: number;
  maxConcurrentRunsPerTeam: number;
}

/**
 * The run worker's scheduling decision, a pure function of the runs it follows (DESIGN.md 3b):
 * 1. runs whose lease lapsed (by the wall clock) and whose holder has been silent for a whole
 *    lease by this process's own clock (replicas' wall clocks may disagree): a cancelled one is
 *    confirmed, any other is resumed here while this worker has room;
 * 2. queued runs in request order, runs asked for one by one before a task group's (so a group
 *    of thousands delays a single run, of its team or another, by no more than the runs already
 *    started), while this worker has room and their team holds fewer than
 *    `maxConcurrentRunsPerTeam` running runs of any kind; a team's group runs take at most all
 *    but one of its slots, and all but one of this worker's, so a single run finds one free.
 * The worker carries the actions out in order; a start another replica won changes nothing here.
 */
export function planTick(input: SchedulingInput): TickAction[] {
  const actions: TickAction[] = [];
  let taken = input.active.size;
  for (const run of input.runs) {
    if (
      run.status !== 'running' ||
      run.lease_until > input.now ||
      input.active.has(run.stream) ||
      !input.works(run.kind)
    )
      continue;
    if (input.monotonicNow - run.seen_at < input.leaseMs) continue;
    if (run.cancel_requested) actions.push({ type: 'confirm-cancel', run });
    else if (taken < input.maxLocalRuns) {
      actions.push({ type: 'resume', run });
      taken++;
    }
  }
  const runningPerTeam = new Map<string, number>();
  const groupRunsPerTeam = new Map<string, number>();
  let localGroupRuns = 0;
  for (const run of input.runs) {
    if (run.status !== 'running') continue;
    runningPerTeam.set(run.team_id, (runningPerTeam.get(run.team_id) ?? 0) + 1);
    if (!run.in_group) continue;
    groupRunsPerTeam.set(run.team_id, (groupRunsPerTeam.get(run.team_id) ?? 0) + 1);
    if (input.active.has(run.stream)) localGroupRuns++;
  }
  // A team's group runs leave one of its slots, and this worker's, to runs asked for one by one.
  const groupTeamCap = Math.max(1, input.maxConcurrentRunsPerTeam - 1);
  const groupLocalCap = Math.max(1, input.maxLocalRuns - 1);
  const queued = input.runs
    .filter((run) => run.status === 'queued' && input.works(run.kind))
    .sort(
      (a, b) =>
        Number(a.in_group ?? false) - Number(b.in_group ?? false) ||
        (a.requested_at < b.requested_at ? -1 : a.requested_at > b.requested_at ? 1 : 0),
    );
  for (const run of queued) {
    if (taken >= input.maxLocalRuns) break;
    const running = runningPerTeam.get(run.team_id) ?? 0;
    if (running >= input.maxConcurrentRunsPerTeam) continue;
    if (run.in_group) {
      const groupRuns = groupRunsPerTeam.get(run.team_id) ?? 0;
      if (groupRuns >= groupTeamCap || localGroupRuns >= groupLocalCap) continue;
      groupRunsPerTeam.set(run.team_id, groupRuns + 1);
      localGroupRuns++;
    }
    actions.push({ type: 'start', run });
    runningPerTeam.set(run.team_id, running + 1);
    taken++;
  }
  return actions;
}
