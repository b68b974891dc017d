import { Controller, Get, Param } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { PROCESSOR_BUDGETS, type Static, StringEnum, TASK_PROCESSORS, type TaskProcessor, Type } from '@app/domain';
import { notFound, StrField } from '@app/platform';
import { contractRef } from '../openapi/contract-schemas';

/** When the three models were first offered (OpenAI's `created`: Unix seconds). */
const CREATED = Date.UTC(2026, 0, 1) / 1000;

/** A model in OpenAI's shape, with the research budget it stands for; the schema is its one declaration. */
const ModelSchema = Type.Object(
  {
    id: StringEnum(TASK_PROCESSORS),
    object: StringEnum(['model']),
    created: Type.Integer({ description: 'Unix seconds' }),
    owned_by: Type.String(),
    research_steps: Type.Integer({ description: 'Research steps the model may take' }),
  },
  { $id: 'ModelDto' },
);
type Model = Static<typeof ModelSchema>;

const ModelListSchema = Type.Object(
  { object: StringEnum(['list']), data: Type.Array(ModelSchema) },
  { $id: 'ModelListDto' },
);

const model = (id: TaskProcessor): Model => ({
  id,
  object: 'model',
  created: CREATED,
  owned_by: 'web-research',
  research_steps: PROCESSOR_BUDGETS[id].steps,
});

class ModelIdParams {
  @StrField({ minLength: 1, maxLength: 200 }) id!: string;
}

/**
 * The chat models in OpenAI's shape (API.md "Models"), so OpenAI-compatible front ends and
 * clients find them: `base`, `core` and `ultra`, the research budgets a completion may use.
 */
@ApiTags('Chat')
@ApiBearerAuth()
@Controller('v1/models')
export class ModelsController {
  @Get()
  @ApiOperation({ summary: 'List models (OpenAI shape): base, core, ultra' })
  @ApiOkResponse({ schema: contractRef(ModelListSchema) })
  list(): Static<typeof ModelListSchema> {
    return { object: 'list', data: TASK_PROCESSORS.map(model) };
  }

  @Get(':id')
  @ApiOperation({ summary: 'Retrieve a model (OpenAI shape)' })
  @ApiOkResponse({ schema: contractRef(ModelSchema) })
  retrieve(@Param() params: ModelIdParams): Model {
    if (!(TASK_PROCESSORS as readonly string[]).includes(params.id))
      throw notFound(`Model ${params.id} not found; models are ${TASK_PROCESSORS.join(', ')}`);
    return model(params.id as TaskProcessor);
  }
}
