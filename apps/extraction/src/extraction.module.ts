import { Module } from '@nestjs/common';
import { HealthHandlerModule } from '@app/contracts';

/** The extraction service: its bus handlers. Standalone imports this same module. */
@Module({ imports: [HealthHandlerModule.for('extraction')] })
export class ExtractionModule {}
