/**
 * `npm run bench:groups`: a task group of 2,000 runs (four POSTs of 500) on the fixture web
 * (local index crawled from it at boot, extractive engine), written to bench/results/groups.json.
 *
 * Standalone service, default limits (MAX_CONCURRENT_RUNS_PER_TEAM 4):
 *  - throughput: runs ended per second, from the first POST to the last run's end; the POSTs' times;
 *  - time to the first result: the first `task_run.state` on the group's event stream;
 *  - the event stream, cut after 300, 900 and 1,500 ends and resumed with Last-Event-ID: each run's
 *    end delivered exactly once;
 *  - the group's status read every 200 ms while it runs: its counts add up to its runs and what
 *    has ended never goes back (violations counted);
 *  - fairness: another team's single task run and the group's team's single run, each timed
 *    alone (p50 of 7, after a warm-up) and while the group runs (p50 of 7, one at a time): at most twice.
 * Cluster mode (`--cluster`, or BENCH_GROUPS_CLUSTER=1): the same group with two research
 * replicas, one killed with kill -9 when a fifth of the runs ended: every run one terminal event,
 * at most one charge, the group's ends recorded once each, one completion, inactive at the end.
 * Rerun: npm run bench:groups [-- --cluster]
 */
import * as path from 'node:path';
import Database from 'better-sqlite3';
import { fixtureSeeds, startFixtureWeb } from '../test/support/fixture-web';
import { type RunningService, startService } from '../test/support/service-process';
import { atLeast, atMost, percentile, report, type Row, runMain } from './bench-util';

const QUESTIONS = [
  'Where is Acme Robotics headquartered?',
  'Who founded Acme Robotics?',
  'When was Acme Robotics founded?',
  'What does Acme Robotics make?',
  'Where is the HelioGrid battery plant?',
  'What is tinyrank?',
];
/** BENCH_GROUP_RUNS (a multiple of 4) for a quicker look; the figures in the note are at 2,000. */
const RUNS = Number(process.env.BENCH_GROUP_RUNS ?? 2_000);
const PER_POST = RUNS / 4;
/** Single runs timed alone and during the group, each. */
const SAMPLES = 7;
const CUTS = [0.15, 0.45, 0.75].map((share) => Math.round(RUNS * share));

type Obj = Record<string, any>;

