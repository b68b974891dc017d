/**
 * The tools over runs that take a while: deep_research, task and find_all each start a run and
 * wait for it (reporting progress); get_research, get_task and get_find_all read one later.
 */
import { Type } from '@sinclair/typebox';
import {
  DEEP_SEARCH_BOUNDS,
  FINDALL_EXCLUDE_MAX,
  FINDALL_PREVIEW_CANDIDATES,
  FindAllViewSchema,
  MAX_RUN_CREDITS,
  TASK_PROCESSORS,
  TaskRunViewSchema,
} from '@app/domain';
import { waitForRun } from './run-wait';
import { findAllText, researchText, taskText } from './tool-text';
import {
  defined,
  defineTool,
  get,
  id,
  MCP_TOOL_BOUNDS,
  oneOf,
  outputOf,
  post,
  queriesSchema,
  readOnly,
  schema,
  seg,
  starts,
  strings,
  text,
  waitSeconds,
} from './tool-kit';

/** `previous_interaction_id` of the tools that start a task or deep research (API.md "Follow-ups"). */
const previousInteraction = Type.String({
  minLength: 1,
  maxLength: 200,
  description:
    "The interaction_id of an earlier completed task or research of yours: this one starts from it ('it', 'its' name its subject; its pages are reused)",
});

/** `max_credits` of the tools that start a run (API.md "Budgets"). */
const maxCredits = Type.Integer({
  minimum: 1,
  maximum: MAX_RUN_CREDITS,
  description:
    'The run never charges more credits than this; it stops with what it has (termination_reason budget_exhausted)',
});

export const deepResearch = defineTool({
  name: 'deep_research',
  title: 'Deep research',
  description:
    'Researches a question across many pages and writes a cited report: [N] markers point at the numbered sources. Waits up to wait_seconds (default 60), reporting progress (the plan, each page read, each finding); if the run is not done by then, answers its search_id for get_research. Charged as a deep POST /v1/search (1 credit per query).',
  inputSchema: schema(
    {
      prompt: text(MCP_TOOL_BOUNDS.promptChars, 'The research question'),
      queries: { ...queriesSchema, description: `${queriesSchema.description} to start from; default: the prompt` },
      max_fetches: Type.Integer({
        minimum: DEEP_SEARCH_BOUNDS.max_fetches.min,
        maximum: DEEP_SEARCH_BOUNDS.max_fetches.max,
        description: `Pages read at most (default ${DEEP_SEARCH_BOUNDS.max_fetches.default})`,
      }),
      max_credits: maxCredits,
      previous_interaction_id: previousInteraction,
      wait_seconds: waitSeconds,
    },
    ['prompt'],
  ),
  annotations: starts,
  async run(args, ctx) {
    const body = defined({
      depth: 'deep',
      prompt: args.prompt,
      queries: args.queries ?? [args.prompt.slice(0, MCP_TOOL_BOUNDS.queryChars)],
      max_fetches: args.max_fetches,
      max_credits: args.max_credits,
      previous_interaction_id: args.previous_interaction_id,
    });
    const started = await post(ctx, '/v1/search', body);
    const runId = seg(started.search_id);
    const { view, ended } = await waitForRun(
      ctx,
      `/v1/searches/${runId}/events`,
      `/v1/searches/${runId}`,
      args.wait_seconds ?? MCP_TOOL_BOUNDS.wait.default,
    );
    return { text: researchText(view, ended), structured: view };
  },
});

export const getResearch = defineTool({
  name: 'get_research',
  title: 'Get a research run',
  description:
    'The state of a deep research run started by deep_research: its cited report and sources once completed. Charged nothing (GET /v1/searches/{search_id}).',
  inputSchema: schema({ search_id: id('The search_id deep_research answered') }, ['search_id']),
  annotations: readOnly,
  async run(args, ctx) {
    const view = await get(ctx, `/v1/searches/${seg(args.search_id)}`);
    return { text: researchText(view, true), structured: view };
  },
});

