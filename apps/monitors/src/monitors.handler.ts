import { randomUUID } from 'node:crypto';
import { Inject } from '@nestjs/common';
import { Ctx, MessagePattern, Payload, type BaseRpcContext } from '@nestjs/microservices';
import { BusController, busHeaders } from '@app/bus';
import {
  CreateMonitorRequest,
  type CreateMonitorReply,
  type MonitorCommandReply,
  MonitorIdRequest,
  type RunMonitorReply,
  subjects,
  UpdateMonitorRequest,
} from '@app/contracts';
import { type MonitorCommand, monitorDecider, monitorStream, Invalid } from '@app/domain';
import { EVENT_STORE, type EventStore, handleCommand } from '@app/eventstore';
import { assertOwned } from '@app/runs';
import { MonitorScheduler } from './monitor-scheduler';

type Headers = Record<string, string | undefined>;

/** Monitor commands over the bus: each a command on the monitor's stream (another team's monitor is a 404). */
@BusController()
export class MonitorsHandler {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    private readonly scheduler: MonitorScheduler,
  ) {}

  @MessagePattern(subjects.createMonitor)
  async create(@Payload() request: CreateMonitorRequest, @Ctx() ctx: BaseRpcContext): Promise<CreateMonitorReply> {
    const headers: Headers = busHeaders(ctx);
    if (!headers.team_id || !headers.key_id || !headers.request_id)
      throw new Invalid('a monitor needs team_id, key_id and request_id headers');
    const monitor_id = `mon_${randomUUID()}`;
    const result = await handleCommand(
      this.store,
      monitorStream(monitor_id),
      monitorDecider,
      {
        type: 'CreateMonitor',
        monitor_id,
        team_id: headers.team_id,
        key_id: headers.key_id,
        request_id: headers.request_id,
        settings: { ...request.settings, url: request.settings.url ?? null },
        status: request.status,
        webhook_secret: request.sealed_webhook_secret ? { ciphertext: request.sealed_webhook_secret } : null,
      },
      {
        now: this.scheduler.now(),
        metadata: {
          team_id: headers.team_id,
          key_id: headers.key_id,
          request_id: headers.request_id,
          correlation_id: monitor_id,
        },
      },
    );
    return { monitor_id, position: String(result.position) };
  }

  @MessagePattern(subjects.updateMonitor)
  async update(@Payload() request: UpdateMonitorRequest, @Ctx() ctx: BaseRpcContext): Promise<MonitorCommandReply> {
    const headers: Headers = busHeaders(ctx);
    const commands: MonitorCommand[] = [];
    const secret =
      request.sealed_webhook_secret === undefined
        ? undefined
        : request.sealed_webhook_secret === null
          ? null
          : { ciphertext: request.sealed_webhook_secret };
    commands.push({
      type: 'UpdateMonitor',
      settings: request.settings,
      ...(secret !== undefined && { webhook_secret: secret }),
    });
    if (request.status === 'paused') commands.push({ type: 'PauseMonitor' });
    if (request.status === 'active') commands.push({ type: 'ResumeMonitor' });
    return this.apply(request.monitor_id, headers, commands);
  }

  @MessagePattern(subjects.pauseMonitor)
  pause(@Payload() request: MonitorIdRequest, @Ctx() ctx: BaseRpcContext): Promise<MonitorCommandReply> {
    return this.apply(request.monitor_id, busHeaders(ctx), [{ type: 'PauseMonitor' }]);
  }

  @MessagePattern(subjects.resumeMonitor)
  resume(@Payload() request: MonitorIdRequest, @Ctx() ctx: BaseRpcContext): Promise<MonitorCommandReply> {
    return this.apply(request.monitor_id, busHeaders(ctx), [{ type: 'ResumeMonitor' }]);
  }

  @MessagePattern(subjects.deleteMonitor)
  delete(@Payload() request: MonitorIdRequest, @Ctx() ctx: BaseRpcContext): Promise<MonitorCommandReply> {
    return this.apply(request.monitor_id, busHeaders(ctx), [{ type: 'DeleteMonitor' }]);
  }

  /** Run now (also when paused): the run is started here and run by this replica; its event is recorded when it ends. */
  @MessagePattern(subjects.runMonitor)
  async run(@Payload() request: MonitorIdRequest, @Ctx() ctx: BaseRpcContext): Promise<RunMonitorReply> {
    const event_id = `mev_${randomUUID()}`;
    const reply = await this.apply(request.monitor_id, busHeaders(ctx), [
      {
        type: 'StartManualRun',
        event_id,
        worker_id: this.scheduler.workerId,
        lease_seconds: this.scheduler.leaseSeconds,
      },
    ]);
    this.scheduler.kick();
    return { event_id, position: reply.position! };
  }

  private async apply(monitorId: string, headers: Headers, commands: MonitorCommand[]): Promise<MonitorCommandReply> {
    await assertOwned(this.store, monitorStream(monitorId), headers, `Monitor ${monitorId}`);
    let position: bigint | undefined;
    for (const command of commands) {
      const result = await this.scheduler.command(monitorId, command, this.scheduler.now(), headers);
      position = result.position ?? position;
    }
    return position === undefined ? {} : { position: String(position) };
  }
}
