import { Controller, Get, Param } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiProperty, ApiTags } from '@nestjs/swagger';
import { PROCESSOR_BUDGETS, TASK_PROCESSORS, type TaskProcessor } from '@app/domain';
import { notFound, StrField } from '@app/platform';

/** When the three models were first offered (OpenAI's `created`: Unix seconds). */
const CREATED = Date.UTC(2026, 0, 1) / 1000;

interface Model {
  id: TaskProcessor;
  object: 'model';
  created: number;
  owned_by: string;
  /** Beyond OpenAI's fields: the research budget the model stands for. */
  research_steps: number;
}

const model = (id: TaskProcessor): Model => ({
  id,
  object: 'model',
  created: CREATED,
  owned_by: 'web-research',
  research_steps: PROCESSOR_BUDGETS[id].steps,
});

/** A model in the OpenAPI document; `implements` keeps it in step with what is sent. */
class ModelDto implements Model {
  @ApiProperty({ enum: TASK_PROCESSORS }) id!: TaskProcessor;
  @ApiProperty({ enum: ['model'] }) object!: 'model';
  @ApiProperty({ type: 'integer', description: 'Unix seconds' }) created!: number;
  @ApiProperty() owned_by!: string;
  @ApiProperty({ type: 'integer', description: 'Research steps the model may take' }) research_steps!: number;
}

class ModelListDto {
  @ApiProperty({ enum: ['list'] }) object!: 'list';
  @ApiProperty({ type: [ModelDto] }) data!: ModelDto[];
}

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
  @ApiOkResponse({ type: ModelListDto })
  list(): { object: 'list'; data: Model[] } {
    return { object: 'list', data: TASK_PROCESSORS.map(model) };
  }

  @Get(':id')
  @ApiOperation({ summary: 'Retrieve a model (OpenAI shape)' })
  @ApiOkResponse({ type: ModelDto })
  retrieve(@Param() params: ModelIdParams): Model {
    if (!(TASK_PROCESSORS as readonly string[]).includes(params.id))
      throw notFound(`Model ${params.id} not found; models are ${TASK_PROCESSORS.join(', ')}`);
    return model(params.id as TaskProcessor);
  }
}
