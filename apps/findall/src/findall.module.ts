import { Module } from '@nestjs/common';
import { HealthHandlerModule } from '@app/contracts';

/** The findall service: its bus handlers. Standalone imports this same module. */
@Module({ imports: [HealthHandlerModule.for('findall')] })
export class FindallModule {}
