import { DynamicModule, Injectable, Module } from '@nestjs/common';
import { MessagePattern } from '@nestjs/microservices';
import { BusController } from '@app/bus';
import type { HealthReply, HealthStatus } from './health.dto';
import { subjects, type ServiceName } from './subjects';
import { callBus, type RequestSender } from './typed-bus';

export const healthReply = (
  service: ServiceName,
  state: { status: HealthStatus; detail?: string } = { status: 'ok' },
): HealthReply => ({
  service,
  status: state.status,
  ...(state.detail !== undefined && { detail: state.detail }),
  pid: process.pid,
  uptime_s: Math.floor(process.uptime()),
});

/** Resolves when `service` answers its health `ok`; rejects with its state and why otherwise (or the bus's error). */
export async function serviceReady(bus: RequestSender, service: ServiceName, timeoutMs: number): Promise<void> {
  const reply = await callBus(bus, subjects.health(service), {}, { timeoutMs });
  if (reply.status !== 'ok') throw new Error(`${service} is ${reply.status}: ${reply.detail ?? 'not ready'}`);
}

/**
 * What a service waits for before it can do its work, as its health reports it: `starting` while
 * one of them is pending, `failed` once one has failed (it never will), `ok` after. The gateway's
 * /readyz and a service's own readiness probe are not ready until every service is `ok`.
 */
@Injectable()
export class ServiceReadiness {
  private readonly waits: { what: string; state: 'pending' | 'done' | 'failed'; error?: string }[] = [];

  /** `what` names it in the health reply ("the search index"); `work` settles when it is done. */
  waitFor(what: string, work: Promise<unknown>): void {
    const wait: (typeof this.waits)[number] = { what, state: 'pending' };
    this.waits.push(wait);
    work.then(
      () => (wait.state = 'done'),
      (error: unknown) => {
        wait.state = 'failed';
        wait.error = error instanceof Error ? error.message : String(error);
      },
    );
  }

  get state(): { status: HealthStatus; detail?: string } {
    const failed = this.waits.find((wait) => wait.state === 'failed');
    if (failed) return { status: 'failed', detail: `${failed.what} failed: ${failed.error}`.slice(0, 1_000) };
    const pending = this.waits.filter((wait) => wait.state === 'pending');
    if (pending.length > 0)
      return { status: 'starting', detail: `waiting for ${pending.map((wait) => wait.what).join(', ')}` };
    return { status: 'ok' };
  }
}

/**
 * Answers `<service>.health`; every service app imports `HealthHandlerModule.for('<service>')`. A
 * module that imports it may inject its `ServiceReadiness` to say what the service still waits for.
 */
@Module({})
export class HealthHandlerModule {
  static for(service: ServiceName): DynamicModule {
    @BusController()
    class HealthHandler {
      constructor(private readonly readiness: ServiceReadiness) {}

      @MessagePattern(subjects.health(service))
      health(): HealthReply {
        return healthReply(service, this.readiness.state);
      }
    }
    // Distinct names: readable route logs, and the seven modules of the standalone app stay apart even
    // under Nest's opt-in 'deep-hash' module ids, which identify classes by name.
    Object.defineProperty(HealthHandler, 'name', { value: `HealthHandler_${service}` });
    return {
      module: HealthHandlerModule,
      controllers: [HealthHandler],
      providers: [ServiceReadiness],
      exports: [ServiceReadiness],
    };
  }
}
