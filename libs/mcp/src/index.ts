export { createMcpServer, MCP_SERVER_INFO } from './mcp-server';
export {
  describeDetail,
  HTTP_BACKEND_BOUNDS,
  HttpRestBackend,
  okBody,
  type RestBackend,
  RestError,
  type RestResponse,
  type RunEvent,
  sseEvents,
} from './rest-backend';
export { MCP_TOOL_BOUNDS, MCP_TOOLS, type ToolDefinition, type ToolOutcome } from './tools';
export { stageMessage, type ToolContext, waitForRun } from './run-wait';
export { runStdioServer } from './stdio';
