import { runService } from '@app/platform';
import { ProjectorModule } from './projector.module';

runService('projector', (config) => ProjectorModule.forConfig(config));
