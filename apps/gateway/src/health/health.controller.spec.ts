import type { FastifyReply } from 'fastify';
import type { BusClient } from '@app/bus';
import type { EventStore } from '@app/eventstore';
import { MemoryReadStore } from '@app/readmodels';
import { loadConfig } from '@app/config';
import { HttpMetrics } from '../http/metrics';
import { GatewayDrain } from '../streams/drain';
import { HealthController } from './health.controller';

describe('GET /readyz (public)', () => {
  it('fans out to the services once per second however many probes arrive (it used to fan out per request)', async () => {
    // Counting stand-ins for the log and the bus: what is checked here is how often they are asked.
    let busRequests = 0;
    let pings = 0;
    const events = { ping: async () => void pings++ } as unknown as EventStore;
    const bus = { request: async () => (busRequests++, { status: 'ok' }) } as unknown as BusClient;
    const drain = new GatewayDrain(loadConfig({}));
    const controller = new HealthController(events, new MemoryReadStore(), bus, new HttpMetrics('test'), drain);
    const reply = { status: () => reply, header: () => reply } as unknown as FastifyReply;
    const answers = await Promise.all(Array.from({ length: 200 }, () => controller.readyz(reply)));
    expect(answers.every((a) => a.status === 'ready')).toBe(true);
    expect(pings).toBe(1);
    const perCheck = busRequests;
    expect(perCheck).toBeGreaterThan(0);
    await new Promise((resolve) => setTimeout(resolve, 1_050));
    await controller.readyz(reply);
    expect(busRequests).toBe(perCheck * 2);
  });

  it('answers 503 "draining" from SIGTERM on, without asking anyone: the balancer sends new requests elsewhere', async () => {
    let asked = 0;
    const events = { ping: async () => void asked++ } as unknown as EventStore;
    const bus = { request: async () => (asked++, {}) } as unknown as BusClient;
    const drain = new GatewayDrain(loadConfig({}));
    const controller = new HealthController(events, new MemoryReadStore(), bus, new HttpMetrics('test'), drain);
    let status = 200;
    const reply = { status: (s: number) => ((status = s), reply), header: () => reply } as unknown as FastifyReply;
    expect(drain.streamsEnd.aborted).toBe(false);
    await drain.beforeApplicationShutdown();
    expect(await controller.readyz(reply)).toEqual({ status: 'draining', checks: {} });
    expect(status).toBe(503);
    expect(asked).toBe(0);
    expect(drain.streamsEnd.aborted).toBe(true);
  });
});
