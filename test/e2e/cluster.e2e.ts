import { extractSuite } from './extract.blackbox';
import { searchSuite } from './search.blackbox';
import { deepSuite } from './deep.blackbox';
import { FINDALL_ROUTES, runSuite, SEARCH_ROUTES, TASK_ROUTES } from './runs.blackbox';
import { tasksSuite } from './tasks.blackbox';
import { chatSuite } from './chat.blackbox';
import { useService } from './harness';
import { platformSuite } from './platform.blackbox';

jest.setTimeout(30_000);

describe('cluster', () => {
  const ctx = useService('cluster');
  platformSuite(ctx);
  extractSuite(ctx);
  searchSuite(ctx);
  deepSuite(ctx);
  tasksSuite(ctx);
  chatSuite(ctx);
  runSuite(ctx, SEARCH_ROUTES);
  runSuite(ctx, TASK_ROUTES);
  runSuite(ctx, FINDALL_ROUTES);
});
