import { runService } from '@app/platform/core/run-service';
import { MonitorsModule } from './monitors.module';

runService('monitors', () => MonitorsModule);
