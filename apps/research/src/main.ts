import { runService } from '@app/platform';
import { ResearchModule } from './research.module';

runService('research', () => ResearchModule);
