import { runService } from '@app/platform';
import { ExtractionModule } from './extraction.module';

runService('extraction', () => ExtractionModule);
