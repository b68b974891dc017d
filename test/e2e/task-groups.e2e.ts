/**
 * Task groups (API.md "Task groups") on the standalone service: a group made, runs added to it
 * (a bad input is a 422 naming its index and adds nothing), every run ending once, its counts,
 * its runs paged in the order added, a cancel; its runs wait in the group, not in the team's queue
 * (more than MAX_QUEUED_RUNS_PER_TEAM of them do not stop a single run being made), and the worker
 * starts the team's single run before group runs queued earlier.
 */
import * as path from 'node:path';
import { Webhook } from 'standardwebhooks';
import type * as Client from '../../libs/client/src';
import { bearer } from '../support/service-process';
import { apiCall, json, useService } from './harness';

jest.setTimeout(240_000);

/** The built client, as a user's program loads it. */
const { WebResearch } = require(path.resolve(__dirname, '..', '..', 'dist', 'libs', 'client')) as typeof Client;

const QUESTIONS = [
  'Where is Acme Robotics headquartered?',
  'Who founded Acme Robotics?',
  'When was Acme Robotics founded?',
  'What does Acme Robotics make?',
];

describe('task groups (standalone)', () => {
  // Two runs of a team at a time: a group's runs wait long enough to be seen waiting and cancelled.
  const ctx = useService('standalone', { MAX_QUEUED_RUNS_PER_TEAM: '10', MAX_CONCURRENT_RUNS_PER_TEAM: '2' });
  const call = apiCall(ctx);
  const group = async (id: string) => json(await call('GET', `/v1/tasks/groups/${id}`));
  const untilIdle = async (id: string) => {
    for (let i = 0; i < 2400; i++) {
      const view = await group(id);
      if (!view.status.is_active) return view;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`group ${id} stayed active`);
  };
  /** The positions of a run's lifecycle events in the log, from its history. */
  const positions = async (runId: string) => {
    const history = await json(await call('GET', `/v1/tasks/${runId}/history`));
    const at = (suffix: string) => history.events.find((e: { type: string }) => e.type.endsWith(suffix))?.position;
    return { requested: BigInt(at('Requested')), started: at('Started') && BigInt(at('Started')) };
  };

  it('runs a group: a bad input adds nothing, every run ends once, counts and pages are right, a single run is not queued behind it', async () => {
    const made = await call('POST', '/v1/tasks/groups', { metadata: { batch: 'first', size: 24 } });
    expect(made.status).toBe(200);
    const created = await json(made);
    expect(created).toMatchObject({
      taskgroup_id: expect.stringMatching(/^tgrp_[0-9a-f]{32}$/),
      metadata: { batch: 'first', size: 24 },
      status: { num_task_runs: 0, is_active: false, status_message: null },
    });
    const id = created.taskgroup_id;

    const bad = await call('POST', `/v1/tasks/groups/${id}/runs`, {
      inputs: [{ input: 'fine' }, { input: 'also fine', processor: 'turbo' }, { input: '' }],
    });
    expect(bad.status).toBe(422);
    const locs = (await json(bad)).detail.map((d: { loc: unknown[] }) => d.loc);
    expect(locs).toEqual(
      expect.arrayContaining([
        ['body', 'inputs', 1, 'processor'],
        ['body', 'inputs', 2, 'input'],
      ]),
    );
    expect((await group(id)).status.num_task_runs).toBe(0);

    const inputs = Array.from({ length: 24 }, (_, i) => ({
      input: QUESTIONS[i % QUESTIONS.length],
      metadata: { row: String(i) },
    }));
    const added = await call('POST', `/v1/tasks/groups/${id}/runs`, {
      inputs,
      default_task_spec: { processor: 'base' },
    });
    expect(added.status).toBe(202);
    const { run_ids } = await json(added);
    expect(run_ids).toHaveLength(24);
    expect(new Set(run_ids).size).toBe(24);

    // 24 group runs wait, more than MAX_QUEUED_RUNS_PER_TEAM (10): a single run is still taken,
    // and started before the group runs queued ahead of it (no more than a tick's worth of them).
    const single = await call('POST', '/v1/tasks/runs', { task: QUESTIONS[0], processor: 'base' });
    expect(single.status).toBe(202);
    const singleId = (await json(single)).run_id;

    const done = await untilIdle(id);
    expect(done.status.num_task_runs).toBe(24);
    expect(done.status.task_run_status_counts).toMatchObject({ queued: 0, running: 0, cancelled: 0 });
    expect(done.status.task_run_status_counts.completed + done.status.task_run_status_counts.failed).toBe(24);

    const alone = await positions(singleId);
    let startedBetween = 0;
    for (const runId of run_ids) {
      const { started } = await positions(runId);
      if (started !== undefined && started > alone.requested && started < alone.started) startedBetween++;
    }
    // MAX_CONCURRENT_RUNS_PER_TEAM (2): at most one tick's starts that had not seen the single run yet
    expect(startedBetween).toBeLessThanOrEqual(2);

    // Paged in the order added, each run once, with its input when asked.
    const seen: { run_id: string; input: string; metadata: Record<string, string> }[] = [];
    let cursor: string | null = null;
    do {
      const query: string = `limit=15&include_input=true${cursor ? `&after=${cursor}` : ''}`;
      const page = await json(await call('GET', `/v1/tasks/groups/${id}/runs?${query}`));
      seen.push(...page.runs);
      cursor = page.next_cursor;
    } while (cursor);
    expect(seen.map((r) => r.run_id)).toEqual(run_ids);
    expect(seen.map((r) => r.input)).toEqual(inputs.map((i) => i.input));
    expect(seen.map((r) => r.metadata.row)).toEqual(inputs.map((_, i) => String(i)));
    const completed = await json(
      await call('GET', `/v1/tasks/groups/${id}/runs?status=completed&include_output=true&limit=1000`),
    );
    expect(completed.runs.length).toBe(done.status.task_run_status_counts.completed);
    for (const run of completed.runs) expect(run.output).toBeDefined();
  });

  /**
   * Reads the group's event stream until `cut` task_run.state events came (then drops it), or
   * until the service ends it: the frames read, in order.
   */
  const readEvents = async (id: string, lastEventId: string | undefined, cut: number, query = '') => {
    const abort = new AbortController();
    const response = await fetch(`${ctx.svc.baseUrl}/v1/tasks/groups/${id}/events${query}`, {
      headers: { ...bearer(ctx.svc.demoKey), ...(lastEventId && { 'Last-Event-ID': lastEventId }) },
      signal: abort.signal,
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const frames: { id?: string; event: string; data: any }[] = [];
    const decoder = new TextDecoder();
    let text = '';
    let runs = 0;
    try {
      for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
        text += decoder.decode(chunk, { stream: true });
        let end: number;
        while ((end = text.indexOf('\n\n')) >= 0) {
          const frame = text.slice(0, end);
          text = text.slice(end + 2);
          const field = (name: string) =>
            frame
              .split('\n')
              .find((line) => line.startsWith(`${name}:`))
              ?.slice(name.length + 1)
              .trim();
          const event = field('event');
          if (!event) continue; // a comment: connected, keep-alive
          frames.push({ id: field('id'), event, data: JSON.parse(field('data')!) });
          if (event === 'task_run.state' && ++runs >= cut) {
            abort.abort();
            return frames;
          }
        }
      }
    } catch (error) {
      if (!abort.signal.aborted) throw error;
    }
    return frames;
  };

  it('streams a group: cut and resumed with Last-Event-ID three times, each run end arrives once; task_group.completed is signed and sent once', async () => {
    const hook = `http://127.0.0.1:${ctx.hookPort}/hooks/task_group`;
    const id = (await json(await call('POST', '/v1/tasks/groups', { metadata: { batch: 'streamed' }, webhook: hook })))
      .taskgroup_id;
    const inputs = Array.from({ length: 30 }, (_, i) => ({ input: `${QUESTIONS[i % QUESTIONS.length]} [${i}]` }));
    const added = await call('POST', `/v1/tasks/groups/${id}/runs`, {
      inputs,
      default_task_spec: { processor: 'base' },
    });
    expect(added.status).toBe(202);
    const { run_ids } = await json(added);

    const ends: { id?: string; event: string; data: any }[] = [];
    let last: string | undefined;
    let frames: { id?: string; event: string; data: any }[] = [];
    for (let round = 0; round < 4; round++) {
      // Three cuts after 6 ends each, then read to the stream's end.
      frames = await readEvents(id, last, round < 3 ? 6 : Infinity, '?include_input=true&include_output=true');
      expect(frames[0]!.event).toBe('task_group_status');
      const runEnds = frames.filter((f) => f.event === 'task_run.state');
      ends.push(...runEnds);
      last = runEnds[runEnds.length - 1]?.id ?? last;
    }
    const ended = ends.map((f) => f.data.run.run_id);
    expect(ended.length).toBe(30);
    expect(new Set(ended)).toEqual(new Set(run_ids));
    // Ids increase across the cuts: each resumed stream went on after the last id read.
    const ids = ends.map((f) => BigInt(f.id!));
    expect(ids.every((v, i) => i === 0 || v > ids[i - 1]!)).toBe(true);
    for (const end of ends) {
      expect(['completed', 'failed']).toContain(end.data.run.status);
      expect(end.data.input).toBe(inputs[run_ids.indexOf(end.data.run.run_id)]!.input);
      if (end.data.run.status === 'completed') expect(end.data.output).toBeTruthy();
    }
    // The stream ended by itself, with the group's status last.
    expect(frames[frames.length - 1]!.event).toBe('task_group_status');

    // The completion webhook: after two refused attempts, delivered once, signed with the team's secret.
    const mine = () => ctx.hooks.filter((h) => JSON.parse(h.body).data?.taskgroup_id === id);
    const deadline = Date.now() + 30_000;
    while (!mine().some((h) => h.status < 300) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    const attempts = mine();
    expect(attempts.map((h) => h.status)).toEqual([500, 500, 204]);
    expect(new Set(attempts.map((h) => h.headers['webhook-id'])).size).toBe(1);
    const verified = new Webhook(ctx.svc.demoWebhookSecret).verify(
      attempts[2]!.body,
      attempts[2]!.headers as Record<string, string>,
    ) as { type: string; data: any };
    expect(verified.type).toBe('task_group.completed');
    expect(verified.data).toMatchObject({
      taskgroup_id: id,
      metadata: { batch: 'streamed' },
      status: { num_task_runs: 30, is_active: false, task_run_status_counts: { queued: 0, running: 0, cancelled: 0 } },
    });
    const counts = verified.data.status.task_run_status_counts;
    expect(counts.completed + counts.failed).toBe(30);
    expect(counts.completed).toBe(ends.filter((f) => f.data.run.status === 'completed').length);
  });

  it('the typed client makes a group, follows its stream to the end and pages its runs', async () => {
    const client = new WebResearch({ baseURL: ctx.svc.baseUrl, apiKey: ctx.svc.demoKey, maxRetries: 8 });
    const group = await client.taskGroups.create({ metadata: { via: 'client' } });
    const inputs = QUESTIONS.map((input) => ({ input }));
    const added = await client.taskGroups.addRuns(group.taskgroup_id, {
      inputs,
      default_task_spec: { processor: 'base' },
    });
    expect(added.run_ids).toHaveLength(QUESTIONS.length);
    const events: Client.GroupEvent[] = [];
    for await (const event of client.taskGroups.stream(group.taskgroup_id, { include_output: true }))
      events.push(event);
    const ends = events.filter((e) => e.event === 'task_run.state');
    expect(new Set(ends.map((e) => (e.data as { run: { run_id: string } }).run.run_id))).toEqual(
      new Set(added.run_ids),
    );
    const last = events[events.length - 1]!;
    expect(last).toMatchObject({
      event: 'task_group_status',
      data: { status: { is_active: false, num_task_runs: 4 } },
    });
    const runs: Client.TaskGroupRun[] = [];
    for await (const run of client.taskGroups.runs(group.taskgroup_id, { include_input: true, limit: 3 }))
      runs.push(run);
    expect(runs.map((run) => run.input)).toEqual(QUESTIONS);
    const listed = await client.taskGroups.list({ limit: 100 });
    expect(listed.items.map((g) => g.taskgroup_id)).toContain(group.taskgroup_id);
  });

  it('cancels a group: its waiting runs are cancelled, ended ones kept, and it takes no more', async () => {
    const id = (await json(await call('POST', '/v1/tasks/groups', {}))).taskgroup_id;
    const added = await call('POST', `/v1/tasks/groups/${id}/runs`, {
      // More than the two a team runs at once can finish before the cancel arrives.
      inputs: Array.from({ length: 200 }, (_, i) => ({
        input: `${QUESTIONS[i % QUESTIONS.length]} (${i})`,
        processor: 'base',
      })),
    });
    expect(added.status).toBe(202);
    // The service answers while the group's runs work (a run working from caches yields between
    // its steps): the group is seen still waiting, not after its last run.
    expect((await group(id)).status.is_active).toBe(true);
    const cancelled = await fetch(`${ctx.svc.baseUrl}/v1/tasks/groups/${id}/cancel`, {
      method: 'POST',
      headers: bearer(ctx.svc.demoKey),
    });
    expect(cancelled.status).toBe(200);
    const view = await untilIdle(id);
    expect(view).toMatchObject({ cancelled: true, status: { status_message: 'cancelled', num_task_runs: 200 } });
    const counts = view.status.task_run_status_counts;
    expect(counts.cancelled).toBeGreaterThan(0);
    expect(counts.cancelled + counts.completed + counts.failed).toBe(200);
    const more = await call('POST', `/v1/tasks/groups/${id}/runs`, { inputs: [{ input: 'one more' }] });
    expect(more.status).toBe(409);
    expect((await group(id)).status.num_task_runs).toBe(200);

    const listed = await json(await call('GET', '/v1/tasks/groups?limit=100'));
    expect(listed.items.map((g: { taskgroup_id: string }) => g.taskgroup_id)).toContain(id);
    expect(listed.total).toBeGreaterThanOrEqual(1);
  });

  it('refuses the worst inputs with the field and the bound, adds nothing, and answers after', async () => {
    const id = (await json(await call('POST', '/v1/tasks/groups', {}))).taskgroup_id;
    const refused = async (route: string, body: unknown, status: number) => {
      const response = await call('POST', route, body);
      expect(response.status).toBe(status);
      return status === 422 ? ((await json(response)).detail as { loc: unknown[] }[]).map((d) => d.loc) : [];
    };
    // One input over the 1,000 a request may add.
    expect(
      await refused(
        `/v1/tasks/groups/${id}/runs`,
        { inputs: Array.from({ length: 1_001 }, (_, i) => ({ input: `q${i}` })) },
        422,
      ),
    ).toEqual([['body', 'inputs']]);
    // An input over 20,000 characters, named by its index.
    expect(
      await refused(`/v1/tasks/groups/${id}/runs`, { inputs: [{ input: 'ok' }, { input: 'x'.repeat(20_001) }] }, 422),
    ).toEqual([['body', 'inputs', 1, 'input']]);
    // A body over MAX_BODY_BYTES (1 MiB) is refused before it is read whole.
    await refused(`/v1/tasks/groups/${id}/runs`, { inputs: [{ input: 'y'.repeat(2 * 1024 * 1024) }] }, 413);
    // Group metadata nested where a value must be a string, number or boolean.
    let nested: unknown = 'deep';
    for (let i = 0; i < 200; i++) nested = { inner: nested };
    expect((await refused('/v1/tasks/groups', { metadata: { a: nested } }, 422))[0]).toEqual(['body', 'metadata', 'a']);
    // A stream resumed after an id that is not one.
    const badResume = await fetch(`${ctx.svc.baseUrl}/v1/tasks/groups/${id}/events`, {
      headers: { ...bearer(ctx.svc.demoKey), 'Last-Event-ID': '12; DROP' },
    });
    expect(badResume.status).toBe(422);
    expect((await json(badResume)).detail[0].loc).toEqual(['header', 'last-event-id']);
    // Nothing was added, and the group still answers.
    expect((await group(id)).status.num_task_runs).toBe(0);
    expect(
      (await call('POST', `/v1/tasks/groups/${id}/runs`, { inputs: [{ input: QUESTIONS[0], processor: 'base' }] }))
        .status,
    ).toBe(202);
  });

  it("another team's group is a 404, and a malformed id a 422 naming it", async () => {
    const id = (await json(await call('POST', '/v1/tasks/groups', {}))).taskgroup_id;
    const made = await ctx.svc.keys('create', '--team', 'other-team');
    const other = made.stdout.trim();
    ctx.secrets.push(other);
    let status = 0;
    for (let i = 0; i < 100 && status !== 404; i++) {
      status = (await fetch(`${ctx.svc.baseUrl}/v1/tasks/groups/${id}`, { headers: bearer(other) })).status;
      if (status !== 404) await new Promise((r) => setTimeout(r, 50));
    }
    expect(status).toBe(404);
    const malformed = await call('GET', '/v1/tasks/groups/not-a-group');
    expect(malformed.status).toBe(422);
    expect((await json(malformed)).detail[0].loc).toEqual(['path', 'id']);
  });
});
