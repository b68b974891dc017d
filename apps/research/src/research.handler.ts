import { randomUUID } from 'node:crypto';
import { Inject } from '@nestjs/common';
import { Ctx, MessagePattern, Payload, type BaseRpcContext } from '@nestjs/microservices';
import { BusController, busHeaders } from '@app/bus';
import {
  CancelSearchRunRequest,
  type CancelSearchRunReply,
  CancelTaskRunRequest,
  type CancelTaskRunReply,
  StartChatRequest,
  type StartChatReply,
  StartSearchRunRequest,
  type StartSearchRunReply,
  StartTaskRunRequest,
  type StartTaskRunReply,
  subjects,
} from '@app/contracts';
import { chatRuns } from '@app/domain/chat';
import { searchRuns } from '@app/domain/search-run';
import { taskRuns } from '@app/domain/task-run';
import { EVENT_STORE, type EventStore } from '@app/eventstore';
import { cancelRun, requestRun } from '@app/runs';

/** Run requests and cancels: commands on a run's stream; the worker does the rest. */
@BusController()
export class ResearchHandler {
  constructor(@Inject(EVENT_STORE) private readonly store: EventStore) {}

  @MessagePattern(subjects.startSearchRun)
  async start(@Payload() request: StartSearchRunRequest, @Ctx() ctx: BaseRpcContext): Promise<StartSearchRunReply> {
    const search_id = `search_${randomUUID()}`;
    const { position } = await requestRun(this.store, searchRuns, search_id, request.params, busHeaders(ctx));
    return { search_id, position };
  }

  @MessagePattern(subjects.cancelSearchRun)
  cancel(@Payload() request: CancelSearchRunRequest, @Ctx() ctx: BaseRpcContext): Promise<CancelSearchRunReply> {
    return cancelRun(this.store, searchRuns, request.search_id, busHeaders(ctx));
  }

  @MessagePattern(subjects.startTaskRun)
  async startTask(@Payload() request: StartTaskRunRequest, @Ctx() ctx: BaseRpcContext): Promise<StartTaskRunReply> {
    const task_id = `task_${randomUUID()}`;
    const { position } = await requestRun(this.store, taskRuns, task_id, request.params, busHeaders(ctx));
    return { task_id, position };
  }

  @MessagePattern(subjects.cancelTaskRun)
  cancelTask(@Payload() request: CancelTaskRunRequest, @Ctx() ctx: BaseRpcContext): Promise<CancelTaskRunReply> {
    return cancelRun(this.store, taskRuns, request.task_id, busHeaders(ctx));
  }

  @MessagePattern(subjects.startChat)
  async startChat(@Payload() request: StartChatRequest, @Ctx() ctx: BaseRpcContext): Promise<StartChatReply> {
    const id = `chatcmpl-${randomUUID()}`;
    const { position } = await requestRun(this.store, chatRuns, id, request.params, busHeaders(ctx));
    return { id, position };
  }
}
