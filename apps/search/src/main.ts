import { runService } from '@app/platform/core/run-service';
import { SearchModule } from './search.module';

runService('search', () => SearchModule);
