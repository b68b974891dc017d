import { runService } from '@app/platform';
import { WebhooksModule } from './webhooks.module';

runService('webhooks', () => WebhooksModule);
