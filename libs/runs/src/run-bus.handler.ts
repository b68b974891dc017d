import { randomUUID } from 'node:crypto';
import { Inject, type Type } from '@nestjs/common';
import { Ctx, MessagePattern, Payload, type BaseRpcContext } from '@nestjs/microservices';
import { BusController, busHeaders } from '@app/bus';
import {
  ReopenRunRequest,
  type RunCommandReply,
  RunIdRequest,
  type RunServiceName,
  runSubjects,
  type StartRunReply,
  StartRunRequest,
} from '@app/contracts';
import { type RunKind, Invalid } from '@app/domain';
import { EVENT_STORE, type EventStore } from '@app/eventstore';
import { cancelRun, reopenRun, requestRun } from './run-commands';
import { RUN_KIND_LIST } from './run-kinds.token';

/**
 * The bus handler of a service that works runs: requests, cancels and reopens for every kind the
 * list gives it (commands on the run's stream; the worker does the rest). One per service.
 */
export function runBusHandler(service: RunServiceName): Type {
  const subjects = runSubjects(service);

  @BusController()
  class RunBusHandler {
    constructor(
      @Inject(EVENT_STORE) private readonly store: EventStore,
      @Inject(RUN_KIND_LIST) private readonly kinds: readonly RunKind[],
    ) {}

    private kindOf(name: string): RunKind {
      const kind = this.kinds.find((k) => k.name === name && k.service === service);
      if (!kind)
        throw new Invalid(
          `kind must be one of ${this.kinds
            .filter((k) => k.service === service)
            .map((k) => k.name)
            .join(', ')}; got ${JSON.stringify(name)}`,
        );
      return kind;
    }

    @MessagePattern(subjects.start)
    async start(@Payload() request: StartRunRequest, @Ctx() ctx: BaseRpcContext): Promise<StartRunReply> {
      const kind = this.kindOf(request.kind);
      if (request.id !== undefined && !request.id.startsWith(kind.idPrefix))
        throw new Invalid(`id must start with ${kind.idPrefix}; got ${JSON.stringify(request.id)}`);
      const id = request.id ?? `${kind.idPrefix}${randomUUID()}`;
      const { position } = await requestRun(this.store, kind, id, request.params, busHeaders(ctx));
      return { id, position };
    }

    @MessagePattern(subjects.cancel)
    cancel(@Payload() request: RunIdRequest, @Ctx() ctx: BaseRpcContext): Promise<RunCommandReply> {
      return cancelRun(this.store, this.kindOf(request.kind), request.id, busHeaders(ctx));
    }

    @MessagePattern(subjects.reopen)
    reopen(@Payload() request: ReopenRunRequest, @Ctx() ctx: BaseRpcContext): Promise<RunCommandReply> {
      return reopenRun(
        this.store,
        this.kindOf(request.kind),
        request.id,
        busHeaders(ctx),
        request.reason,
        request.detail,
      );
    }
  }
  Object.defineProperty(RunBusHandler, 'name', { value: `RunBusHandler_${service}` });
  return RunBusHandler;
}
