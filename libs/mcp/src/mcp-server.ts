import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  type CallToolResult,
  ListToolsRequestSchema,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import { plainJsonSchema } from '@app/domain';
import { type RestBackend, RestError } from './rest-backend';
import { type AnyTool, MCP_TOOLS } from './tools';

export const MCP_SERVER_INFO = { name: 'web-research', version: '1.0.0' };

/** Each tool's input schema as plain JSON Schema (without TypeBox's markers), as ajv and clients read it. */
const inputSchemas = new Map<string, Tool['inputSchema']>(
  MCP_TOOLS.map((tool) => [tool.name, plainJsonSchema(tool.inputSchema) as Tool['inputSchema']]),
);
const ajv = new Ajv({ allErrors: false, strict: false });
const validators = new Map<string, ValidateFunction>(
  MCP_TOOLS.map((tool) => [tool.name, ajv.compile(inputSchemas.get(tool.name)!)]),
);

/** An input error as the field and its bound: `queries: must NOT have more than 5 items`. */
function inputError(tool: AnyTool, error: ErrorObject | undefined): string {
  if (!error) return `invalid arguments for ${tool.name}`;
  const field = error.instancePath.replace(/^\//, '').replace(/\//g, '.');
  if (error.keyword === 'additionalProperties')
    return `unknown argument "${String(error.params.additionalProperty)}" (${tool.name} takes ${Object.keys(tool.inputSchema.properties).join(', ')})`;
  if (error.keyword === 'required') return `missing argument "${String(error.params.missingProperty)}"`;
  if (error.keyword === 'anyOf') return `${tool.name} needs one of: ${['queries', 'objective'].join(', ')}`;
  return `${field || 'arguments'}: ${error.message ?? 'invalid'}${error.keyword === 'enum' ? ` (${(error.params.allowedValues as unknown[]).join(', ')})` : ''}`;
}

/**
 * After a call that sent progress, how long the result waits. The SDK's client handles a
 * notification a microtask later than a response read in the same chunk, and by then has dropped
 * the call's progress handler: over stdio a burst of stages (a run already ended, or ending) would
 * be lost without this pause.
 */
const PROGRESS_SETTLE_MS = 100;

const failure = (message: string, structured?: Record<string, unknown>): CallToolResult => ({
  content: [{ type: 'text', text: message }],
  isError: true,
  ...(structured && { structuredContent: structured }),
});

const listed: Tool[] = MCP_TOOLS.map((tool) => ({
  name: tool.name,
  title: tool.title,
  description: tool.description,
  inputSchema: inputSchemas.get(tool.name)!,
  ...(tool.outputSchema && { outputSchema: tool.outputSchema }),
  annotations: { title: tool.title, ...tool.annotations },
}));

/**
 * An MCP server with the web research tools, working through `backend` (the REST API in process,
 * or a running service over HTTP). Arguments are checked against each tool's JSON Schema; a
 * refusal of a REST operation is a tool error carrying the API's `detail`. A progress
 * notification goes out for each stage of a run when the client sent a progress token.
 */
export function createMcpServer(backend: RestBackend): Server {
  const server = new Server(MCP_SERVER_INFO, {
    capabilities: { tools: { listChanged: false } },
    instructions:
      'Web research tools: web_search for ranked results with URLs, extract to read pages, deep_research for a cited report, task to fill a JSON schema from the web, findall to list entities, map to list the URLs of a site, crawl to read its pages; search and fetch follow the ChatGPT connector shapes.',
  });
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: listed }));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra): Promise<CallToolResult> => {
    const tool = MCP_TOOLS.find((candidate) => candidate.name === request.params.name);
    if (!tool)
      return failure(`unknown tool "${request.params.name}"; the tools are ${MCP_TOOLS.map((t) => t.name).join(', ')}`);
    const args = request.params.arguments ?? {};
    const validate = validators.get(tool.name)!;
    if (!validate(args)) return failure(inputError(tool, validate.errors?.[0]));
    const token = request.params._meta?.progressToken;
    let step = 0;
    const progress = async (message: string) => {
      if (token === undefined || extra.signal.aborted) return;
      step += 1;
      await extra
        .sendNotification({
          method: 'notifications/progress',
          params: { progressToken: token, progress: step, message },
        })
        .catch(() => undefined);
    };
    try {
      const outcome = await tool.run(args, { rest: backend, signal: extra.signal, progress });
      if (step > 0) await new Promise((resolve) => setTimeout(resolve, PROGRESS_SETTLE_MS));
      return { content: [{ type: 'text', text: outcome.text }], structuredContent: outcome.structured };
    } catch (error) {
      // A tool with an output schema answers only its own shape as structured content.
      if (error instanceof RestError)
        return failure(
          error.message,
          tool.outputSchema ? undefined : { status: error.status, detail: error.detail as never },
        );
      if (extra.signal.aborted) return failure('the call was cancelled');
      return failure(`the service could not be reached: ${(error as Error).message}`);
    }
  });
  return server;
}
