import { fail, IntField, ok, type Parser, PyField, StrField, StrListField, UrlField } from '@app/platform';
import { outputSchemaParser } from '../tasks/tasks.dto';

/** `output_schema` of a FindAll run: a JSON Schema for entity objects (the tasks' rules: valid, at most 3 levels, 25,000 characters). */
const entitySchemaParser = (): Parser => {
  const asTask = outputSchemaParser();
  return (input, loc) => {
    const parsed = asTask(input, loc);
    if (!parsed.ok) return parsed;
    const spec = parsed.value as { type: string; json_schema?: Record<string, unknown> };
    return spec.type === 'json' ? ok(spec.json_schema) : fail('dict_type', loc, 'Input should be a JSON Schema object', input);
  };
};

export class FindAllBody {
  @StrField({ minLength: 1, pattern: '\\S', description: 'Description of the entity set (not blank)' }) query!: string;
  @StrListField({ optional: true, nullable: true, itemMinLength: 1, description: 'Column names for each entity row' }) fields?: string[] | null;
  @PyField(entitySchemaParser(), { optional: true, nullable: true, description: 'JSON Schema each entity must conform to; wins over fields' }, { type: 'object', additionalProperties: true })
  output_schema?: Record<string, unknown> | null;
  @IntField({ ge: 1, le: 100, default: 20 }) limit!: number;
  @UrlField({ optional: true, nullable: true, description: 'The finished run is POSTed here' }) webhook?: string | null;
  @IntField({ ge: 1, le: 300, default: 30, description: 'POST /v1/findall only: how long to wait for the run to end' }) wait_seconds!: number;
}

export class ExtendBody {
  @IntField({ ge: 1, le: 100 }) additional_limit!: number;
}

export class EnrichBody {
  @StrListField({ optional: true, nullable: true, itemMinLength: 1 }) fields?: string[] | null;
  @PyField(entitySchemaParser(), { optional: true, nullable: true }, { type: 'object', additionalProperties: true }) output_schema?: Record<string, unknown> | null;
}


export class FindAllIdParams {
  @StrField({ minLength: 1, maxLength: 200 }) findall_id!: string;
}
