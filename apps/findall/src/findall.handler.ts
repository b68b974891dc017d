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
import { DomainError } from '@app/domain';
import { findAllRuns } from '@app/domain/findall';
import { streamOf } from '@app/domain/run';
import { EVENT_STORE, type EventStore, handleCommand } from '@app/eventstore';
import { cancelRun, requestRun } from '@app/runs';

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
    return this.reopen(request.findall_id, busHeaders(ctx), 'extend', { additional_limit: request.additional_limit });
  }

  @MessagePattern(subjects.enrichFindAll)
  enrich(@Payload() request: EnrichFindAllRequest, @Ctx() ctx: BaseRpcContext): Promise<FindAllCommandReply> {
    return this.reopen(request.findall_id, busHeaders(ctx), 'enrich', { enrichment_id: `enrich_${randomUUID()}`, fields: request.fields ?? null, output_schema: request.output_schema ?? null });
  }

  private async reopen(id: string, caller: Record<string, string | undefined>, reason: string, detail: Record<string, unknown>): Promise<FindAllCommandReply> {
    const stream = streamOf(findAllRuns, id);
    const [first] = await this.store.readStream(stream, { maxCount: 1 });
    if (!first || (first.data as { team_id?: string }).team_id !== caller.team_id) throw new DomainError(404, `FindAll run ${id} not found`);
    const command = { type: 'ReopenRun', reason, detail };
    const result = await handleCommand(this.store, stream, findAllRuns.decider, command, {
      metadata: { team_id: caller.team_id, key_id: caller.key_id, request_id: caller.request_id, correlation_id: id },
    });
    return result.position === undefined ? {} : { position: String(result.position) };
  }
}
