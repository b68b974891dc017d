import { MAX_GROUP_INPUTS, type TaskOutputSpec } from '@app/domain';
import {
  BoolField,
  EnumField,
  fail,
  IntField,
  isObject,
  NestedField,
  ok,
  type Parser,
  PyField,
  StrField,
  UrlField,
} from '@app/platform';
import { OutputSchemaField, PROCESSORS, StringMapField } from './tasks.dto';

/** The longest input a group's run takes (as text; an object input is its JSON). */
export const MAX_GROUP_INPUT_CHARS = 20_000;

/** A run's input: the task as text, or an object (its JSON is the task), as Parallel's inputs are. */
const groupInputParser = (): Parser => (input, loc) => {
  const text = typeof input === 'string' ? input : isObject(input) ? JSON.stringify(input) : undefined;
  if (text === undefined) return fail('string_type', loc, 'Input should be a valid string or dictionary', input);
  if (!text.trim()) return fail('string_too_short', loc, 'String should have at least 1 character', input);
  if (text.length > MAX_GROUP_INPUT_CHARS)
    return fail('string_too_long', loc, `String should have at most ${MAX_GROUP_INPUT_CHARS} characters`, input, {
      max_length: MAX_GROUP_INPUT_CHARS,
    });
  return ok(text);
};

const metadataValueParser = (): Parser => (input, loc) => {
  if (!isObject(input)) return fail('dict_type', loc, 'Input should be a valid dictionary', input);
  const bad = Object.entries(input).find(([, v]) => !['string', 'number', 'boolean'].includes(typeof v));
  if (bad) return fail('value_error', [...loc, bad[0]], 'Value error, a value is a string, number or boolean', bad[1]);
  if (JSON.stringify(input).length > 4_000)
    return fail('value_error', loc, 'Value error, metadata holds at most 4,000 characters of JSON', input);
  return ok({ ...input });
};

export class TaskGroupCreateBody {
  @PyField(
    metadataValueParser(),
    { optional: true, nullable: true, description: 'Echoed back (string, number or boolean values)' },
    { type: 'object', additionalProperties: true },
  )
  metadata?: Record<string, string | number | boolean> | null;
  @UrlField({
    optional: true,
    nullable: true,
    description: 'POSTed task_group.completed (the group view) when every run it holds has ended',
  })
  webhook?: string | null;
}

export class TaskSpecBody {
  @EnumField(PROCESSORS, { optional: true, description: 'base, core or ultra (default core)' })
  processor?: (typeof PROCESSORS)[number];
  @OutputSchemaField('{type: json, json_schema} | {type: text} | {type: auto} | a JSON Schema')
  output_schema?: TaskOutputSpec | null;
}

export class TaskGroupInputBody {
  @PyField(
    groupInputParser(),
    { description: 'The task: text, or an object whose JSON is the task' },
    { oneOf: [{ type: 'string' }, { type: 'object', additionalProperties: true }] },
  )
  input!: string;
  @EnumField(PROCESSORS, { optional: true, description: 'This run only; else default_task_spec.processor, else core' })
  processor?: (typeof PROCESSORS)[number];
  @OutputSchemaField('This run only; else default_task_spec.output_schema')
  output_schema?: TaskOutputSpec | null;
  @StringMapField('Echoed back on the run')
  metadata?: Record<string, string> | null;
}

export class TaskGroupRunsBody {
  @NestedField(TaskGroupInputBody, {
    list: true,
    minItems: 1,
    maxItems: MAX_GROUP_INPUTS,
    description: `1 to ${MAX_GROUP_INPUTS} runs; a bad one is a 422 naming its index, and then none is added`,
  })
  inputs!: TaskGroupInputBody[];
  @NestedField(TaskSpecBody, {
    optional: true,
    nullable: true,
    description: "Each input's processor and output_schema unless it gives its own",
  })
  default_task_spec?: TaskSpecBody | null;
}

export class TaskGroupRunsQuery {
  @EnumField(['queued', 'running', 'completed', 'failed', 'cancelled'] as const, { optional: true })
  status?: 'queued' | 'running' | 'completed' | 'failed' | 'cancelled';
  @BoolField({ default: false, description: "Each run's input (its task)" })
  include_input!: boolean;
  @BoolField({ default: false, description: "Each run's output, once it has one" })
  include_output!: boolean;
  @StrField({ optional: true, maxLength: 200, description: 'The next_cursor of the previous page' })
  after?: string;
  @IntField({ ge: 1, le: 1000, default: 100 })
  limit!: number;
}

export class TaskGroupListQuery {
  @IntField({ ge: 1, le: 100, default: 20 })
  limit!: number;
  @IntField({ ge: 0, default: 0 })
  offset!: number;
}

/** `GET /v1/tasks/groups/{id}/events`: where to resume, and what each run's end carries. */
export class TaskGroupEventsQuery {
  @StrField({
    optional: true,
    pattern: '^\\d{1,19}$',
    description: 'Resume after this event id (or send Last-Event-ID)',
  })
  last_event_id?: string;
  @BoolField({ default: false, description: "Each ended run's input (its task)" })
  include_input!: boolean;
  @BoolField({ default: false, description: "Each ended run's output" })
  include_output!: boolean;
}
