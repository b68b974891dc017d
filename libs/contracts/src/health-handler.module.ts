import { DynamicModule, Module } from '@nestjs/common';
import { MessagePattern } from '@nestjs/microservices';
import { BusController } from '@app/bus';
import { HealthReply } from './health.dto';
import { subjects, type ServiceName } from './subjects';

export const healthReply = (service: ServiceName): HealthReply => ({
  service,
  status: 'ok',
  pid: process.pid,
  uptime_s: Math.floor(process.uptime()),
});

/** Answers `<service>.health`; every service app imports `HealthHandlerModule.for('<service>')`. */
@Module({})
export class HealthHandlerModule {
  static for(service: ServiceName): DynamicModule {
    @BusController()
    class HealthHandler {
      @MessagePattern(subjects.health(service))
      health(): HealthReply {
        return healthReply(service);
      }
    }
    // Distinct names: readable route logs, and the seven modules of the standalone app stay apart even
    // under Nest's opt-in 'deep-hash' module ids, which identify classes by name.
    Object.defineProperty(HealthHandler, 'name', { value: `HealthHandler_${service}` });
    return { module: HealthHandlerModule, controllers: [HealthHandler] };
  }
}
