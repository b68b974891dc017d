import { bearer, type RunningService, startService } from '../support/service-process';

/**
 * The answer model through the service, on the shipped demo corpus: a question the pages do not
 * answer ("Who founded …?" where the company's pages name no founder, only a city) gets no value,
 * low confidence and the reason in words, in a task, a deep report and a chat reply; a question
 * they do answer still gets its value.
 */
jest.setTimeout(120_000);

const ANSWER_SCHEMA = {
  type: 'json',
  json_schema: {
    type: 'object',
    properties: { answer: { type: 'string', description: 'the answer to the task' } },
    required: ['answer'],
  },
};

async function api<T>(
  svc: RunningService,
  method: string,
  route: string,
  body?: unknown,
): Promise<{ status: number; json: T }> {
  const response = await fetch(`${svc.baseUrl}${route}`, {
    method,
    headers: { ...bearer(svc.demoKey), ...(body ? { 'Content-Type': 'application/json' } : {}) },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  return { status: response.status, json: (await response.json()) as T };
}

interface TaskView {
  run_id: string;
  status: string;
  output: { answer: unknown } | null;
  basis: Array<{ field: string; confidence: string; reasoning: string }> | null;
  findings: Array<{
    subquery: string;
    answer: string;
    verdict?: {
      probability: number;
      answered: boolean;
      value: string;
      features: Record<string, number>;
      reason: string;
    };
  }> | null;
}

async function task(svc: RunningService, question: string, processor = 'core'): Promise<TaskView> {
  let { json } = await api<TaskView>(svc, 'POST', '/v1/tasks', {
    task: question,
    processor,
    output_schema: ANSWER_SCHEMA,
    wait_seconds: 60,
  });
  const deadline = Date.now() + 60_000;
  while (!['completed', 'failed', 'cancelled'].includes(json.status) && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 100));
    ({ json } = await api<TaskView>(svc, 'GET', `/v1/tasks/runs/${json.run_id}`));
  }
  expect(json.status).toBe('completed');
  return json;
}

describe('the answer model on the demo corpus', () => {
  let svc: RunningService;
  beforeAll(async () => {
    svc = await startService('standalone');
  });
  afterAll(async () => {
    await svc?.stop();
  });

  it('answers a who-question the pages do not answer with null, low, and says why; the finding keeps the numbers', async () => {
    // (ultra returns the run's findings.)
    const run = await task(svc, 'Who founded Northwind Solar?', 'ultra');
    expect(run.output?.answer ?? null).toBeNull();
    const basis = run.basis!.find((b) => b.field === 'answer')!;
    expect(basis.confidence).toBe('low');
    expect(basis.reasoning).toMatch(
      /^The pages read name no person who founded Northwind Solar: the closest candidate, ".+", is /,
    );
    // The run's findings keep the verdict: its probability and the named features it weighed.
    const judged = (run.findings ?? []).find((f) => f.verdict && /who founded northwind solar/i.test(f.subquery));
    expect(judged?.verdict?.answered).toBe(false);
    expect(Object.keys(judged!.verdict!.features)).toEqual(
      expect.arrayContaining(['fits_kind', 'sentence_cover', 'proximity']),
    );
  });

  it('a deep report and a chat reply open by saying the pages do not answer, with no name in bold', async () => {
    const created = await api<{ search_id: string }>(svc, 'POST', '/v1/search', {
      depth: 'deep',
      queries: ['Who founded Northwind Solar?'],
      prompt: 'Who founded Northwind Solar?',
    });
    expect(created.status).toBe(202);
    let report = '';
    const deadline = Date.now() + 60_000;
    while (Date.now() < deadline) {
      const { json } = await api<{ status: string; report: string | null }>(
        svc,
        'GET',
        `/v1/searches/${created.json.search_id}`,
      );
      if (json.status === 'completed') {
        report = json.report ?? '';
        break;
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    const first = report.split('\n\n')[1] ?? '';
    expect(first).toMatch(
      /^No source answered: Who founded Northwind Solar\? The pages read name no person who founded Northwind Solar/,
    );
    expect(first).not.toContain('**');
    const { json } = await api<{ choices: Array<{ message: { content: string } }> }>(
      svc,
      'POST',
      '/v1/chat/completions',
      { model: 'base', messages: [{ role: 'user', content: 'Who founded Northwind Solar?' }] },
    );
    const reply = json.choices[0]!.message.content;
    expect(reply).not.toMatch(/^\*\*/);
    expect(reply).toMatch(/name no person who founded Northwind Solar/);
  });

  it('still answers what the pages do state', async () => {
    const run = await task(svc, 'How many people does Northwind Solar employ?');
    expect(run.output?.answer).toEqual(expect.stringMatching(/860/));
    expect(run.basis!.find((b) => b.field === 'answer')!.reasoning).toMatch(/Judged [01]\.\d\d likely right/);
  });
});
