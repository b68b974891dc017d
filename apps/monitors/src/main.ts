import { runService } from '@app/platform';
import { MonitorsModule } from './monitors.module';

runService('monitors', () => MonitorsModule);
