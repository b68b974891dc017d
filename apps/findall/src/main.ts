import { runService } from '@app/platform';
import { FindallModule } from './findall.module';

runService('findall', () => FindallModule);
