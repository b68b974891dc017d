import { Module } from '@nestjs/common';
import { HealthHandlerModule } from '@app/contracts';

/** The monitors service: its bus handlers. Standalone imports this same module. */
@Module({ imports: [HealthHandlerModule.for('monitors')] })
export class MonitorsModule {}
