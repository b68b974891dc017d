import {
  type RecordedCommand,
  type Finding,
  type Source,
  PROCESSOR_BUDGETS,
  type TaskFieldBasis,
  type TaskOutput,
  type TaskParams,
  taskRuns,
  type TaskRunState,
} from '@app/domain';
import { type PromptAnswer, promptAbstention, promptAnswer, schemaFields } from '@app/language';
import { citedIndexes, runResearch } from '@app/research';
import { type RunContext, type RunExecutor, RunExecutorOf } from '@app/runs';
import { documentsOf, recordedProgress, stepsTaken } from './research-progress';
import { ResearchPortsFactory } from './research-ports';
import { followUpQuestion } from './follow-up-question';

/** Search queries of a task: the task itself, then one per output field (its description, or its name). */
export function taskQueries(params: TaskParams, max: number): string[] {
  const queries = [params.task];
  if (params.output_schema.type === 'json') {
    for (const field of schemaFields(params.output_schema.json_schema)) {
      const about =
        typeof field.schema.description === 'string' && field.schema.description
          ? field.schema.description
          : field.name.replace(/[_-]+/g, ' ');
      queries.push(`${params.task} ${about}`);
    }
  }
  return [...new Set(queries)].slice(0, max);
}

/** The basis of a text answer: the sources its report cites, with the findings' verbatim evidence from them. */
function textBasis(report: string, findings: Finding[], sources: Source[]): TaskFieldBasis[] {
  const cited = new Set(citedIndexes(report));
  const citations = sources
    .filter((s) => cited.has(s.index))
    .map((s) => ({
      url: s.url,
      title: s.title,
      excerpts: [
        ...new Set(findings.flatMap((f) => f.evidence.filter((e) => e.source === s.index).map((e) => e.quote))),
      ],
    }));
  const rank = { high: 3, medium: 2, low: 1 } as const;
  const best = findings.reduce<'high' | 'medium' | 'low'>(
    (top, f) => (rank[f.confidence] > rank[top] ? f.confidence : top),
    'low',
  );
  return [
    {
      field: 'output',
      citations,
      reasoning: findings.length
        ? `Written from ${findings.length} graded finding${findings.length === 1 ? '' : 's'}; every claim cites the page it comes from.`
        : 'No page read in this run answers the task; the answer says so.',
      confidence: findings.length ? best : 'low',
    },
  ];
}

/**
 * The string fields of a task's output schema that ask for the answer itself (named `answer`, or
 * described as the answer to the task): the research's own answer fills them, short (the value,
 * not a sentence), rather than a search of the pages for a field of that name.
 */
export function answerFields(schema: Record<string, unknown>): string[] {
  const properties = schema.properties;
  if (!properties || typeof properties !== 'object') return [];
  return Object.entries(properties as Record<string, Record<string, unknown>>)
    .filter(([name, field]) => {
      const types = [field?.type].flat();
      if (!types.includes('string')) return false;
      const description = typeof field.description === 'string' ? field.description : '';
      return (
        /^(?:final_|short_)?answer$/i.test(name) ||
        /\banswer (?:to|of) (?:the|this) (?:task|question)\b/i.test(description)
      );
    })
    .map(([name]) => name);
}

/** The schema without `fields` (and without them among its required ones); null when nothing is left. */
function withoutFields(schema: Record<string, unknown>, fields: string[]): Record<string, unknown> | null {
  if (fields.length === 0) return schema;
  const properties = Object.fromEntries(
    Object.entries(schema.properties as Record<string, unknown>).filter(([name]) => !fields.includes(name)),
  );
  if (Object.keys(properties).length === 0) return null;
  const required = Array.isArray(schema.required)
    ? schema.required.filter((name) => !fields.includes(name as string))
    : undefined;
  return { ...schema, properties, ...(required && { required }) };
}

/** The basis of an answer field: the sentence that states the research's answer, or why there is none. */
function answerBasis(
  field: string,
  found: PromptAnswer | null,
  sources: Source[],
  withheld: string | null = null,
): TaskFieldBasis {
  if (!found)
    return {
      field,
      citations: [],
      reasoning: withheld
        ? `${withheld} The field is left null.`
        : 'No source read in this run states a value that answers the task; the field is left null.',
      confidence: 'low',
    };
  const cited = sources.filter((s) => found.citations.includes(s.index) || s.index === found.source);
  return {
    field,
    citations: cited.map((s) => ({
      url: s.url,
      title: s.title,
      excerpts: s.index === found.source ? [found.quote] : [],
    })),
    reasoning: `The research's answer to the task, as ${cited.length > 1 ? `${cited.length} sources state` : 'its source states'} it.${found.judged ? ` ${found.judged}` : ''}`,
    confidence: found.confidence,
  };
}

