import { Body, Controller, HttpCode, Post, Req, Res } from '@nestjs/common';
import { ApiAcceptedResponse, ApiBearerAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { type TaskParams, taskRuns, type TaskRunView, TaskRunViewSchema } from '@app/domain';
import { RequestValidationError } from '@app/platform';
import { AnswersWithin, waitSecondsOf } from '../http/answer-wait';
import { Auth, type AuthContext, type AuthedRequest } from '../auth/auth.context';
import { RunHttp } from '../runs/run-http';
import { contractRef } from '../openapi/contract-schemas';
import { TaskBody } from './tasks.dto';
import { maxCreditsParam } from '../runs/max-credits.field';
import { FollowUps } from '../runs/follow-ups';

const taskRun = contractRef(TaskRunViewSchema);

/**
 * Task runs (spec "Task run"; API.md "Routes"): creation, at once or waiting up to wait_seconds.
 * List, view, cancel, events, history and streams are the kind's run routes (runs/run-routes.ts).
 */
@ApiTags('Tasks')
@ApiBearerAuth()
@Controller('v1/tasks')
export class TasksController {
  constructor(
    private readonly runs: RunHttp,
    private readonly followUps: FollowUps,
  ) {}

  @Post('runs')
  @HttpCode(202)
  @ApiOperation({ summary: 'Create task run: answers 202 at once with the queued run' })
  @ApiAcceptedResponse({ schema: taskRun })
  async createRun(@Auth() auth: AuthContext, @Req() req: AuthedRequest, @Body() body: TaskBody): Promise<TaskRunView> {
    return this.runs.viewAsRequested(taskRuns, auth, await this.start(auth, req.id, body));
  }

  @Post()
  @AnswersWithin(waitSecondsOf)
  @ApiOperation({
    summary: 'Task: creates a run and waits up to wait_seconds; 200 when it ended within the wait, else 202',
  })
  @ApiOkResponse({ schema: taskRun, description: 'the run ended within the wait (whatever its status)' })
  @ApiAcceptedResponse({ schema: taskRun, description: 'still queued or running: poll or stream it' })
  async create(
    @Auth() auth: AuthContext,
    @Req() req: AuthedRequest & FastifyRequest,
    @Body() body: TaskBody,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<TaskRunView> {
    return this.runs.viewWhenEnded(
      taskRuns,
      auth,
      await this.start(auth, req.id, body),
      body.wait_seconds * 1000,
      req,
      reply,
    );
  }

  private async start(auth: AuthContext, requestId: string, body: TaskBody): Promise<string> {
    const task = body.task ?? body.query;
    if (task === undefined) {
      throw new RequestValidationError([
        { type: 'missing', loc: ['body', 'task'], msg: 'Field required', input: body },
      ]);
    }
    const params: TaskParams = {
      task,
      processor: body.processor,
      output_schema: body.output_schema ?? { type: 'auto' },
      metadata: body.metadata ?? null,
      webhook: body.webhook ?? null,
      ...maxCreditsParam(body),
      ...(body.previous_interaction_id && {
        follows: await this.followUps.contextFor(auth, body.previous_interaction_id),
      }),
    };
    return this.runs.request(taskRuns, auth, requestId, params);
  }
}
