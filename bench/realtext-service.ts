/**
 * The calls `bench:realtext` makes to the service through its public HTTP API (search, a task
 * waited for, a deep run polled to its end, a chat completion), each timed, and the pool that
 * runs them a few at a time.
 */
import type { RunningService } from '../test/support/service-process';

export const CONCURRENCY = 4;

export async function api<T>(
  svc: RunningService,
  method: string,
  route: string,
  body?: unknown,
): Promise<{ status: number; json: T; ms: number }> {
  const started = performance.now();
  const response = await fetch(`${svc.baseUrl}${route}`, {
    method,
    headers: { Authorization: `Bearer ${svc.demoKey}`, 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = (await response.json()) as T;
  return { status: response.status, json, ms: performance.now() - started };
}

const ANSWER_SCHEMA = {
  type: 'json',
  json_schema: {
    type: 'object',
    properties: { answer: { type: 'string', description: 'the answer to the task' } },
    required: ['answer'],
  },
};

interface TaskView {
  run_id?: string;
  status: string;
  output?: Record<string, unknown> | { content?: Record<string, unknown>; basis?: Basis[] } | null;
  basis?: Basis[] | null;
}
interface Basis {
  field: string;
  confidence?: string;
}

export async function runTask(
  svc: RunningService,
  question: string,
  processor: string,
): Promise<{ answer: string; confidence: string | null; ms: number; status: string }> {
  const started = performance.now();
  const created = await api<TaskView>(svc, 'POST', '/v1/tasks', {
    task: question,
    processor,
    output_schema: ANSWER_SCHEMA,
    wait_seconds: 120,
  });
  const { status } = created;
  let { json } = created;
  if (status !== 200 && status !== 202)
    throw new Error(`task refused: ${status} ${JSON.stringify(json).slice(0, 300)}`);
  const deadline = Date.now() + 120_000;
  while (!['completed', 'failed', 'cancelled'].includes(json.status) && json.run_id && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 100));
    ({ json } = await api<TaskView>(svc, 'GET', `/v1/tasks/runs/${json.run_id}`));
  }
  const output = (json.output ?? {}) as Record<string, unknown>;
  const content = (typeof output.content === 'object' && output.content !== null ? output.content : output) as Record<
    string,
    unknown
  >;
  const basis = json.basis ?? (Array.isArray(output.basis) ? (output.basis as Basis[]) : []) ?? [];
  const answer = content.answer;
  return {
    answer: typeof answer === 'string' ? answer : answer === null || answer === undefined ? '' : JSON.stringify(answer),
    confidence: basis.find((b) => b.field === 'answer')?.confidence ?? null,
    ms: performance.now() - started,
    status: json.status,
  };
}

export interface RunView {
  status: string;
  report: string | null;
  sources: Array<{ index: number; url: string }> | null;
}

export async function deepRun(svc: RunningService, question: string): Promise<{ view: RunView; ms: number }> {
  const started = performance.now();
  const created = await api<{ search_id: string }>(svc, 'POST', '/v1/search', {
    depth: 'deep',
    queries: [question],
    prompt: question,
  });
  if (created.status !== 202)
    throw new Error(`deep run refused: ${created.status} ${JSON.stringify(created.json).slice(0, 300)}`);
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    const { json } = await api<RunView>(svc, 'GET', `/v1/searches/${created.json.search_id}`);
    if (['completed', 'failed', 'cancelled'].includes(json.status))
      return { view: json, ms: performance.now() - started };
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`deep run ${created.json.search_id} did not end in 120 s`);
}

export async function chat(svc: RunningService, question: string): Promise<{ reply: string; ms: number }> {
  const { status, json, ms } = await api<{ choices?: Array<{ message?: { content?: string | null } }> }>(
    svc,
    'POST',
    '/v1/chat/completions',
    {
      model: 'base',
      messages: [{ role: 'user', content: question }],
    },
  );
  if (status !== 200 && status !== 201)
    throw new Error(`chat refused: ${status} ${JSON.stringify(json).slice(0, 300)}`);
  return { reply: json.choices?.[0]?.message?.content ?? '', ms };
}

/** Runs `work` over `items`, `CONCURRENCY` at a time. */
export async function pool<T>(items: T[], work: (item: T) => Promise<void>): Promise<void> {
  const queue = [...items];
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      for (let item = queue.shift(); item !== undefined; item = queue.shift()) await work(item);
    }),
  );
}
