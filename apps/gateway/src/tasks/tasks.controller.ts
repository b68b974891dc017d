import { Body, Controller, Get, Headers, HttpCode, Param, Post, Query, Req, Res } from '@nestjs/common';
import { ApiAcceptedResponse, ApiBearerAuth, ApiOkResponse, ApiOperation, ApiProduces, ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { type RequestOf, subjects } from '@app/contracts';
import { taskRuns, type TaskRunView } from '@app/domain/task-run';
import { RequestValidationError } from '@app/platform/http';
import { AnswersWithin, waitSecondsOf } from '../http/answer-wait';
import { Auth, type AuthContext, type AuthedRequest } from '../auth/auth.context';
import { ServiceCalls } from '../commands/service-calls';
import { RunHttp, type RunHistory } from '../runs/run-http';
import { StreamQuery } from '../searches/searches.dto';
import { EventsPageQuery, RunIdParams, TaskBody, TaskIdParams, TaskListDto, TaskListQuery, TaskRunViewDto } from './tasks.dto';

/**
 * Task runs (spec "Task run"; API.md "Routes"): create (at once, or waiting up to wait_seconds),
 * list, view, cancel, the recorded events page, the audit history and the SSE stream (the
 * WebSocket is in streams/run-sockets.ts). Everything run-shaped is RunHttp's.
 */
@ApiTags('Tasks')
@ApiBearerAuth()
@Controller('v1/tasks')
export class TasksController {
  constructor(
    private readonly runs: RunHttp,
    private readonly calls: ServiceCalls,
  ) {}

  @Post('runs')
  @HttpCode(202)
  @ApiOperation({ summary: 'Create task run: answers 202 at once with the queued run' })
  @ApiAcceptedResponse({ type: TaskRunViewDto })
  async createRun(@Auth() auth: AuthContext, @Req() req: AuthedRequest, @Body() body: TaskBody): Promise<TaskRunView> {
    return this.runs.viewAsRequested(taskRuns, auth, await this.start(auth, req.id, body));
  }

  @Post()
  @AnswersWithin(waitSecondsOf)
  @ApiOperation({ summary: 'Task: creates a run and waits up to wait_seconds; 200 when it ended within the wait, else 202' })
  @ApiOkResponse({ type: TaskRunViewDto, description: 'the run ended within the wait (whatever its status)' })
  @ApiAcceptedResponse({ type: TaskRunViewDto, description: 'still queued or running: poll or stream it' })
  async create(@Auth() auth: AuthContext, @Req() req: AuthedRequest & FastifyRequest, @Body() body: TaskBody, @Res({ passthrough: true }) reply: FastifyReply): Promise<TaskRunView> {
    return this.runs.viewWhenEnded(taskRuns, auth, await this.start(auth, req.id, body), body.wait_seconds * 1000, req, reply);
  }

  @Get()
  @ApiOperation({ summary: 'Task List (newest first); items are full views' })
  @ApiOkResponse({ type: TaskListDto })
  async list(@Auth() auth: AuthContext, @Query() query: TaskListQuery) {
    const { items, total } = await this.runs.list(taskRuns, auth, query, query.status);
    return { tasks: items, total, limit: query.limit, offset: query.offset };
  }

  @Get('runs/:run_id')
  @ApiOperation({ summary: 'Retrieve task run (the same view as GET /v1/tasks/{task_id})' })
  @ApiOkResponse({ type: TaskRunViewDto })
  retrieveRun(@Auth() auth: AuthContext, @Param() params: RunIdParams): Promise<TaskRunView> {
    return this.runs.view(taskRuns, auth, params.run_id);
  }

  @Get('runs/:run_id/events')
  @ApiOperation({ summary: 'Stream task run events: server-sent events, resumable with Last-Event-ID' })
  @ApiProduces('text/event-stream')
  stream(
    @Auth() auth: AuthContext,
    @Req() req: AuthedRequest,
    @Param() params: RunIdParams,
    @Query() query: StreamQuery,
    @Headers('last-event-id') lastEventId: string | undefined,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    return this.runs.sse(taskRuns, auth, params.run_id, req.id, lastEventId ?? query.last_event_id, reply);
  }

  @Get(':task_id')
  @ApiOperation({ summary: 'Retrieve a task: status, then output and its per-field basis once completed' })
  @ApiOkResponse({ type: TaskRunViewDto })
  view(@Auth() auth: AuthContext, @Param() params: TaskIdParams): Promise<TaskRunView> {
    return this.runs.view(taskRuns, auth, params.task_id);
  }

  @Get(':task_id/events')
  @ApiOperation({ summary: 'Task Events: the run’s recorded public events, oldest first, as a page' })
  events(@Auth() auth: AuthContext, @Param() params: TaskIdParams, @Query() query: EventsPageQuery) {
    return this.runs.recorded(taskRuns, auth, params.task_id, query);
  }

  @Post(':task_id/cancel')
  @HttpCode(200)
  @ApiOperation({ summary: 'Task Cancel: work stops at once; cancelling a completed or failed run is a 409' })
  @ApiOkResponse({ type: TaskRunViewDto })
  async cancel(@Auth() auth: AuthContext, @Req() req: AuthedRequest, @Param() params: TaskIdParams): Promise<TaskRunView> {
    await this.runs.owned(taskRuns, auth, params.task_id);
    await this.calls.send(subjects.cancelTaskRun, { task_id: params.task_id }, auth, req.id);
    return this.runs.viewAfterWrite(taskRuns, auth, params.task_id);
  }

  @Get(':task_id/history')
  @ApiOperation({ summary: 'Every event of the run, oldest first (audit)' })
  history(@Auth() auth: AuthContext, @Param() params: TaskIdParams): Promise<RunHistory> {
    return this.runs.history(taskRuns, auth, params.task_id);
  }

  private async start(auth: AuthContext, requestId: string, body: TaskBody): Promise<string> {
    const task = body.task ?? body.query;
    if (task === undefined) {
      throw new RequestValidationError([{ type: 'missing', loc: ['body', 'task'], msg: 'Field required', input: body }]);
    }
    const params: RequestOf<typeof subjects.startTaskRun>['params'] = {
      task,
      processor: body.processor,
      output_schema: body.output_schema ?? { type: 'auto' },
      metadata: body.metadata ?? null,
      webhook: body.webhook ?? null,
    };
    await this.runs.assertRoomToQueue(auth);
    const { task_id } = await this.calls.send(subjects.startTaskRun, { params }, auth, requestId);
    return task_id;
  }
}
