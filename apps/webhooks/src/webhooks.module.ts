import { Module } from '@nestjs/common';
import { HealthHandlerModule } from '@app/contracts';

/** The webhooks service: its bus handlers. Standalone imports this same module. */
@Module({ imports: [HealthHandlerModule.for('webhooks')] })
export class WebhooksModule {}
