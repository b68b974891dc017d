/**
 * `npm run bench:tasks`: task runs and chat completions on the fixture web (local index crawled
 * from it at boot, extractive engine), against the compiled standalone service, written to
 * bench/results/tasks.json:
 *  - a core task with a 4-field JSON schema (bench/fixtures/tasks/fields.json, case acme-profile):
 *    wall time p50 over 10 runs (POST /v1/tasks until its 200) and how many fields equal the value
 *    the page states;
 *  - field accuracy over every case of that fixture, tuned-on and held-out thirds apart (the
 *    held-out third was set aside before the schema filler was tuned);
 *  - chat: time from the request to the first streamed chunk, and to the first chunk of the
 *    answer, p50 over 10 streamed completions.
 * Rerun: npm run bench:tasks
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fixtureSeeds, startFixtureWeb } from '../test/support/fixture-web';
import { startService, type RunningService } from '../test/support/service-process';
import { atMost, percentile, report, type Row } from './bench-util';

interface Case {
  id: string;
  split: 'tune' | 'held_out';
  task: string;
  schema: Record<string, unknown>;
  expected: Record<string, string | number>;
}

const ROOT = (() => {
  let dir = __dirname;
  while (!fs.existsSync(path.join(dir, 'package.json'))) dir = path.dirname(dir);
  return dir;
})();
const CASES = (
  JSON.parse(fs.readFileSync(path.join(ROOT, 'bench', 'fixtures', 'tasks', 'fields.json'), 'utf8')) as { cases: Case[] }
).cases;

const norm = (v: unknown) =>
  String(v)
    .toLowerCase()
    .replace(/(\d),(\d)/g, '$1$2')
    .replace(/[^\p{L}\p{N}. ]/gu, '')
    .trim();
/** The fixture's rule: a number equals; a string contains the expected value (both normalised). */
const fieldRight = (got: unknown, want: string | number) =>
  typeof want === 'number' ? got === want : got !== null && got !== undefined && norm(got).includes(norm(want));

async function task(
  svc: RunningService,
  body: Record<string, unknown>,
): Promise<{ ms: number; view: { status: string; output: Record<string, unknown> } }> {
  const started = performance.now();
  const response = await fetch(`${svc.baseUrl}/v1/tasks`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${svc.demoKey}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ wait_seconds: 120, ...body }),
  });
  const view = (await response.json()) as { status: string; output: Record<string, unknown> };
  if (response.status !== 200 || view.status !== 'completed')
    throw new Error(`task did not complete: ${response.status} ${JSON.stringify(view).slice(0, 300)}`);
  return { ms: performance.now() - started, view };
}

async function accuracy(svc: RunningService, label: string, rows: Row[], misses: string[]): Promise<void> {
  for (const split of ['tune', 'held_out'] as const) {
    let right = 0;
    let total = 0;
    for (const c of CASES.filter((x) => x.split === split)) {
      const { view } = await task(svc, {
        task: c.task,
        processor: 'core',
        output_schema: { type: 'json', json_schema: c.schema },
      });
      for (const [field, want] of Object.entries(c.expected)) {
        total++;
        if (fieldRight(view.output[field], want)) right++;
        else
          misses.push(
            `${label} ${split} ${c.id}.${field}: got ${JSON.stringify(view.output[field])}, page says ${JSON.stringify(want)}`,
          );
      }
    }
    rows.push({
      metric: `${label}: field accuracy, ${split === 'tune' ? 'tuned-on' : 'held-out'} cases`,
      value: right / total,
      unit: 'share',
      note: `${right}/${total} fields`,
    });
  }
}

