import { runService } from '@app/platform/core/run-service';
import { ResearchModule } from './research.module';

runService('research', () => ResearchModule);
