import { Module } from '@nestjs/common';
import { HealthHandlerModule } from '@app/contracts';

/** The search service: its bus handlers. Standalone imports this same module. */
@Module({ imports: [HealthHandlerModule.for('search')] })
export class SearchModule {}
