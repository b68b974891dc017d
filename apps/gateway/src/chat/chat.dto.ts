import { MaxCreditsField } from '../runs/max-credits.field';
import type { ChatMessage, ChatResponseFormat } from '@app/domain';
import {
  BoolField,
  type ErrorDetail,
  fail,
  FloatField,
  IntField,
  isObject,
  ok,
  type Parser,
  PyField,
  StrField,
} from '@app/platform';
import { schemaDepth, schemaProblem } from '@app/language';
import { MAX_SCHEMA_CHARS, MAX_SCHEMA_DEPTH } from '../tasks/tasks.dto';

const ROLES = ['system', 'developer', 'user', 'assistant', 'tool'] as const;

/**
 * `messages`: OpenAI's list of `{role, content}`, where content is a string or a list of parts
 * (`{type: "text", text}`; other part types are not read). Normalised to strings; at least one
 * message, and a user message among them.
 */
export const messagesParser = (): Parser => (input, loc) => {
  if (!Array.isArray(input)) return fail('list_type', loc, 'Input should be a valid list', input);
  if (input.length === 0)
    return fail('too_short', loc, 'List should have at least 1 item after validation, not 0', input, {
      field_type: 'List',
      min_length: 1,
      actual_length: 0,
    });
  const errors: ErrorDetail[] = [];
  const messages: ChatMessage[] = [];
  input.forEach((raw, i) => {
    const at = [...loc, i];
    if (!isObject(raw))
      return errors.push({ type: 'dict_type', loc: at, msg: 'Input should be a valid dictionary', input: raw });
    if (!(ROLES as readonly unknown[]).includes(raw.role)) {
      return errors.push({
        type: 'enum',
        loc: [...at, 'role'],
        msg: `Input should be ${ROLES.map((r) => `'${r}'`).join(', ')}`,
        input: raw.role,
        ctx: { expected: ROLES.map((r) => `'${r}'`).join(', ') },
      });
    }
    let content: string;
    if (typeof raw.content === 'string') content = raw.content;
    else if (raw.content === null || raw.content === undefined) content = '';
    else if (Array.isArray(raw.content))
      content = raw.content
        .map((part) => (isObject(part) && part.type === 'text' && typeof part.text === 'string' ? part.text : ''))
        .join('');
    else
      return errors.push({
        type: 'string_type',
        loc: [...at, 'content'],
        msg: 'Input should be a valid string',
        input: raw.content,
      });
    messages.push({ role: raw.role as ChatMessage['role'], content });
  });
  if (errors.length) return { ok: false, errors };
  if (!messages.some((m) => m.role === 'user' && m.content.trim()))
    return fail('value_error', loc, 'Value error, messages must hold a user message with text', input);
  return ok(messages);
};

/** `response_format`: `{type: text}`, `{type: json_object}` or `{type: json_schema, json_schema: {name, schema}}`. */
export const responseFormatParser = (): Parser => (input, loc) => {
  if (!isObject(input)) return fail('dict_type', loc, 'Input should be a valid dictionary', input);
  if (input.type === 'text' || input.type === 'json_object') return ok({ type: input.type });
  if (input.type !== 'json_schema')
    return fail('enum', [...loc, 'type'], "Input should be 'text', 'json_object' or 'json_schema'", input.type, {
      expected: "'text', 'json_object' or 'json_schema'",
    });
  const spec = input.json_schema;
  if (!isObject(spec) || !isObject(spec.schema))
    return fail(
      'dict_type',
      [...loc, 'json_schema', 'schema'],
      'Input should be a valid dictionary',
      isObject(spec) ? spec.schema : spec,
    );
  const size = JSON.stringify(spec.schema).length;
  if (size > MAX_SCHEMA_CHARS)
    return fail(
      'value_error',
      [...loc, 'json_schema', 'schema'],
      `Value error, the schema has ${size} characters; at most ${MAX_SCHEMA_CHARS} are allowed`,
      spec.schema,
    );
  const depth = schemaDepth(spec.schema);
  if (depth > MAX_SCHEMA_DEPTH)
    return fail(
      'value_error',
      [...loc, 'json_schema', 'schema'],
      `Value error, the schema nests ${depth} levels; at most ${MAX_SCHEMA_DEPTH} are allowed`,
      spec.schema,
    );
  const problem = schemaProblem(spec.schema);
  if (problem)
    return fail(
      'value_error',
      [...loc, 'json_schema', 'schema'],
      `Value error, not a valid JSON Schema: ${problem}`,
      spec.schema,
    );
  return ok({
    type: 'json_schema',
    json_schema: { name: typeof spec.name === 'string' ? spec.name : 'answer', schema: spec.schema },
  } satisfies ChatResponseFormat);
};

/** `stream_options`: OpenAI's `{include_usage}` (a last chunk with `usage` and no choices). */
const streamOptionsParser = (): Parser => (input, loc) => {
  if (!isObject(input)) return fail('dict_type', loc, 'Input should be a valid dictionary', input);
  const include = input.include_usage;
  if (include !== undefined && include !== null && typeof include !== 'boolean')
    return fail('bool_type', [...loc, 'include_usage'], 'Input should be a valid boolean', include);
  return ok({ include_usage: include === true });
};

/** OpenAI Chat Completions request (fields a client may also send, like `n` or `user`, are ignored). */
export class ChatBody {
  @StrField({
    minLength: 1,
    description: '`base`, `core` or `ultra` choose that budget; any other name uses core (and is echoed)',
  })
  model!: string;
  @PyField(
    messagesParser(),
    {},
    {
      type: 'array',
      items: {
        type: 'object',
        properties: { role: { type: 'string', enum: [...ROLES] }, content: { type: 'string' } },
      },
    },
  )
  messages!: ChatMessage[];
  @BoolField({ default: false, description: 'Server-sent chat.completion.chunk frames, then data: [DONE]' })
  stream!: boolean;
  @IntField({
    ge: 1,
    optional: true,
    nullable: true,
    description: 'Cap on the answer (about 4 characters a token); finish_reason is then length',
  })
  max_tokens?: number | null;
  @PyField(
    streamOptionsParser(),
    {
      optional: true,
      nullable: true,
      description: 'As OpenAI: include_usage adds a last chunk with usage and empty choices',
    },
    { type: 'object', properties: { include_usage: { type: 'boolean' } } },
  )
  stream_options?: { include_usage: boolean } | null;
  @IntField({ ge: 1, optional: true, nullable: true, description: 'Newer clients’ name for max_tokens' })
  max_completion_tokens?: number | null;
  @FloatField({
    ge: 0,
    le: 2,
    optional: true,
    nullable: true,
    description:
      'Accepted and recorded; answers use the configured model settings (the extractive engine is deterministic)',
  })
  temperature?: number | null;
  @PyField(responseFormatParser(), { optional: true, nullable: true }, { type: 'object', additionalProperties: true })
  response_format?: ChatResponseFormat | null;
  @MaxCreditsField("Not OpenAI's. ")
  max_credits?: number | null;
}
