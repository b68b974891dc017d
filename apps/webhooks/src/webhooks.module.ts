import { Module } from '@nestjs/common';
import { CONFIG, type Config } from '@app/config';
import { HealthHandlerModule } from '@app/contracts';
import { DELIVERY_WORKER_OPTIONS, DeliveryWorker, deliveryWorkerOptions } from './delivery-worker';

/**
 * The webhooks service: its bus handlers and the delivery worker, which follows the event log
 * (not the bus) and appends each delivery's outcome. Standalone imports this same module.
 */
@Module({
  imports: [HealthHandlerModule.for('webhooks')],
  providers: [
    {
      provide: DELIVERY_WORKER_OPTIONS,
      inject: [CONFIG],
      useFactory: (config: Config) => deliveryWorkerOptions(config),
    },
    DeliveryWorker,
  ],
})
export class WebhooksModule {}
