import { Body, Controller, Get, Headers, HttpCode, Param, Post, Query, Req, Res } from '@nestjs/common';
import { ApiAcceptedResponse, ApiBearerAuth, ApiOkResponse, ApiOperation, ApiProduces, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { TaskGroupRunSchema, TaskGroupStatusSchema, TaskGroupViewSchema, type TaskGroupView } from '@app/domain';
import { StrField } from '@app/platform';
import { Auth, type AuthContext, type AuthedRequest } from '../auth/auth.context';
import { idempotentRequestOf } from '../http/idempotency';
import { contractRef } from '../openapi/contract-schemas';
import { type TaskGroupRunItem, TaskGroups } from './task-groups';
import {
  TaskGroupCreateBody,
  TaskGroupEventsQuery,
  TaskGroupListQuery,
  TaskGroupRunsBody,
  TaskGroupRunsQuery,
} from './task-groups.dto';

const group = contractRef(TaskGroupViewSchema);

class TaskGroupParams {
  @StrField({ minLength: 1, maxLength: 100, pattern: '^tgrp_[0-9a-f]{32}$', description: 'tgrp_ and 32 hex digits' })
  id!: string;
}

/**
 * Task groups (API.md "Task groups"; Parallel's Task Group API): many task runs made and followed
 * together, their runs waiting in the group rather than in the team's queue.
 */
@ApiTags('Task groups')
@ApiBearerAuth()
@Controller('v1/tasks/groups')
export class TaskGroupsController {
  constructor(private readonly groups: TaskGroups) {}

  @Post()
  @HttpCode(200)
  @ApiOperation({ summary: 'Create a task group' })
  @ApiOkResponse({ schema: group })
  create(
    @Auth() auth: AuthContext,
    @Req() req: AuthedRequest,
    @Body() body: TaskGroupCreateBody,
  ): Promise<TaskGroupView> {
    return this.groups.create(auth, req.id, body);
  }

  @Get()
  @ApiOperation({ summary: "The team's task groups, newest first" })
  @ApiOkResponse({
    schema: {
      type: 'object',
      required: ['items', 'total', 'limit', 'offset'],
      properties: {
        items: { type: 'array', items: group },
        total: { type: 'integer' },
        limit: { type: 'integer' },
        offset: { type: 'integer' },
      },
    },
  })
  async list(@Auth() auth: AuthContext, @Query() query: TaskGroupListQuery) {
    return { ...(await this.groups.list(auth, query.limit, query.offset)), limit: query.limit, offset: query.offset };
  }

  @Get(':id')
  @ApiOperation({ summary: 'A task group and its runs counted by status' })
  @ApiOkResponse({ schema: group })
  view(@Auth() auth: AuthContext, @Param() params: TaskGroupParams): Promise<TaskGroupView> {
    return this.groups.view(auth, params.id);
  }

  @Post(':id/runs')
  @HttpCode(202)
  @ApiOperation({
    summary: 'Add 1 to 1,000 task runs to the group; a bad input is a 422 naming its index, and none is added',
  })
  @ApiAcceptedResponse({
    schema: {
      type: 'object',
      properties: { run_ids: { type: 'array', items: { type: 'string' } }, status: contractRef(TaskGroupStatusSchema) },
    },
  })
  addRuns(
    @Auth() auth: AuthContext,
    @Req() req: AuthedRequest,
    @Param() params: TaskGroupParams,
    @Body() body: TaskGroupRunsBody,
  ) {
    return this.groups.addRuns(auth, req.id, params.id, body, idempotentRequestOf(req));
  }

  @Get(':id/runs')
  @ApiOperation({ summary: "The group's runs in the order they were added, a page after the cursor" })
  @ApiOkResponse({
    schema: {
      type: 'object',
      required: ['runs', 'next_cursor'],
      properties: {
        runs: { type: 'array', items: contractRef(TaskGroupRunSchema) },
        next_cursor: { type: 'string', nullable: true, description: 'after= for the next page; null on the last' },
      },
    },
  })
  listRuns(
    @Auth() auth: AuthContext,
    @Param() params: TaskGroupParams,
    @Query() query: TaskGroupRunsQuery,
  ): Promise<{ runs: TaskGroupRunItem[]; next_cursor: string | null }> {
    return this.groups.listRuns(auth, params.id, query);
  }

  @Get(':id/events')
  @ApiOperation({
    summary:
      "The group's events: server-sent events (task_group_status, and task_run.state as each run ends), resumable with Last-Event-ID",
  })
  @ApiProduces('text/event-stream')
  @ApiOkResponse({
    description:
      "Server-sent events: `event: task_group_status` (the group's status, no id) at once, at most every second and at the end; `event: task_run.state` with `id:` (resume after it) and `data: {type, run: {run_id, status, is_active, created_at, modified_at, metadata, error}, input?, output?}` once per run that ends. Open while a run of the group has not ended.",
    content: { 'text/event-stream': { schema: { type: 'string' } } },
  })
  events(
    @Auth() auth: AuthContext,
    @Req() req: AuthedRequest,
    @Param() params: TaskGroupParams,
    @Query() query: TaskGroupEventsQuery,
    @Headers('last-event-id') lastEventId: string | undefined,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    return this.groups.sse(auth, params.id, req.id, lastEventId ?? query.last_event_id, query, reply);
  }

  @Post(':id/cancel')
  @HttpCode(200)
  @ApiOperation({ summary: 'Cancel the group: its queued and running runs are cancelled, its ended ones kept' })
  @ApiOkResponse({ schema: group })
  cancel(
    @Auth() auth: AuthContext,
    @Req() req: AuthedRequest,
    @Param() params: TaskGroupParams,
  ): Promise<TaskGroupView> {
    return this.groups.cancel(auth, req.id, params.id);
  }
}
