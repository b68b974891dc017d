import { Module } from '@nestjs/common';
import { ScheduleModule } from '@nestjs/schedule';
import { CONFIG, type Config } from '@app/config';
import { HealthHandlerModule } from '@app/contracts';
import { createLanguageModel, LANGUAGE_MODEL } from '@app/language';
import { MonitorClock } from './monitor-clock';
import { MonitorRunner } from './monitor-runner';
import { MonitorScheduler } from './monitor-scheduler';
import { MonitorsHandler } from './monitors.handler';

/** The monitors service: monitor commands, the due check and the runs. Standalone imports this same module. */
@Module({
  imports: [HealthHandlerModule.for('monitors'), ScheduleModule.forRoot()],
  controllers: [MonitorsHandler],
  providers: [
    { provide: LANGUAGE_MODEL, inject: [CONFIG], useFactory: (config: Config) => createLanguageModel(config) },
    MonitorClock,
    MonitorRunner,
    MonitorScheduler,
  ],
})
export class MonitorsModule {}