export const task = defineTool({
  name: 'task',
  title: 'Research task',
  description:
    'Researches a task on the web and fills an output schema (a JSON Schema, or {type:"json",json_schema}, {type:"text"}, {type:"auto"}), each field with its cited basis. Waits up to wait_seconds (default 60) with progress; if not done by then, answers the task_id for get_task. Charged as POST /v1/tasks (1 credit per agent step).',
  inputSchema: schema(
    {
      task: text(MCP_TOOL_BOUNDS.promptChars, 'What to find out'),
      output_schema: Type.Unsafe<Record<string, unknown>>({
        type: 'object',
        description:
          'A JSON Schema of the output (at most 3 levels deep), or {type: "json", json_schema} | {type: "text"} | {type: "auto"} (default auto)',
      }),
      processor: oneOf(TASK_PROCESSORS, {
        default: 'core',
        description: 'Budget: base (<=4 steps), core (<=12), ultra (<=30, with a report)',
      }),
      max_credits: maxCredits,
      previous_interaction_id: previousInteraction,
      wait_seconds: waitSeconds,
    },
    ['task'],
  ),
  outputSchema: outputOf(TaskRunViewSchema),
  annotations: starts,
  async run(args, ctx) {
    const started = await post(
      ctx,
      '/v1/tasks/runs',
      defined({
        task: args.task,
        output_schema: args.output_schema,
        processor: args.processor,
        max_credits: args.max_credits,
        previous_interaction_id: args.previous_interaction_id,
      }),
    );
    const runId = seg(started.task_id);
    const { view, ended } = await waitForRun(
      ctx,
      `/v1/tasks/runs/${runId}/events`,
      `/v1/tasks/${runId}`,
      args.wait_seconds ?? MCP_TOOL_BOUNDS.wait.default,
    );
    return { text: taskText(view, ended), structured: view };
  },
});

export const getTask = defineTool({
  name: 'get_task',
  title: 'Get a task run',
  description:
    'The state of a task run started by task: its output and cited basis once completed. Charged nothing (GET /v1/tasks/{task_id}).',
  inputSchema: schema({ task_id: id('The task_id task answered') }, ['task_id']),
  outputSchema: outputOf(TaskRunViewSchema),
  annotations: readOnly,
  async run(args, ctx) {
    const view = await get(ctx, `/v1/tasks/${seg(args.task_id)}`);
    return { text: taskText(view, true), structured: view };
  },
});

export const findAll = defineTool({
  name: 'findall',
  title: 'Find all entities',
  description:
    'Finds the entities matching a description (companies, people, places…) on the web, one row each with its URL and the requested fields. Waits up to wait_seconds (default 60), reporting each entity found; if not done by then, answers the findall_id for get_findall. Charged as POST /v1/findall.',
  inputSchema: schema(
    {
      query: text(MCP_TOOL_BOUNDS.promptChars, 'The entity set, described'),
      limit: Type.Integer({ minimum: 1, maximum: 100, default: 20, description: 'How many entities at most' }),
      fields: strings(MCP_TOOL_BOUNDS.fieldChars, {
        maxItems: MCP_TOOL_BOUNDS.fields,
        description: 'Columns to fill for each entity',
      }),
      exclude_list: Type.Array(
        Type.Object({
          name: Type.Optional(Type.String({ minLength: 1, maxLength: 500 })),
          url: Type.Optional(Type.String({ minLength: 1, maxLength: 2083 })),
        }),
        {
          maxItems: FINDALL_EXCLUDE_MAX,
          description: "Entities not to return, each by name or URL (a previous run's matches, say)",
        },
      ),
      max_credits: maxCredits,
      generator: Type.Union([Type.Literal('base'), Type.Literal('preview')], {
        default: 'base',
        description: `preview: a quick, cheap look (${FINDALL_PREVIEW_CANDIDATES} candidates checked, no field filled) to check the description before a full run`,
      }),
      wait_seconds: waitSeconds,
    },
    ['query'],
  ),
  outputSchema: outputOf(FindAllViewSchema),
  annotations: starts,
  async run(args, ctx) {
    const started = await post(
      ctx,
      '/v1/findall/runs',
      defined({
        query: args.query,
        limit: args.limit,
        fields: args.fields,
        exclude_list: args.exclude_list,
        generator: args.generator,
        max_credits: args.max_credits,
      }),
    );
    const runId = seg(started.findall_id);
    const { view, ended } = await waitForRun(
      ctx,
      `/v1/findall/runs/${runId}/events`,
      `/v1/findall/runs/${runId}`,
      args.wait_seconds ?? MCP_TOOL_BOUNDS.wait.default,
    );
    return { text: findAllText(view, ended), structured: view };
  },
});

export const getFindAll = defineTool({
  name: 'get_findall',
  title: 'Get a FindAll run',
  description:
    'The state of a FindAll run started by findall: the entities matched so far. Charged nothing (GET /v1/findall/runs/{findall_id}).',
  inputSchema: schema({ findall_id: id('The findall_id findall answered') }, ['findall_id']),
  outputSchema: outputOf(FindAllViewSchema),
  annotations: readOnly,
  async run(args, ctx) {
    const view = await get(ctx, `/v1/findall/runs/${seg(args.findall_id)}`);
    return { text: findAllText(view, true), structured: view };
  },
});