const call = async (svc: RunningService, key: string, method: string, route: string, body?: unknown) => {
  const response = await fetch(`${svc.baseUrl}${route}`, {
    method,
    headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  if (response.status >= 300) throw new Error(`${method} ${route}: ${response.status} ${text.slice(0, 300)}`);
  return JSON.parse(text) as Obj;
};

/** In-log times of the single runs measured while the group runs: from their request to their end event. */
const inLog: number[] = [];

/** A single task run to its end (POST /v1/tasks waits): its time in ms. */
async function single(svc: RunningService, key: string, task: string, during = false): Promise<number> {
  const started = performance.now();
  const view = await call(svc, key, 'POST', '/v1/tasks', { task, processor: 'base', wait_seconds: 300 });
  if (view.status !== 'completed' && view.status !== 'failed') throw new Error(`single run ended ${view.status}`);
  const ms = performance.now() - started;
  if (during) {
    const history = await call(svc, key, 'GET', `/v1/tasks/${view.task_id}/history`);
    const at = (events: Obj[]) => Date.parse(events[0]!.at);
    inLog.push(at(history.events.slice(-1)) - at(history.events));
  }
  return ms;
}

const p50 = (values: number[]) =>
  percentile(
    [...values].sort((a, b) => a - b),
    50,
  );

/**
 * Follows the group's event stream from `after`, until `cut` run ends came (then drops the
 * connection) or the service ends it. Calls `onEnd` with each run end's id and run id.
 */
async function follow(
  svc: RunningService,
  id: string,
  after: string | undefined,
  cut: number,
  onEnd: (eventId: string, runId: string) => void,
): Promise<{ last: string | undefined; ended: boolean }> {
  const abort = new AbortController();
  const response = await fetch(`${svc.baseUrl}/v1/tasks/groups/${id}/events`, {
    headers: { Authorization: `Bearer ${svc.demoKey}`, ...(after && { 'Last-Event-ID': after }) },
    signal: abort.signal,
  });
  if (response.status !== 200) throw new Error(`events: ${response.status}`);
  const decoder = new TextDecoder();
  let text = '';
  let last = after;
  let count = 0;
  let wasCut = false;
  try {
    reading: for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
      text += decoder.decode(chunk, { stream: true });
      let end: number;
      while ((end = text.indexOf('\n\n')) >= 0) {
        const frame = text.slice(0, end).split('\n');
        text = text.slice(end + 2);
        const field = (name: string) =>
          frame
            .find((line) => line.startsWith(`${name}:`))
            ?.slice(name.length + 1)
            .trim();
        if (field('event') !== 'task_run.state') continue;
        last = field('id')!;
        onEnd(last, (JSON.parse(field('data')!) as { run: { run_id: string } }).run.run_id);
        if (++count >= cut) {
          // Cut here (the body's iterator may throw as it closes: the cut is remembered, not returned from inside).
          wasCut = true;
          abort.abort();
          break reading;
        }
      }
    }
  } catch (error) {
    if (!abort.signal.aborted) throw error;
  }
  return { last, ended: !wasCut };
}

async function standalone(rows: Row[], notes: string[]): Promise<void> {
  const web = await startFixtureWeb();
  const svc = await startService(
    'standalone',
    {
      RATE_LIMIT_RPS: '0',
      FETCH_ALLOW_HOSTS: web.allowHosts.join(','),
      LOCAL_INDEX_SEEDS: fixtureSeeds(web),
      LOG_LEVEL: 'warn',
    },
    { responseCheck: false },
  );
  try {
    const other = (await svc.keys('create', '--team', 'bench-other')).stdout.trim();
    // Warm-up (pages fetched, models loaded), then each single run alone.
    for (const q of QUESTIONS) await single(svc, svc.demoKey, q);
    const aloneOther: number[] = [];
    const aloneSame: number[] = [];
    for (let i = 0; i < SAMPLES; i++) {
      aloneOther.push(await single(svc, other, `${QUESTIONS[0]} (alone ${i})`));
      aloneSame.push(await single(svc, svc.demoKey, `${QUESTIONS[1]} (alone ${i})`));
    }

    const group = await call(svc, svc.demoKey, 'POST', '/v1/tasks/groups', { metadata: { bench: 'groups' } });
    const id = group.taskgroup_id as string;
    const started = performance.now();
    let firstResult = 0;
    const delivered = new Map<string, number>();
    let streamed: Promise<number> = Promise.resolve(0);
    const openStream = () =>
      (streamed = (async () => {
        let last: string | undefined;
        for (let round = 0; ; round++) {
          const cut = round < CUTS.length ? CUTS[round]! - (round ? CUTS[round - 1]! : 0) : Infinity;
          const result = await follow(svc, id, last, cut, (_eventId, runId) => {
            firstResult ||= performance.now() - started;
            delivered.set(runId, (delivered.get(runId) ?? 0) + 1);
          });
          last = result.last;
          if (result.ended) return round;
        }
      })());

    const postTimes: number[] = [];
    const runIds: string[] = [];
    for (let part = 0; part < RUNS / PER_POST; part++) {
      const inputs = Array.from({ length: PER_POST }, (_, i) => ({
        input: `${QUESTIONS[(part * PER_POST + i) % QUESTIONS.length]} (row ${part * PER_POST + i})`,
        metadata: { row: String(part * PER_POST + i) },
      }));
      const t = performance.now();
      const added = await call(svc, svc.demoKey, 'POST', `/v1/tasks/groups/${id}/runs`, {
        inputs,
        default_task_spec: { processor: 'base' },
      });
      postTimes.push(performance.now() - t);
      runIds.push(...(added.run_ids as string[]));
      // The stream is open while the group holds a run not yet ended: opened once it holds some.
      if (part === 0) openStream();
    }

    // Status reads while it runs, and the single runs once the group is under way.
    let reads = 0;
    let violations = 0;
    let lastEnded = 0;
    let view = await call(svc, svc.demoKey, 'GET', `/v1/tasks/groups/${id}`);
    const during = { other: [] as number[], same: [] as number[] };
    const fairness = (async () => {
      // One at a time, as they were timed alone.
      for (let i = 0; i < SAMPLES; i++) {
        during.other.push(await single(svc, other, `${QUESTIONS[0]} (during ${i})`, true));
        during.same.push(await single(svc, svc.demoKey, `${QUESTIONS[1]} (during ${i})`, true));
      }
    })();
    let fairnessDoneWhileActive = false;
    void fairness.then(() => (fairnessDoneWhileActive = view.status.is_active));
    while (view.status.is_active) {
      await new Promise((r) => setTimeout(r, 200));
      view = await call(svc, svc.demoKey, 'GET', `/v1/tasks/groups/${id}`);
      reads++;
      const counts = view.status.task_run_status_counts;
      const sum = counts.queued + counts.running + counts.completed + counts.failed + counts.cancelled;
      const ended = counts.completed + counts.failed + counts.cancelled;
      if (sum !== view.status.num_task_runs || view.status.num_task_runs !== RUNS || ended < lastEnded) violations++;
      lastEnded = ended;
    }
    const total = performance.now() - started;
    await fairness;
    const rounds = await streamed;
    const counts = view.status.task_run_status_counts;
    const once = [...delivered.values()].filter((n) => n === 1).length;

    rows.push({
      metric: 'standalone: group throughput',
      value: RUNS / (total / 1000),
      unit: 'runs/s',
      note: `${RUNS} runs (four POSTs of ${PER_POST}) in ${(total / 1000).toFixed(1)} s, first POST to last end; ${counts.completed} completed, ${counts.failed} failed`,
    });
    rows.push({ metric: 'standalone: POST of 500 inputs p50', value: p50(postTimes), unit: 'ms' });
    rows.push({
      metric: 'standalone: time to first result',
      value: firstResult,
      unit: 'ms',
      note: 'first task_run.state',
    });
    rows.push({
      metric: 'standalone: run ends delivered exactly once',
      value: once,
      unit: 'runs',
      ...atLeast(once, RUNS),
      note: `${delivered.size} distinct of ${RUNS}; stream cut ${CUTS.length} times and resumed (${rounds + 1} connections)`,
    });
    rows.push({
      metric: 'standalone: status reads whose counts were wrong',
      value: violations,
      unit: 'reads',
      ...atMost(violations, 0),
      note: `${reads} reads every 200 ms`,
    });
    const ratio = (d: number[], a: number[]) => p50(d) / p50(a);
    rows.push({
      metric: "fairness: another team's single run, during / alone",
      value: ratio(during.other, aloneOther),
      unit: 'x',
      ...atMost(ratio(during.other, aloneOther), 2),
      note: `p50 ${p50(during.other).toFixed(0)} ms during, ${p50(aloneOther).toFixed(0)} ms alone`,
    });
    rows.push({
      metric: "fairness: the group's team's single run, during / alone",
      value: ratio(during.same, aloneSame),
      unit: 'x',
      ...atMost(ratio(during.same, aloneSame), 2),
      note: `p50 ${p50(during.same).toFixed(0)} ms during, ${p50(aloneSame).toFixed(0)} ms alone`,
    });
    rows.push({
      metric: 'fairness: single runs during the group, in the log',
      value: p50(inLog),
      unit: 'ms',
      note: 'p50 from their request event to their end event (the rest of their time is admission and the read models)',
    });
    if (!fairnessDoneWhileActive)
      notes.push('the single runs measured "during" ended after the group: the fairness rows do not hold');
  } finally {
    await svc.stop();
    await web.stop();
  }
}

async function cluster(rows: Row[]): Promise<void> {
  const web = await startFixtureWeb();
  const svc = await startService(
    'cluster',
    {
      RATE_LIMIT_RPS: '0',
      FETCH_ALLOW_HOSTS: web.allowHosts.join(','),
      LOCAL_INDEX_SEEDS: fixtureSeeds(web),
      // Info logs kept: the replicas' pids are read from their "listening" lines.
      REPLICAS: 'research=2',
    },
    { responseCheck: false },
  );
  try {
    const id = (await call(svc, svc.demoKey, 'POST', '/v1/tasks/groups', {})).taskgroup_id as string;
    const started = performance.now();
    const runIds: string[] = [];
    for (let part = 0; part < RUNS / PER_POST; part++) {
      const inputs = Array.from({ length: PER_POST }, (_, i) => ({
        input: `${QUESTIONS[(part * PER_POST + i) % QUESTIONS.length]} (row ${part * PER_POST + i})`,
      }));
      const added = await call(svc, svc.demoKey, 'POST', `/v1/tasks/groups/${id}/runs`, {
        inputs,
        default_task_spec: { processor: 'base' },
      });
      runIds.push(...(added.run_ids as string[]));
    }
    const ended = (v: Obj) => v.status.task_run_status_counts.completed + v.status.task_run_status_counts.failed;
    let view = await call(svc, svc.demoKey, 'GET', `/v1/tasks/groups/${id}`);
    while (ended(view) < RUNS / 5) {
      await new Promise((r) => setTimeout(r, 200));
      view = await call(svc, svc.demoKey, 'GET', `/v1/tasks/groups/${id}`);
    }
    const victim = svc.servicePidHistory('research')[0];
    if (victim === undefined) throw new Error('no research replica pid in the logs');
    process.kill(victim, 'SIGKILL');
    const endedAtKill = ended(view);
    while (view.status.is_active) {
      await new Promise((r) => setTimeout(r, 250));
      view = await call(svc, svc.demoKey, 'GET', `/v1/tasks/groups/${id}`);
    }
    const total = performance.now() - started;
    const db = new Database(path.join(svc.dataDir, 'events.db'), { readonly: true });
    let terminalNotOnce = 0;
    let chargedTwice = 0;
    let startedAgain = 0;
    try {
      const types = db.prepare('SELECT type FROM events WHERE stream = ?').pluck();
      for (const runId of runIds) {
        const stream = types.all(`task-${runId}`) as string[];
        if (stream.filter((t) => /(Completed|Failed|Cancelled)$/.test(t)).length !== 1) terminalNotOnce++;
        if (stream.filter((t) => t === 'CreditsCharged').length > 1) chargedTwice++;
        if (stream.filter((t) => t.endsWith('Started')).length > 1) startedAgain++;
      }
      const ends = db.prepare('SELECT type, data FROM events WHERE stream = ?').all(`groupends-${id}`) as Obj[];
      const seqs = new Set(ends.filter((e) => e.type === 'TaskGroupRunEnded').map((e) => JSON.parse(e.data).seq));
      const completions = ends.filter((e) => e.type === 'TaskGroupCompleted').length;
      rows.push({
        metric: 'cluster, research replica killed: group throughput',
        value: RUNS / (total / 1000),
        unit: 'runs/s',
        note: `${RUNS} runs in ${(total / 1000).toFixed(1)} s; killed with ${endedAtKill} ended; ${startedAgain} started again elsewhere`,
      });
      rows.push({
        metric: 'cluster: runs without exactly one end',
        value: terminalNotOnce,
        unit: 'runs',
        ...atMost(terminalNotOnce, 0),
      });
      rows.push({
        metric: 'cluster: runs charged twice',
        value: chargedTwice,
        unit: 'runs',
        ...atMost(chargedTwice, 0),
      });
      rows.push({
        metric: "cluster: run ends recorded on the group's stream",
        value: seqs.size,
        unit: 'runs',
        ...atLeast(seqs.size, RUNS),
        note: `${completions} completion(s); is_active ${view.status.is_active}`,
      });
    } finally {
      db.close();
    }
  } finally {
    await svc.stop();
    await web.stop();
  }
}

runMain(async () => {
  const rows: Row[] = [];
  const notes: string[] = [];
  await standalone(rows, notes);
  if (process.argv.includes('--cluster') || process.env.BENCH_GROUPS_CLUSTER === '1') await cluster(rows);
  report('groups', rows, { rerun: 'npm run bench:groups [-- --cluster]', notes });
  if (notes.length) process.stdout.write(`\n${notes.join('\n')}\n`);
});