/** Streams one completion; when the first chunk and the first answer text arrived, from the request. */
async function chatStream(
  svc: RunningService,
  question: string,
): Promise<{ first: number; firstText: number; done: number }> {
  const started = performance.now();
  const response = await fetch(`${svc.baseUrl}/v1/chat/completions`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${svc.demoKey}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ model: 'core', stream: true, messages: [{ role: 'user', content: question }] }),
  });
  if (response.status !== 200 || !response.body) throw new Error(`chat refused: ${response.status}`);
  let first = 0;
  let firstText = 0;
  let buffer = '';
  const decoder = new TextDecoder();
  for await (const bytes of response.body as unknown as AsyncIterable<Uint8Array>) {
    buffer += decoder.decode(bytes, { stream: true });
    let at: number;
    while ((at = buffer.indexOf('\n\n')) >= 0) {
      const frame = buffer.slice(0, at);
      buffer = buffer.slice(at + 2);
      if (!frame.startsWith('data: ')) continue;
      const now = performance.now() - started;
      if (frame === 'data: [DONE]') return { first, firstText, done: now };
      first ||= now;
      const chunk = JSON.parse(frame.slice(6)) as { choices?: { delta?: { content?: string } }[] };
      if (!firstText && chunk.choices?.[0]?.delta?.content) firstText = now;
    }
  }
  throw new Error('the stream ended without [DONE]');
}

async function main(): Promise<void> {
  const web = await startFixtureWeb();
  const rows: Row[] = [];
  const misses: string[] = [];
  const base = { RATE_LIMIT_RPS: '0', FETCH_ALLOW_HOSTS: web.allowHosts.join(','), LOG_LEVEL: 'warn' };
  const local = await startService('standalone', { ...base, LOCAL_INDEX_SEEDS: fixtureSeeds(web) });
  try {
    const acme = CASES.find((c) => c.id === 'acme-profile')!;
    const body = { task: acme.task, processor: 'core', output_schema: { type: 'json', json_schema: acme.schema } };
    await task(local, body);
    const times: number[] = [];
    let right = 0;
    for (let i = 0; i < 10; i++) {
      const { ms, view } = await task(local, body);
      times.push(ms);
      right += Object.entries(acme.expected).filter(([field, want]) => fieldRight(view.output[field], want)).length;
    }
    times.sort((a, b) => a - b);
    const p50 = percentile(times, 50);
    rows.push({
      metric: 'core task, 4-field schema: wall time p50',
      value: p50,
      unit: 'ms',
      ...atMost(p50, 2000),
      note: '10 runs, POST /v1/tasks to its 200',
    });
    rows.push({ metric: 'core task, 4-field schema: wall time max', value: times[times.length - 1]!, unit: 'ms' });
    rows.push({
      metric: 'core task, 4-field schema: fields right',
      value: right / 40,
      unit: 'share',
      note: `${right}/40 over the 10 runs`,
    });
    await accuracy(local, 'local index', rows, misses);

    await chatStream(local, 'warm up');
    const first: number[] = [];
    const firstText: number[] = [];
    const done: number[] = [];
    const questions = [
      'Who founded Acme Robotics?',
      'Where is the HelioGrid battery plant?',
      'What is tinyrank?',
      'What did Mara Lindqvist study?',
      'When did the tram extension get approved?',
    ];
    for (let i = 0; i < 10; i++) {
      const t = await chatStream(local, questions[i % questions.length]!);
      first.push(t.first);
      firstText.push(t.firstText);
      done.push(t.done);
    }
    for (const list of [first, firstText, done]) list.sort((a, b) => a - b);
    rows.push({
      metric: 'chat: time to first chunk p50',
      value: percentile(first, 50),
      unit: 'ms',
      ...atMost(percentile(first, 50), 200),
      note: '10 streamed completions, model core',
    });
    rows.push({ metric: 'chat: time to first answer text p50', value: percentile(firstText, 50), unit: 'ms' });
    rows.push({ metric: 'chat: time to [DONE] p50', value: percentile(done, 50), unit: 'ms' });
  } finally {
    await local.stop();
    await web.stop();
  }
  report('tasks', rows, { rerun: 'npm run bench:tasks', fixture: 'bench/fixtures/tasks/fields.json', misses });
  if (misses.length) process.stdout.write(`\nfields not right:\n${misses.map((m) => `  ${m}`).join('\n')}\n`);
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
