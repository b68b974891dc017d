import { runService } from '@app/platform/core/run-service';
import { ProjectorModule } from './projector.module';

runService('projector', (config) => ProjectorModule.forConfig(config));
