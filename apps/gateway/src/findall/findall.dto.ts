import { FINDALL_EXCLUDE_MAX, FINDALL_GENERATORS, FINDALL_PREVIEW_CANDIDATES } from '@app/domain';
import {
  EnumField,
  fail,
  IntField,
  NestedField,
  ok,
  type Parser,
  PyField,
  StrField,
  StrListField,
  UrlField,
} from '@app/platform';
import { outputSchemaParser } from '../tasks/tasks.dto';
import { MaxCreditsField } from '../runs/max-credits.field';

/** `output_schema` of a FindAll run: a JSON Schema for entity objects (the tasks' rules: valid, at most 3 levels, 25,000 characters). */
const entitySchemaParser = (): Parser => {
  const asTask = outputSchemaParser();
  return (input, loc) => {
    const parsed = asTask(input, loc);
    if (!parsed.ok) return parsed;
    const spec = parsed.value as { type: string; json_schema?: Record<string, unknown> };
    if (spec.type !== 'json') return fail('dict_type', loc, 'Input should be a JSON Schema object', input);
    // An entity is a row of fields: a schema of a string or a list would fill it with no fields.
    const type = spec.json_schema?.type;
    if (type !== undefined && type !== 'object')
      return fail(
        'value_error',
        loc,
        `Value error, an entity schema describes an object (its "type" is "object"), not ${JSON.stringify(type)}`,
        input,
      );
    const properties = spec.json_schema?.properties;
    if (typeof properties !== 'object' || properties === null || Object.keys(properties).length === 0)
      return fail(
        'value_error',
        loc,
        'Value error, an entity schema describes an object: it names its fields in "properties"',
        input,
      );
    return ok(spec.json_schema);
  };
};

/** One entity a FindAll run must not return: its name, its URL, or both (either matches). */
export class FindAllExclusionBody {
  @StrField({ optional: true, nullable: true, minLength: 1, maxLength: 500, description: 'Matched by normalised name' })
  name?: string | null;
  @UrlField({ optional: true, nullable: true, description: 'Matched by normalised URL' }) url?: string | null;
}

export class FindAllBody {
  @StrField({ minLength: 1, pattern: '\\S', description: 'Description of the entity set (not blank)' }) query!: string;
  @StrListField({ optional: true, nullable: true, itemMinLength: 1, description: 'Column names for each entity row' })
  fields?: string[] | null;
  @PyField(
    entitySchemaParser(),
    { optional: true, nullable: true, description: 'JSON Schema each entity must conform to; wins over fields' },
    { type: 'object', additionalProperties: true },
  )
  output_schema?: Record<string, unknown> | null;
  @IntField({ ge: 1, le: 100, default: 20, description: 'The run ends once this many entities match' }) limit!: number;
  @IntField({
    ge: 1,
    le: 100,
    optional: true,
    nullable: true,
    description:
      "limit under Parallel's name (the run ends once this many entities match, termination_reason limit_reached): give one of the two",
  })
  match_limit?: number | null;
  @UrlField({ optional: true, nullable: true, description: 'The finished run is POSTed here' }) webhook?: string | null;
  @NestedField(FindAllExclusionBody, {
    list: true,
    optional: true,
    nullable: true,
    maxItems: FINDALL_EXCLUDE_MAX,
    description: 'Entities never checked, returned or charged (each gives a name or a url); an extend keeps the list',
  })
  exclude_list?: FindAllExclusionBody[] | null;
  @MaxCreditsField()
  max_credits?: number | null;
  @EnumField(FINDALL_GENERATORS, {
    default: 'base',
    description: `preview: a quick look, ${FINDALL_PREVIEW_CANDIDATES} candidates checked, no field filled, only query and match SKUs charged; base: the full run`,
  })
  generator!: (typeof FINDALL_GENERATORS)[number];
  @IntField({ ge: 1, le: 300, default: 30, description: 'POST /v1/findall only: how long to wait for the run to end' })
  wait_seconds!: number;
}

export class ExtendBody {
  @IntField({ ge: 1, le: 100 }) additional_limit!: number;
}

export class EnrichBody {
  @StrListField({ optional: true, nullable: true, itemMinLength: 1 }) fields?: string[] | null;
  @PyField(entitySchemaParser(), { optional: true, nullable: true }, { type: 'object', additionalProperties: true })
  output_schema?: Record<string, unknown> | null;
}

export class FindAllIdParams {
  @StrField({ minLength: 1, maxLength: 200 }) findall_id!: string;
}
