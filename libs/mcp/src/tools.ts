/**
 * The MCP tools, in the order clients list them; each is defined with the others of its kind
 * (search-tools.ts, run-tools.ts, site-tools.ts, connector-tools.ts) from the pieces in tool-kit.ts.
 */
import { connectorFetch, connectorSearch } from './connector-tools';
import { getTaskGroup, taskGroup } from './group-tools';
import { deepResearch, findAll, getFindAll, getResearch, getTask, task } from './run-tools';
import { extract, webSearch } from './search-tools';
import { crawl, getCrawl, map } from './site-tools';
import type { AnyTool } from './tool-kit';

export { type AnyTool, MCP_TOOL_BOUNDS, type ToolDefinition, type ToolOutcome } from './tool-kit';

/** Every tool, in the order clients list them. */
export const MCP_TOOLS: readonly AnyTool[] = [
  webSearch,
  extract,
  deepResearch,
  getResearch,
  task,
  getTask,
  taskGroup,
  getTaskGroup,
  findAll,
  getFindAll,
  map,
  crawl,
  getCrawl,
  connectorSearch,
  connectorFetch,
];
