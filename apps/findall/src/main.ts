import { runService } from '@app/platform/core/run-service';
import { FindallModule } from './findall.module';

runService('findall', () => FindallModule);