const fieldsLine = (output: unknown): string =>
  output && typeof output === 'object' && !Array.isArray(output)
    ? Object.entries(output as Record<string, unknown>)
        .map(([k, v]) => `${k}: ${v === null ? 'unknown' : typeof v === 'object' ? JSON.stringify(v) : String(v)}`)
        .join('; ')
    : JSON.stringify(output);

/**
 * Task runs: the research pipeline with the processor's budget (sub-queries, reads per batch,
 * fetches), then the output: a JSON schema filled from the pages read (per-field basis), or a
 * cited text answer. Steps are counted as they are spent and charged on completion; base grades
 * inside its synthesis step.
 */
@RunExecutorOf(taskRuns)
export class TaskRunExecutor implements RunExecutor<typeof taskRuns> {
  readonly kind = taskRuns;

  constructor(private readonly ports: ResearchPortsFactory) {}

  async execute(run: RunContext<TaskRunState, RecordedCommand<typeof taskRuns>>): Promise<void> {
    if (run.state.status === 'absent') throw new Error(`task run ${run.runId} has no request`);
    // A follow-up researches its question with the words that refer back named.
    const asked = run.state.params;
    const params = { ...asked, task: followUpQuestion(asked.task, asked.follows) };
    const budget = PROCESSOR_BUDGETS[params.processor];
    const json = params.output_schema.type === 'json' ? params.output_schema.json_schema : null;
    const ports = this.ports.for({ objective: params.task, signal: run.signal, teamId: run.state.team_id });
    const queries = taskQueries(params, budget.subqueries);
    const outcome = await runResearch(
      {
        prompt: params.task,
        queries,
        objective: null,
        maxSubqueries: budget.subqueries,
        maxFetches: budget.fetches,
        limit: 20,
        country: 'us',
        language: 'en',
        readBatch: budget.readBatch,
        // A JSON answer is written by the schema filler; the research tier also gets the report.
        synthesise: json === null || budget.research,
      },
      ports,
      recordedProgress(run),
    );
    if (run.stopped() || outcome.stopped) return;
    const usage = outcome.usage;
    let output: unknown;
    let basis: TaskFieldBasis[];
    let answer: string;
    let fillTokens = { input: 0, output: 0 };
    let fillCalls = 0;
    if (json) {
      // Fields that ask for the answer itself take the research's own answer; the schema filler
      // fills the others (one filling step either way).
      const asked = answerFields(json);
      const rest = withoutFields(json, asked);
      const filled = rest
        ? await this.ports.languageModel.fillSchema(
            { task: params.task, schema: rest, documents: documentsOf(outcome, ports.texts) },
            run.signal,
          )
        : null;
      fillCalls = 1;
      fillTokens = filled?.usage ?? fillTokens;
      if (asked.length === 0 && filled) {
        output = filled.output;
        basis = filled.basis;
      } else {
        const found = promptAnswer(params.task, outcome.findings, outcome.restatements);
        const given = (filled?.output ?? {}) as Record<string, unknown>;
        const fields = Object.keys(json.properties as Record<string, unknown>);
        output = Object.fromEntries(
          fields.map((field) => [field, asked.includes(field) ? (found?.value ?? null) : (given[field] ?? null)]),
        );
        const withheld = found ? null : promptAbstention(params.task, outcome.findings, outcome.restatements);
        basis = fields.map((field) =>
          asked.includes(field)
            ? answerBasis(field, found, outcome.sources, withheld)
            : filled!.basis.find((b) => b.field === field)!,
        );
      }
      answer = fieldsLine(output);
    } else {
      answer = outcome.report ?? '';
      output = answer;
      basis = textBasis(answer, outcome.findings, outcome.sources);
    }
    if (run.stopped()) return;
    const synthCalls = usage.synth_calls + fillCalls;
    const cited = basis.flatMap((b) => b.citations.map((c) => c.url));
    const result: TaskOutput = {
      output,
      basis,
      answer,
      sources: [...new Set(cited.length ? cited : outcome.sources.filter((s) => s.fetched).map((s) => s.url))].slice(
        0,
        10,
      ),
      read: outcome.sources.filter((s) => s.fetched).map((s) => s.url),
      considered: outcome.results.map((r) => r.url),
      usage: {
        tool_calls: usage.search_queries + outcome.readBatches,
        search_queries: usage.search_queries,
        pages_fetched: usage.pages_fetched,
        tokens: { input: usage.tokens.input + fillTokens.input, output: usage.tokens.output + fillTokens.output },
        planner_calls: usage.planner_calls,
        grader_calls: usage.grader_calls,
        synth_calls: synthCalls,
        scratchpad_mode: null,
        scratchpad_chunks_indexed: 0,
        scratchpad_chunks_used: 0,
        scratchpad_searches: 0,
        scratchpad_tool_turns: 0,
      },
      steps: stepsTaken(outcome, budget, fillCalls),
      report: budget.research ? outcome.report : null,
      findings: budget.research ? outcome.findings : null,
      sources_detailed: budget.research ? outcome.sources : null,
    };
    await run.record({ type: 'RecordOutput', ...result });
  }
}
