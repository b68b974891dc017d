import { randomUUID } from 'node:crypto';
import { Inject } from '@nestjs/common';
import { Ctx, MessagePattern, Payload, type BaseRpcContext } from '@nestjs/microservices';
import { BusController, busHeaders } from '@app/bus';
import { CancelSearchRunRequest, type CancelSearchRunReply, StartSearchRunRequest, type StartSearchRunReply, subjects } from '@app/contracts';
import { DomainError } from '@app/domain';
import { searchRunDecider, searchRunStream } from '@app/domain/search-run';
import { EVENT_STORE, type EventStore, handleCommand } from '@app/eventstore';

/** `research.start` and `research.cancel`: commands on a run's stream; the worker does the rest. */
@BusController()
export class ResearchHandler {
  constructor(@Inject(EVENT_STORE) private readonly store: EventStore) {}

  @MessagePattern(subjects.startSearchRun)
  async start(@Payload() request: StartSearchRunRequest, @Ctx() ctx: BaseRpcContext): Promise<StartSearchRunReply> {
    const headers = busHeaders(ctx);
    if (!headers.team_id || !headers.key_id || !headers.request_id) throw new DomainError(422, 'a run needs team_id, key_id and request_id headers');
    const search_id = `search_${randomUUID()}`;
    const result = await handleCommand(
      this.store,
      searchRunStream(search_id),
      searchRunDecider,
      { type: 'RequestSearchRun', search_id, team_id: headers.team_id, key_id: headers.key_id, request_id: headers.request_id, params: request.params },
      { metadata: { team_id: headers.team_id, key_id: headers.key_id, request_id: headers.request_id, correlation_id: search_id } },
    );
    return { search_id, position: String(result.position) };
  }

  @MessagePattern(subjects.cancelSearchRun)
  async cancel(@Payload() request: CancelSearchRunRequest, @Ctx() ctx: BaseRpcContext): Promise<CancelSearchRunReply> {
    const headers = busHeaders(ctx);
    const stream = searchRunStream(request.search_id);
    const [first] = await this.store.readStream(stream, { maxCount: 1 });
    // Another team's run is answered exactly like a missing one.
    if (!first || (first.data as { team_id?: string }).team_id !== headers.team_id) throw new DomainError(404, `search run ${request.search_id} not found`);
    const result = await handleCommand(this.store, stream, searchRunDecider, { type: 'CancelSearchRun' }, {
      metadata: { team_id: headers.team_id, key_id: headers.key_id, request_id: headers.request_id, correlation_id: request.search_id },
    });
    return result.position === undefined ? {} : { position: String(result.position) };
  }
}
