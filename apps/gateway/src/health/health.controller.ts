import { Controller, Get, Header, Inject, Optional, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { BusClient } from '@app/bus';
import { SERVICES, serviceReady } from '@app/contracts';
import { EVENT_STORE, type EventStore } from '@app/eventstore';
import { Projector, READ_STORE, type ReadStore } from '@app/readmodels';
import { Public } from '../auth/auth.context';
import { HttpMetrics } from '../http/metrics';
import { GatewayDrain } from '../streams/drain';

type Check = { ok: boolean; ms: number; error?: string };

const timed = async (probe: () => Promise<unknown>): Promise<Check> => {
  const started = performance.now();
  try {
    await probe();
    return { ok: true, ms: Math.round(performance.now() - started) };
  } catch (error) {
    return { ok: false, ms: Math.round(performance.now() - started), error: (error as Error).message };
  }
};

/** How long one readiness check answers every /readyz. */
const READY_CACHE_MS = 1_000;

type Readiness = { status: 'ready' | 'not_ready'; checks: Record<string, unknown> };

/** Liveness, readiness (event log, read store, every service over the bus) and Prometheus metrics. */
@ApiExcludeController()
@Public()
@Controller()
export class HealthController {
  constructor(
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(READ_STORE) private readonly reads: ReadStore,
    private readonly bus: BusClient,
    private readonly metrics: HttpMetrics,
    private readonly drain: GatewayDrain,
    @Optional() private readonly projector?: Projector,
  ) {}

  @Get('healthz')
  healthz() {
    return { status: 'ok' };
  }

  /** The last readiness check, shared by every /readyz within READY_CACHE_MS (the route is public: a flood of probes fans out once a second). */
  private lastCheck: { at: number; result: Promise<Readiness> } | undefined;

  @Get('readyz')
  async readyz(@Res({ passthrough: true }) reply: FastifyReply) {
    if (this.drain.draining) {
      // Stopping: the balancer is to send new requests elsewhere (those in flight are answered).
      reply.status(503).header('Retry-After', '5');
      return { status: 'draining', checks: {} };
    }
    const now = Date.now();
    if (!this.lastCheck || now - this.lastCheck.at >= READY_CACHE_MS)
      this.lastCheck = { at: now, result: this.check() };
    const result = await this.lastCheck.result;
    if (result.status !== 'ready') reply.status(503).header('Retry-After', '5');
    return result;
  }

  private async check(): Promise<Readiness> {
    const [eventLog, readStore, ...services] = await Promise.all([
      timed(() => this.events.ping()),
      timed(() => this.reads.ping()),
      ...SERVICES.map((service) => timed(() => serviceReady(this.bus, service, 2_000))),
    ]);
    const bus = Object.fromEntries(SERVICES.map((service, i) => [service, services[i]]));
    // An in-process projector that gave up would serve stale keys and views: not ready.
    const projection = this.projector
      ? {
          ok: this.projector.status !== 'failed',
          status: this.projector.status,
          position: String(this.projector.position),
          dead_letters: this.projector.deadLetters,
        }
      : undefined;
    const ready = eventLog.ok && readStore.ok && services.every((check) => check.ok) && (projection?.ok ?? true);
    return {
      status: ready ? 'ready' : 'not_ready',
      checks: { event_log: eventLog, read_store: readStore, bus, ...(projection && { projector: projection }) },
    };
  }

  @Get('metrics')
  @Header('Content-Type', 'text/plain; version=0.0.4; charset=utf-8')
  metricsText() {
    if (this.projector) this.metrics.deadLetters.set(this.projector.deadLetters);
    return this.metrics.registry.metrics();
  }
}
