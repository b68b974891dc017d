import { runService } from '@app/platform';
import { SearchModule } from './search.module';

runService('search', () => SearchModule);
