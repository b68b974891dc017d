/**
 * The tools that answer at once: web_search (POST /v1/search) and extract (POST /v1/extract).
 */
import { type Static, Type } from '@sinclair/typebox';
import { DEEP_SEARCH_BOUNDS, FRESHNESS } from '@app/domain';
import { EXTRACT_FORMATS } from '@app/contracts';
import { extractText, searchText } from './tool-text';
import {
  defined,
  defineTool,
  domains,
  MCP_TOOL_BOUNDS,
  type Obj,
  oneOf,
  post,
  queriesSchema,
  readOnly,
  schema,
  strings,
  text,
} from './tool-kit';

const webSearchInput = schema(
  {
    queries: queriesSchema,
    objective: text(
      MCP_TOOL_BOUNDS.objectiveChars,
      'What the results are for: re-ranks the rows and drops off-topic ones',
    ),
    depth: oneOf(['instant', 'fast', 'auto'], {
      default: 'auto',
      description: 'instant (no enrichment), fast (one results page), auto (recommended)',
    }),
    limit: Type.Integer({
      minimum: DEEP_SEARCH_BOUNDS.limit.min,
      maximum: DEEP_SEARCH_BOUNDS.limit.max,
      default: 10,
      description: 'How many rows',
    }),
    include_domains: domains('Only these domains (and their subdomains)'),
    exclude_domains: domains('Never these domains (and their subdomains)'),
    freshness: oneOf(FRESHNESS, { description: 'Only pages dated within this window' }),
  },
  [],
  { anyOf: [{ required: ['queries'] }, { required: ['objective'] }] },
);

/** `web_search`'s arguments as the REST search body: an objective alone is also its query. */
function searchBody(args: Static<typeof webSearchInput>): Obj {
  // The schema asks for queries or an objective (its anyOf): without queries, there is an objective.
  const queries = args.queries ?? [(args.objective ?? '').slice(0, MCP_TOOL_BOUNDS.queryChars)];
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

export const webSearch = defineTool({
  name: 'web_search',
  title: 'Web search',
  description:
    'Searches the web: 1 to 5 keyword queries (or an objective alone), merged and de-duplicated. Answers ranked rows with title, URL, date and excerpts. With an objective, rows are re-ranked against it and off-topic rows dropped. Charged as POST /v1/search.',
  inputSchema: webSearchInput,
  annotations: readOnly,
  async run(args, ctx) {
    const response = await post(ctx, '/v1/search', searchBody(args));
    return { text: searchText(response), structured: response };
  },
});

export const extract = defineTool({
  name: 'extract',
  title: 'Extract pages',
  description:
    'Reads 1 to 20 URLs (web pages, PDF, Word) and answers each page’s main content, with excerpts focused on an objective when given. A URL that cannot be read carries its error. Charged as POST /v1/extract (2 credits per page read).',
  inputSchema: schema(
    {
      urls: strings(MCP_TOOL_BOUNDS.urlChars, { minItems: 1, maxItems: 20, description: '1 to 20 absolute URLs' }),
      objective: text(MCP_TOOL_BOUNDS.objectiveChars, 'Focuses the excerpts on this goal'),
      format: oneOf(EXTRACT_FORMATS, { default: 'markdown' }),
      max_chars_per_result: Type.Integer({
        minimum: 100,
        maximum: 1_000_000,
        description: 'Cap on each page’s content characters',
      }),
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
});
