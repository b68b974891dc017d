/**
 * The task group tools: task_group makes a group from a list of inputs (one task run each, the
 * same schema for all) and answers its id at once; get_task_group reads its progress and a page
 * of its runs with their outputs.
 */
import { Type } from '@sinclair/typebox';
import { MAX_GROUP_INPUTS, TASK_PROCESSORS } from '@app/domain';
import { taskGroupRunsText, taskGroupText } from './tool-text';
import { defined, defineTool, get, id, MCP_TOOL_BOUNDS, oneOf, post, readOnly, schema, seg, starts } from './tool-kit';

/** The longest input of a group's run the tool takes (POST /v1/tasks/groups/{id}/runs takes 20,000). */
const GROUP_INPUT_CHARS = 20_000;

export const taskGroup = defineTool({
  name: 'task_group',
  title: 'Task group',
  description: `Runs one task per input (1 to ${MAX_GROUP_INPUTS}: e.g. "Where is <company> headquartered?" for each company of a list), all filling the same output schema, as a task group: answers its taskgroup_id at once; its runs wait in the group and run as room frees. Follow it with get_task_group. Charged as POST /v1/tasks per run.`,
  inputSchema: schema(
    {
      inputs: Type.Array(Type.String({ minLength: 1, maxLength: GROUP_INPUT_CHARS }), {
        minItems: 1,
        maxItems: MAX_GROUP_INPUTS,
        description: 'One task per item',
      }),
      output_schema: Type.Unsafe<Record<string, unknown>>({
        type: 'object',
        description:
          'A JSON Schema of each output (at most 3 levels deep), or {type: "json", json_schema} | {type: "text"} | {type: "auto"} (default auto)',
      }),
      processor: oneOf(TASK_PROCESSORS, { default: 'core', description: 'Each run: base, core or ultra' }),
      metadata: Type.Record(Type.String(), Type.Union([Type.String(), Type.Number(), Type.Boolean()]), {
        description: 'Echoed back with the group',
      }),
    },
    ['inputs'],
  ),
  annotations: starts,
  async run(args, ctx) {
    const group = await post(ctx, '/v1/tasks/groups', defined({ metadata: args.metadata }));
    const groupId = seg(group.taskgroup_id);
    const added = await post(
      ctx,
      `/v1/tasks/groups/${groupId}/runs`,
      defined({
        inputs: args.inputs.map((input) => ({ input })),
        default_task_spec: defined({ processor: args.processor, output_schema: args.output_schema }),
      }),
    );
    const view = { ...group, status: added.status, run_ids: added.run_ids };
    return { text: taskGroupText(view), structured: view };
  },
});

export const getTaskGroup = defineTool({
  name: 'get_task_group',
  title: 'Get a task group',
  description:
    "A task group's progress (its runs counted by status) and a page of its runs in the order added, each with its input and, once completed, its output. Charged nothing (GET /v1/tasks/groups/{taskgroup_id} and its runs).",
  inputSchema: schema(
    {
      taskgroup_id: id('The taskgroup_id task_group answered'),
      status: oneOf(['queued', 'running', 'completed', 'failed', 'cancelled'] as const, {
        description: 'Only the runs in this status',
      }),
      after: Type.String({
        minLength: 1,
        maxLength: MCP_TOOL_BOUNDS.idChars,
        description: 'The next_cursor of the previous page',
      }),
      limit: Type.Integer({ minimum: 1, maximum: 100, default: 20, description: 'Runs on the page' }),
    },
    ['taskgroup_id'],
  ),
  annotations: readOnly,
  async run(args, ctx) {
    const groupId = seg(args.taskgroup_id);
    const query = new URLSearchParams(
      defined({
        include_input: 'true',
        include_output: 'true',
        limit: String(args.limit ?? 20),
        status: args.status,
        after: args.after,
      }) as Record<string, string>,
    );
    const [group, page] = await Promise.all([
      get(ctx, `/v1/tasks/groups/${groupId}`),
      get(ctx, `/v1/tasks/groups/${groupId}/runs?${query}`),
    ]);
    const view = { ...group, runs: page.runs, next_cursor: page.next_cursor };
    return { text: taskGroupRunsText(view), structured: view };
  },
});
