import { Module } from '@nestjs/common';
import { HealthHandlerModule } from '@app/contracts';

/** The research service: its bus handlers. Standalone imports this same module. */
@Module({ imports: [HealthHandlerModule.for('research')] })
export class ResearchModule {}
