import { randomUUID } from 'node:crypto';
import { Inject } from '@nestjs/common';
import { Ctx, MessagePattern, Payload, type BaseRpcContext } from '@nestjs/microservices';
import { BusController, busHeaders } from '@app/bus';
import {
  EnrichFindAllRequest,
  ExtendFindAllRequest,
  type FindAllCommandReply,
  FindAllIdRequest,
  StartFindAllRequest,
  type StartFindAllReply,
  subjects,
} from '@app/contracts';
import { findAllRuns } from '@app/domain/findall';
import { EVENT_STORE, type EventStore } from '@app/eventstore';
import { cancelRun, reopenRun, requestRun } from '@app/runs';

/** FindAll requests, cancels, extends and enrichments: commands on a run's stream; the worker does the rest. */
@BusController()
export class FindAllHandler {
  constructor(@Inject(EVENT_STORE) private readonly store: EventStore) {}

  @MessagePattern(subjects.startFindAll)
  async start(@Payload() request: StartFindAllRequest, @Ctx() ctx: BaseRpcContext): Promise<StartFindAllReply> {
    const findall_id = `findall_${randomUUID()}`;
    const { position } = await requestRun(this.store, findAllRuns, findall_id, request.params, busHeaders(ctx));
    return { findall_id, position };
  }

  @MessagePattern(subjects.cancelFindAll)
  cancel(@Payload() request: FindAllIdRequest, @Ctx() ctx: BaseRpcContext): Promise<FindAllCommandReply> {
    return cancelRun(this.store, findAllRuns, request.findall_id, busHeaders(ctx));
  }

  @MessagePattern(subjects.extendFindAll)
  extend(@Payload() request: ExtendFindAllRequest, @Ctx() ctx: BaseRpcContext): Promise<FindAllCommandReply> {
    return reopenRun(this.store, findAllRuns, request.findall_id, busHeaders(ctx), 'extend', { additional_limit: request.additional_limit });
  }

  @MessagePattern(subjects.enrichFindAll)
  enrich(@Payload() request: EnrichFindAllRequest, @Ctx() ctx: BaseRpcContext): Promise<FindAllCommandReply> {
    return reopenRun(this.store, findAllRuns, request.findall_id, busHeaders(ctx), 'enrich', { enrichment_id: `enrich_${randomUUID()}`, fields: request.fields ?? null, output_schema: request.output_schema ?? null });
  }
}
