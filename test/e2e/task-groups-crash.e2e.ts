/**
 * A task group's runs request cut off by a crash: the standalone service killed (SIGKILL) while a
 * POST of 1,000 inputs is being answered, after the group took their numbers and before every run
 * was made. Restarted on the same data, the group counts 1,000 runs but fewer exist; the same POST
 * sent again with its Idempotency-Key (once the dead request's claim is abandoned) is given the
 * same numbers, finds the runs the first attempt made and makes the rest: 1,000 runs, each number
 * once, no run made twice, and the group, cancelled, ends inactive with every run ended.
 */
import * as path from 'node:path';
import Database from 'better-sqlite3';
import { bearer, type RunningService, startService } from '../support/service-process';

jest.setTimeout(240_000);

const ENV = {
  // A dead request's key is claimed again after BUS_TIMEOUT_MS + 30 s: the shortest bus timeout the config takes.
  BUS_TIMEOUT_MS: '1000',
  // One run at a time: the group's runs stay queued while the test looks at them.
  MAX_CONCURRENT_RUNS_PER_TEAM: '1',
  LOG_LEVEL: 'warn',
};
const INPUTS = 1000;

describe('task group runs request cut off by a crash', () => {
  let first: RunningService | undefined;
  let second: RunningService | undefined;
  afterAll(async () => {
    await second?.stop();
  });

  it('a retry with the same Idempotency-Key makes the missing runs and none twice', async () => {
    first = await startService('standalone', ENV);
    const key = first.demoKey;
    const call = (svc: RunningService, method: string, route: string, body?: unknown, headers = {}) =>
      fetch(`${svc.baseUrl}${route}`, {
        method,
        headers: { ...bearer(key), 'Content-Type': 'application/json', ...headers },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    const id = ((await (await call(first, 'POST', '/v1/tasks/groups', {})).json()) as { taskgroup_id: string })
      .taskgroup_id;
    const body = { inputs: Array.from({ length: INPUTS }, (_, i) => ({ input: `What is item ${i}?` })) };
    const idempotency = { 'Idempotency-Key': `crash-${id}` };

    // Killed as soon as the log holds the numbers taken and a first run (read from its SQLite file,
    // outside the service): the rest of its runs are being made then.
    const db = new Database(path.join(first.dataDir, 'events.db'), { readonly: true });
    const made = db
      .prepare("SELECT count(*) FROM events WHERE type = 'TaskRunRequested' AND instr(data, ?) > 0")
      .pluck();
    const cutOff = call(first, 'POST', `/v1/tasks/groups/${id}/runs`, body, idempotency).catch(() => undefined);
    for (let i = 0; i < 20_000 && made.get(id) === 0; i++) await new Promise((r) => setTimeout(r, 1));
    process.kill(first.pid, 'SIGKILL');
    db.close();
    expect(await cutOff).toBeUndefined();
    await first.stop();

    second = await startService('standalone', ENV, { dataDir: first.dataDir, key });
    const svc = second;
    const listRuns = async () => {
      const ids: string[] = [];
      let after: string | null = null;
      do {
        const page = (await (
          await call(svc, 'GET', `/v1/tasks/groups/${id}/runs?limit=1000${after ? `&after=${after}` : ''}`)
        ).json()) as { runs: { run_id: string }[]; next_cursor: string | null };
        ids.push(...page.runs.map((r) => r.run_id));
        after = page.next_cursor;
      } while (after);
      return ids;
    };
    const before = await listRuns();
    // The crash came between the first run and the last: some numbers have no run (else this test tests nothing).
    expect(before.length).toBeGreaterThan(0);
    expect(before.length).toBeLessThan(INPUTS);
    expect(
      ((await (await call(svc, 'GET', `/v1/tasks/groups/${id}`)).json()) as { status: { num_task_runs: number } })
        .status.num_task_runs,
    ).toBe(INPUTS);

    // The retry: 409 while the dead request's claim stands, then answered.
    let retried: Response | undefined;
    for (let i = 0; i < 120; i++) {
      retried = await call(svc, 'POST', `/v1/tasks/groups/${id}/runs`, body, idempotency);
      if (retried.status !== 409) break;
      await new Promise((r) => setTimeout(r, 1000));
    }
    expect(retried!.status).toBe(202);
    const { run_ids } = (await retried!.json()) as { run_ids: string[] };
    expect(run_ids).toHaveLength(INPUTS);
    expect(new Set(run_ids).size).toBe(INPUTS);
    // The runs made before the crash are among them: found, not made again.
    for (const runId of before) expect(run_ids).toContain(runId);
    const after = await listRuns();
    expect(after.sort()).toEqual([...run_ids].sort());

    const cancelled = await call(svc, 'POST', `/v1/tasks/groups/${id}/cancel`);
    expect(cancelled.status).toBe(200);
    let view: { status: { is_active: boolean; num_task_runs: number; task_run_status_counts: Record<string, number> } };
    for (let i = 0; ; i++) {
      view = (await (await call(svc, 'GET', `/v1/tasks/groups/${id}`)).json()) as typeof view;
      if (!view.status.is_active || i > 600) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(view.status.is_active).toBe(false);
    const counts = view.status.task_run_status_counts;
    expect(view.status.num_task_runs).toBe(INPUTS);
    expect(counts.cancelled! + counts.completed! + counts.failed!).toBe(INPUTS);
  });
});
