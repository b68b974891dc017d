/**
 * A task group in cluster mode with two research replicas, one killed with `kill -9` while the
 * group's runs work: every run ends once (one terminal event on its stream), none is charged twice,
 * each run's end is recorded once on the group's ends stream, the group completes once, and its
 * view ends `is_active: false` with counts that add up. The log is the cluster's SQLite file.
 */
import * as path from 'node:path';
import Database from 'better-sqlite3';
import { apiCall, json, useService } from './harness';

jest.setTimeout(300_000);

const QUESTIONS = [
  'Where is Acme Robotics headquartered?',
  'Who founded Acme Robotics?',
  'When was Acme Robotics founded?',
  'What does Acme Robotics make?',
];
const RUNS = 200;

describe('task groups (cluster, two research replicas, one killed)', () => {
  const ctx = useService('cluster', { REPLICAS: 'research=2' });
  const call = apiCall(ctx);

  it('every run ends once and is charged at most once; the group completes once and ends inactive', async () => {
    const id = (await json(await call('POST', '/v1/tasks/groups', {}))).taskgroup_id;
    const runIds: string[] = [];
    for (let part = 0; part < 2; part++) {
      const inputs = Array.from({ length: RUNS / 2 }, (_, i) => ({
        input: `${QUESTIONS[i % QUESTIONS.length]} (#${part * 100 + i})`,
      }));
      const added = await call('POST', `/v1/tasks/groups/${id}/runs`, {
        inputs,
        default_task_spec: { processor: 'base' },
      });
      expect(added.status).toBe(202);
      runIds.push(...(await json(added)).run_ids);
    }
    const view = async () => json(await call('GET', `/v1/tasks/groups/${id}`));
    const ended = (v: any) => v.status.task_run_status_counts.completed + v.status.task_run_status_counts.failed;

    // Midway: a fifth of the runs ended, the rest still to do.
    let current = await view();
    for (let i = 0; i < 1200 && ended(current) < RUNS / 5; i++) {
      await new Promise((r) => setTimeout(r, 100));
      current = await view();
    }
    expect(ended(current)).toBeGreaterThanOrEqual(RUNS / 5);
    expect(ended(current)).toBeLessThan(RUNS);
    const endedAtKill = ended(current);
    const victim = ctx.svc.servicePidHistory('research')[0]!;
    process.kill(victim, 'SIGKILL');

    const deadline = Date.now() + 240_000;
    while (current.status.is_active && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 250));
      current = await view();
    }
    expect(current.status).toMatchObject({ num_task_runs: RUNS, is_active: false });
    const counts = current.status.task_run_status_counts;
    expect(counts.queued + counts.running).toBe(0);
    expect(counts.completed + counts.failed + counts.cancelled).toBe(RUNS);

    const db = new Database(path.join(ctx.svc.dataDir, 'events.db'), { readonly: true });
    try {
      const types = db.prepare('SELECT type FROM events WHERE stream = ? ORDER BY revision').pluck();
      const takenOver: string[] = [];
      for (const runId of runIds) {
        const stream = types.all(`task-${runId}`) as string[];
        const terminal = stream.filter((t) => /(Completed|Failed|Cancelled)$/.test(t));
        const charges = stream.filter((t) => t === 'CreditsCharged');
        expect({ runId, terminal: terminal.length }).toEqual({ runId, terminal: 1 });
        expect(charges.length).toBeLessThanOrEqual(1);
        if (stream.filter((t) => t.endsWith('Started')).length > 1) takenOver.push(runId);
      }
      // Each run's end recorded once on the group's ends stream, and one completion.
      const ends = db.prepare('SELECT type, data FROM events WHERE stream = ?').all(`groupends-${id}`) as {
        type: string;
        data: string;
      }[];
      const seqs = ends.filter((e) => e.type === 'TaskGroupRunEnded').map((e) => JSON.parse(e.data).seq as number);
      expect(seqs.length).toBe(RUNS);
      expect(new Set(seqs).size).toBe(RUNS);
      expect(ends.filter((e) => e.type === 'TaskGroupCompleted')).toHaveLength(1);
      console.log(
        `[task-groups cluster] ${RUNS} runs, research replica ${victim} killed with ${endedAtKill} ended; ${takenOver.length} runs started again by the other replica; every run one terminal event, at most one charge`,
      );
    } finally {
      db.close();
    }
  });
});
