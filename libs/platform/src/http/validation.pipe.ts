import {
  createParamDecorator,
  Injectable,
  Optional,
  type ArgumentMetadata,
  type ExecutionContext,
  type PipeTransform,
  type Type,
} from '@nestjs/common';
import { RequestValidationError } from './errors';
import { isObject, modelFields, validateModel, type FieldSpec, type ParseResult } from './model';

export type ParamSource = 'body' | 'query' | 'path' | 'header';

const SOURCE_OF: Partial<Record<ArgumentMetadata['type'], ParamSource>> = {
  body: 'body',
  query: 'query',
  param: 'path',
};

/**
 * Query strings and headers are multi-valued: a list field takes every value (a single one becomes a
 * one-item list), a scalar field the last one, as Starlette's `getlist()` / `get()` do.
 */
function flatten(fields: readonly FieldSpec[], input: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const f of fields) {
    const v = input[f.name];
    if (v === undefined) continue;
    out[f.name] = f.isList ? [v].flat() : Array.isArray(v) ? v[v.length - 1] : v;
  }
  return out;
}

function unwrap(r: ParseResult): unknown {
  if (!r.ok) throw new RequestValidationError(r.errors);
  return r.value;
}

/**
 * Global pipe: for a whole `@Body()`, `@Query()` or `@Param()` typed with a DTO declared through our
 * field decorators, parses laxly, drops unknown fields and throws RequestValidationError with `loc`
 * starting "body"/"query"/"path". Other parameters pass through untouched. Nest applies no pipe to
 * `@Headers()`, so headers go through `@ValidatedHeaders()` (a pipe bound to the "header" source).
 */
@Injectable()
export class PydanticValidationPipe implements PipeTransform {
  // @Optional: also usable as `{ provide: APP_PIPE, useClass: PydanticValidationPipe }`.
  constructor(@Optional() private readonly source?: ParamSource) {}

  transform(value: unknown, { type, metatype, data }: ArgumentMetadata): unknown {
    const source = this.source ?? SOURCE_OF[type];
    const fields = modelFields(metatype);
    // `@Body('x')`-style sub-values are not models FastAPI would see; leave them alone.
    if (!source || !fields || data !== undefined) return value;
    const model = metatype as Type<unknown>;
    if (source === 'body') {
      // No body, or JSON `null`: FastAPI reports the whole body as missing.
      if (value === undefined || value === null) {
        throw new RequestValidationError([{ type: 'missing', loc: ['body'], msg: 'Field required', input: null }]);
      }
      return unwrap(validateModel(model, value, ['body']));
    }
    return unwrap(validateModel(model, flatten(fields, isObject(value) ? value : {}), [source], true));
  }
}

const RequestHeaders = createParamDecorator(
  (_: unknown, ctx: ExecutionContext) => ctx.switchToHttp().getRequest().headers,
);

/** `@ValidatedHeaders() h: HeadersDto` — header fields need lower-case aliases, e.g. `alias: 'x-request-id'`. */
export const ValidatedHeaders = (): ParameterDecorator => RequestHeaders(new PydanticValidationPipe('header'));
