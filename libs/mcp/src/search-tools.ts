/**
 * The tools that answer at once: web_search (POST /v1/search) and extract (POST /v1/extract).
 */
import { DEEP_SEARCH_BOUNDS, FRESHNESS } from '@app/domain';
import { EXTRACT_FORMATS } from '@app/contracts';
import { extractText, searchText } from './tool-text';
import {
  defined,
  domains,
  MCP_TOOL_BOUNDS,
  type Obj,
  post,
  queriesSchema,
  readOnly,
  schema,
  text,
  type ToolDefinition,
} from './tool-kit';

/** `web_search`'s arguments as the REST search body: an objective alone is also its query. */
function searchBody(args: Obj): Obj {
  const queries = (args.queries as string[] | undefined) ?? [
    String(args.objective).slice(0, MCP_TOOL_BOUNDS.queryChars),
  ];
  return defined({
    queries,
    objective: args.objective,
    depth: args.depth ?? 'auto',
    limit: args.limit,
    include_domains: args.include_domains,
    exclude_domains: args.exclude_domains,
    freshness: args.freshness,
  });
}

export const webSearch: ToolDefinition = {
  name: 'web_search',
  title: 'Web search',
  description:
    'Searches the web: 1 to 5 keyword queries (or an objective alone), merged and de-duplicated. Answers ranked rows with title, URL, date and excerpts. With an objective, rows are re-ranked against it and off-topic rows dropped. Charged as POST /v1/search.',
  inputSchema: schema(
    {
      queries: queriesSchema,
      objective: text(
        MCP_TOOL_BOUNDS.objectiveChars,
        'What the results are for: re-ranks the rows and drops off-topic ones',
      ),
      depth: {
        type: 'string',
        enum: ['instant', 'fast', 'auto'],
        default: 'auto',
        description: 'instant (no enrichment), fast (one results page), auto (recommended)',
      },
      limit: {
        type: 'integer',
        minimum: DEEP_SEARCH_BOUNDS.limit.min,
        maximum: DEEP_SEARCH_BOUNDS.limit.max,
        default: 10,
        description: 'How many rows',
      },
      include_domains: domains('Only these domains (and their subdomains)'),
      exclude_domains: domains('Never these domains (and their subdomains)'),
      freshness: { type: 'string', enum: [...FRESHNESS], description: 'Only pages dated within this window' },
    },
    [],
    { anyOf: [{ required: ['queries'] }, { required: ['objective'] }] },
  ),
  annotations: readOnly,
  async run(args, ctx) {
    const response = await post(ctx, '/v1/search', searchBody(args));
    return { text: searchText(response), structured: response };
  },
};

export const extract: ToolDefinition = {
  name: 'extract',
  title: 'Extract pages',
  description:
    'Reads 1 to 20 URLs (web pages, PDF, Word) and answers each page’s main content, with excerpts focused on an objective when given. A URL that cannot be read carries its error. Charged as POST /v1/extract (2 credits per page read).',
  inputSchema: schema(
    {
      urls: {
        type: 'array',
        minItems: 1,
        maxItems: 20,
        items: { type: 'string', minLength: 1, maxLength: MCP_TOOL_BOUNDS.urlChars },
        description: '1 to 20 absolute URLs',
      },
      objective: text(MCP_TOOL_BOUNDS.objectiveChars, 'Focuses the excerpts on this goal'),
      format: { type: 'string', enum: [...EXTRACT_FORMATS], default: 'markdown' },
      max_chars_per_result: {
        type: 'integer',
        minimum: 100,
        maximum: 1_000_000,
        description: 'Cap on each page’s content characters',
      },
    },
    ['urls'],
  ),
  annotations: readOnly,
  async run(args, ctx) {
    const response = await post(
      ctx,
      '/v1/extract',
      defined({
        urls: args.urls,
        objective: args.objective,
        format: args.format,
        max_chars_per_result: args.max_chars_per_result,
      }),
    );
    return { text: extractText(response), structured: response };
  },
};
