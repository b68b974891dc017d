/**
 * The MCP server over stdio (`node scripts/service.js mcp`, `npm run mcp`): the web research tools
 * for desktop agents, calling the service at WEB_RESEARCH_URL with WEB_RESEARCH_API_KEY. stdout
 * carries only MCP messages; this program's own lines go to stderr.
 */
// The contracts the tools share with the REST API are decorated classes.
import 'reflect-metadata';
import { runStdioServer } from '@app/mcp';

const log = (line: string) => process.stderr.write(`${line}\n`);

runStdioServer(process.env, log).then(
  () => process.exit(0),
  (error: unknown) => {
    log(`mcp: ${(error as Error).message}`);
    process.exit(2);
  },
);
