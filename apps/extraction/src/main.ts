import { runService } from '@app/platform/core/run-service';
import { ExtractionModule } from './extraction.module';

runService('extraction', () => ExtractionModule);
