import { TASK_PROCESSORS, type TaskOutputSpec } from '@app/domain';
import {
  EnumField,
  fail,
  IntField,
  isObject,
  metadataParser,
  ok,
  type Parser,
  PyField,
  StrField,
  UrlField,
} from '@app/platform';
import { schemaDepth, schemaProblem } from '@app/language';
import { MaxCreditsField } from '../runs/max-credits.field';
import { PreviousInteractionField } from '../runs/follow-ups';

export const PROCESSORS = TASK_PROCESSORS;
/** API.md "Task create body": how deep and how long an output schema may be. */
export const MAX_SCHEMA_DEPTH = 3;
export const MAX_SCHEMA_CHARS = 25_000;

const valueError = (loc: (string | number)[], msg: string, input: unknown) =>
  fail('value_error', loc, `Value error, ${msg}`, input);

/**
 * `output_schema`: `{type: json, json_schema}`, `{type: text}`, `{type: auto}` or a bare JSON Schema
 * (which means json). Normalised to the first three; a schema that is not valid JSON Schema, nests
 * deeper than 3 levels or is longer than 25,000 characters is refused.
 */
export const outputSchemaParser = (): Parser => (input, loc) => {
  if (!isObject(input)) return fail('dict_type', loc, 'Input should be a valid dictionary', input);
  let spec: TaskOutputSpec;
  if (input.type === 'text' || input.type === 'auto') spec = { type: input.type };
  else if (input.type === 'json' || 'json_schema' in input) {
    if (!isObject(input.json_schema))
      return fail(
        input.json_schema === undefined ? 'missing' : 'dict_type',
        [...loc, 'json_schema'],
        input.json_schema === undefined ? 'Field required' : 'Input should be a valid dictionary',
        input.json_schema ?? input,
      );
    spec = { type: 'json', json_schema: input.json_schema };
  } else spec = { type: 'json', json_schema: input };
  if (spec.type !== 'json') return ok(spec);
  const size = JSON.stringify(spec.json_schema).length;
  if (size > MAX_SCHEMA_CHARS)
    return valueError(loc, `the output schema has ${size} characters; at most ${MAX_SCHEMA_CHARS} are allowed`, input);
  const depth = schemaDepth(spec.json_schema);
  if (depth > MAX_SCHEMA_DEPTH)
    return valueError(loc, `the output schema nests ${depth} levels; at most ${MAX_SCHEMA_DEPTH} are allowed`, input);
  const problem = schemaProblem(spec.json_schema);
  if (problem) return valueError(loc, `the output schema is not a valid JSON Schema: ${problem}`, input);
  return ok(spec);
};

/** `metadata`: a string to string map, its keys free of control characters. */
export const stringMapParser = (): Parser =>
  metadataParser((input, loc) => {
    if (!isObject(input)) return fail('dict_type', loc, 'Input should be a valid dictionary', input);
    const errors = Object.entries(input)
      .filter(([, v]) => typeof v !== 'string')
      .map(([k, v]) => ({ type: 'string_type', loc: [...loc, k], msg: 'Input should be a valid string', input: v }));
    return errors.length ? { ok: false, errors } : ok({ ...input });
  });

/** An optional `output_schema` field (a task's, a group input's, a group's default): one declaration of its parser and schema. */
export const OutputSchemaField = (description: string) =>
  PyField(
    outputSchemaParser(),
    { optional: true, nullable: true, description },
    { type: 'object', additionalProperties: true },
  );

/** An optional string-to-string `metadata` field, echoed back. */
export const StringMapField = (description: string) =>
  PyField(
    stringMapParser(),
    { optional: true, nullable: true, description },
    { type: 'object', additionalProperties: { type: 'string' } },
  );

export class TaskBody {
  @StrField({ optional: true, minLength: 1, description: 'The objective (alias `query`)' })
  task?: string;
  @StrField({ optional: true, minLength: 1, description: 'Alias of `task`; task wins when both are given' })
  query?: string;
  @EnumField(PROCESSORS, {
    default: 'core',
    description: 'Budget: base (<=4 steps), core (<=12), ultra (<=30, research tier)',
  })
  processor!: (typeof PROCESSORS)[number];
  @OutputSchemaField('{type: json, json_schema} | {type: text} | {type: auto} | a JSON Schema')
  output_schema?: TaskOutputSpec | null;
  @StringMapField('Echoed back')
  metadata?: Record<string, string> | null;
  @UrlField({
    optional: true,
    nullable: true,
    description: 'The finished run is POSTed here (task_run.completed|failed|cancelled)',
  })
  webhook?: string | null;
  @MaxCreditsField()
  max_credits?: number | null;
  @PreviousInteractionField()
  previous_interaction_id?: string | null;
  @IntField({ ge: 1, le: 300, default: 30, description: 'POST /v1/tasks only: how long to wait for the run to end' })
  wait_seconds!: number;
}
