import { runService } from '@app/platform/core/run-service';
import { WebhooksModule } from './webhooks.module';

runService('webhooks', () => WebhooksModule);
