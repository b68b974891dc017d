import { EXTRACT_FORMATS, MAP_SITEMAP_MODES } from '@app/contracts';
import { CRAWL_FORMATS, CRAWL_LIMITS, CRAWL_RENDER, DEEP_SEARCH_BOUNDS, FRESHNESS, TASK_PROCESSORS } from '@app/domain';
import { okBody, RestError } from './rest-backend';
import { type ToolContext, waitForRun } from './run-wait';
import { crawlText, extractText, findAllText, mapText, researchText, searchText, taskText } from './tool-text';

type Obj = Record<string, unknown>;
type JsonSchema = Obj & { type: 'object'; properties: Record<string, object> };

/** What a tool answers: text for the model, and the REST response as structured content. */
export interface ToolOutcome {
  text: string;
  structured: Obj;
}

/** One MCP tool: its JSON Schema input, and its work as REST operations (see RestBackend). */
export interface ToolDefinition {
  name: string;
  title: string;
  description: string;
  inputSchema: JsonSchema;
  outputSchema?: JsonSchema;
  annotations: { readOnlyHint: boolean; openWorldHint: true };
  run(args: Obj, ctx: ToolContext): Promise<ToolOutcome>;
}

/** Input bounds of the tools (the REST operations check theirs again). */
export const MCP_TOOL_BOUNDS = {
  queryChars: 1_000,
  objectiveChars: 5_000,
  promptChars: 10_000,
  domains: 50,
  domainChars: 253,
  urlChars: 4_096,
  fields: 30,
  fieldChars: 100,
  idChars: 200,
  wait: { min: 1, max: 300, default: 60 },
  /** POST /v1/map's limit. */
  mapLinks: { min: 1, max: 5_000 },
  mapSearchChars: 500,
  /** A page of a crawl's pages, as GET /v1/crawl/{id} serves them (at most 100). */
  crawlPages: { max: 100, default: 50 },
} as const;

const text = (maxLength: number, description: string) => ({ type: 'string', minLength: 1, maxLength, description });
const domains = (description: string) => ({
  type: 'array',
  maxItems: MCP_TOOL_BOUNDS.domains,
  items: { type: 'string', minLength: 1, maxLength: MCP_TOOL_BOUNDS.domainChars },
  description,
});
const waitSeconds = {
  type: 'integer',
  minimum: MCP_TOOL_BOUNDS.wait.min,
  maximum: MCP_TOOL_BOUNDS.wait.max,
  default: MCP_TOOL_BOUNDS.wait.default,
  description: `How long to wait for the run to end (${MCP_TOOL_BOUNDS.wait.min} to ${MCP_TOOL_BOUNDS.wait.max} s); when it runs out the run id is returned and the run goes on`,
};
const id = (description: string) => ({
  type: 'string',
  minLength: 1,
  maxLength: MCP_TOOL_BOUNDS.idChars,
  pattern: '^[A-Za-z0-9_-]+$',
  description,
});
const schema = (properties: Record<string, object>, required: string[] = [], extra: Obj = {}): JsonSchema => ({
  type: 'object',
  properties,
  required,
  additionalProperties: false,
  ...extra,
});
const readOnly = { readOnlyHint: true, openWorldHint: true } as const;
const starts = { readOnlyHint: false, openWorldHint: true } as const;

const queriesSchema = {
  type: 'array',
  minItems: DEEP_SEARCH_BOUNDS.queries.min,
  maxItems: DEEP_SEARCH_BOUNDS.queries.max,
  items: { type: 'string', minLength: 1, maxLength: MCP_TOOL_BOUNDS.queryChars },
  description: `${DEEP_SEARCH_BOUNDS.queries.min} to ${DEEP_SEARCH_BOUNDS.queries.max} keyword queries`,
};

const post = async (ctx: ToolContext, path: string, body: Obj) =>
  okBody(await ctx.rest.call('POST', path, body, ctx.signal)) as Obj;
const get = async (ctx: ToolContext, path: string) =>
  okBody(await ctx.rest.call('GET', path, undefined, ctx.signal)) as Obj;
const seg = (value: unknown) => encodeURIComponent(String(value));
const defined = (body: Obj): Obj => Object.fromEntries(Object.entries(body).filter(([, value]) => value !== undefined));

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

const webSearch: ToolDefinition = {
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

const extract: ToolDefinition = {
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

const deepResearch: ToolDefinition = {
  name: 'deep_research',
  title: 'Deep research',
  description:
    'Researches a question across many pages and writes a cited report: [N] markers point at the numbered sources. Waits up to wait_seconds (default 60), reporting progress (the plan, each page read, each finding); if the run is not done by then, answers its search_id for get_research. Charged as a deep POST /v1/search (1 credit per query).',
  inputSchema: schema(
    {
      prompt: text(MCP_TOOL_BOUNDS.promptChars, 'The research question'),
      queries: { ...queriesSchema, description: `${queriesSchema.description} to start from; default: the prompt` },
      max_fetches: {
        type: 'integer',
        minimum: DEEP_SEARCH_BOUNDS.max_fetches.min,
        maximum: DEEP_SEARCH_BOUNDS.max_fetches.max,
        description: `Pages read at most (default ${DEEP_SEARCH_BOUNDS.max_fetches.default})`,
      },
      wait_seconds: waitSeconds,
    },
    ['prompt'],
  ),
  annotations: starts,
  async run(args, ctx) {
    const prompt = String(args.prompt);
    const body = defined({
      depth: 'deep',
      prompt,
      queries: args.queries ?? [prompt.slice(0, MCP_TOOL_BOUNDS.queryChars)],
      max_fetches: args.max_fetches,
    });
    const started = await post(ctx, '/v1/search', body);
    const runId = seg(started.search_id);
    const { view, ended } = await waitForRun(
      ctx,
      `/v1/searches/${runId}/events`,
      `/v1/searches/${runId}`,
      Number(args.wait_seconds ?? MCP_TOOL_BOUNDS.wait.default),
    );
    return { text: researchText(view, ended), structured: view };
  },
};

const getResearch: ToolDefinition = {
  name: 'get_research',
  title: 'Get a research run',
  description:
    'The state of a deep research run started by deep_research: its cited report and sources once completed. Charged nothing (GET /v1/searches/{search_id}).',
  inputSchema: schema({ search_id: id('The search_id deep_research answered') }, ['search_id']),
  annotations: readOnly,
  async run(args, ctx) {
    const view = await get(ctx, `/v1/searches/${seg(args.search_id)}`);
    return { text: researchText(view, true), structured: view };
  },
};

const task: ToolDefinition = {
  name: 'task',
  title: 'Research task',
  description:
    'Researches a task on the web and fills an output schema (a JSON Schema, or {type:"json",json_schema}, {type:"text"}, {type:"auto"}), each field with its cited basis. Waits up to wait_seconds (default 60) with progress; if not done by then, answers the task_id for get_task. Charged as POST /v1/tasks (1 credit per agent step).',
  inputSchema: schema(
    {
      task: text(MCP_TOOL_BOUNDS.promptChars, 'What to find out'),
      output_schema: {
        type: 'object',
        description:
          'A JSON Schema of the output (at most 3 levels deep), or {type: "json", json_schema} | {type: "text"} | {type: "auto"} (default auto)',
      },
      processor: {
        type: 'string',
        enum: [...TASK_PROCESSORS],
        default: 'core',
        description: 'Budget: base (<=4 steps), core (<=12), ultra (<=30, with a report)',
      },
      wait_seconds: waitSeconds,
    },
    ['task'],
  ),
  annotations: starts,
  async run(args, ctx) {
    const started = await post(
      ctx,
      '/v1/tasks/runs',
      defined({ task: args.task, output_schema: args.output_schema, processor: args.processor }),
    );
    const runId = seg(started.task_id);
    const { view, ended } = await waitForRun(
      ctx,
      `/v1/tasks/runs/${runId}/events`,
      `/v1/tasks/${runId}`,
      Number(args.wait_seconds ?? MCP_TOOL_BOUNDS.wait.default),
    );
    return { text: taskText(view, ended), structured: view };
  },
};

const getTask: ToolDefinition = {
  name: 'get_task',
  title: 'Get a task run',
  description:
    'The state of a task run started by task: its output and cited basis once completed. Charged nothing (GET /v1/tasks/{task_id}).',
  inputSchema: schema({ task_id: id('The task_id task answered') }, ['task_id']),
  annotations: readOnly,
  async run(args, ctx) {
    const view = await get(ctx, `/v1/tasks/${seg(args.task_id)}`);
    return { text: taskText(view, true), structured: view };
  },
};

const findAll: ToolDefinition = {
  name: 'findall',
  title: 'Find all entities',
  description:
    'Finds the entities matching a description (companies, people, places…) on the web, one row each with its URL and the requested fields. Waits up to wait_seconds (default 60), reporting each entity found; if not done by then, answers the findall_id for get_findall. Charged as POST /v1/findall.',
  inputSchema: schema(
    {
      query: text(MCP_TOOL_BOUNDS.promptChars, 'The entity set, described'),
      limit: { type: 'integer', minimum: 1, maximum: 100, default: 20, description: 'How many entities at most' },
      fields: {
        type: 'array',
        maxItems: MCP_TOOL_BOUNDS.fields,
        items: { type: 'string', minLength: 1, maxLength: MCP_TOOL_BOUNDS.fieldChars },
        description: 'Columns to fill for each entity',
      },
      wait_seconds: waitSeconds,
    },
    ['query'],
  ),
  annotations: starts,
  async run(args, ctx) {
    const started = await post(
      ctx,
      '/v1/findall/runs',
      defined({ query: args.query, limit: args.limit, fields: args.fields }),
    );
    const runId = seg(started.findall_id);
    const { view, ended } = await waitForRun(
      ctx,
      `/v1/findall/runs/${runId}/events`,
      `/v1/findall/runs/${runId}`,
      Number(args.wait_seconds ?? MCP_TOOL_BOUNDS.wait.default),
    );
    return { text: findAllText(view, ended), structured: view };
  },
};

const getFindAll: ToolDefinition = {
  name: 'get_findall',
  title: 'Get a FindAll run',
  description:
    'The state of a FindAll run started by findall: the entities matched so far. Charged nothing (GET /v1/findall/runs/{findall_id}).',
  inputSchema: schema({ findall_id: id('The findall_id findall answered') }, ['findall_id']),
  annotations: readOnly,
  async run(args, ctx) {
    const view = await get(ctx, `/v1/findall/runs/${seg(args.findall_id)}`);
    return { text: findAllText(view, true), structured: view };
  },
};

const map: ToolDefinition = {
  name: 'map',
  title: 'Map a site',
  description:
    'Lists the URLs of a site (with their titles) from its sitemaps and the links of its pages; robots.txt is honoured. With search, the URLs are ranked by how well their title and URL words match it. Charged as POST /v1/map (1 credit).',
  inputSchema: schema(
    {
      url: text(MCP_TOOL_BOUNDS.urlChars, 'The site to map (its start page), an absolute URL'),
      limit: {
        type: 'integer',
        minimum: MCP_TOOL_BOUNDS.mapLinks.min,
        maximum: MCP_TOOL_BOUNDS.mapLinks.max,
        default: 1000,
        description: 'How many URLs at most',
      },
      search: text(MCP_TOOL_BOUNDS.mapSearchChars, 'Rank the URLs by how well their title and URL words match this'),
      include_subdomains: {
        type: 'boolean',
        default: false,
        description: 'Also list URLs on subdomains of the start host',
      },
      sitemap: {
        type: 'string',
        enum: [...MAP_SITEMAP_MODES],
        default: 'include',
        description: 'include: sitemaps and links; only: sitemaps; skip: links only',
      },
    },
    ['url'],
  ),
  annotations: readOnly,
  async run(args, ctx) {
    const response = await post(
      ctx,
      '/v1/map',
      defined({
        url: args.url,
        limit: args.limit,
        search: args.search,
        include_subdomains: args.include_subdomains,
        sitemap: args.sitemap,
      }),
    );
    return { text: mapText(response), structured: response };
  },
};

const pathPatterns = (description: string) => ({
  type: 'array',
  maxItems: CRAWL_LIMITS.patterns,
  items: { type: 'string', minLength: 1, maxLength: CRAWL_LIMITS.patternChars },
  description,
});
const pagesPath = (crawlId: unknown, limit: number, offset: number) =>
  `/v1/crawl/${seg(crawlId)}?limit=${limit}&offset=${offset}`;

const crawl: ToolDefinition = {
  name: 'crawl',
  title: 'Crawl a site',
  description: `Reads the pages of a site from a start page, following its links (robots.txt and its Crawl-delay honoured), and answers each page's URL, title and the start of its content (the first ${MCP_TOOL_BOUNDS.crawlPages.default} pages; get_crawl pages on). Waits up to wait_seconds (default 60), reporting each page read; if not done by then, answers the crawl_id for get_crawl. Charged as POST /v1/crawl (2 credits per page read, as extract, and 1 per page rendered in the browser).`,
  inputSchema: schema(
    {
      url: text(MCP_TOOL_BOUNDS.urlChars, 'The start page (depth 0), an absolute URL'),
      limit: {
        type: 'integer',
        minimum: 1,
        maximum: CRAWL_LIMITS.pages,
        default: 100,
        description: 'Pages read at most',
      },
      max_depth: {
        type: 'integer',
        minimum: 0,
        maximum: CRAWL_LIMITS.depth,
        default: 3,
        description: 'Link hops from the start page',
      },
      include_paths: pathPatterns('Regular expressions (RE2) on the path and query: only matching pages are followed'),
      exclude_paths: pathPatterns('Regular expressions (RE2) on the path and query: matching pages are not followed'),
      include_subdomains: {
        type: 'boolean',
        default: false,
        description: 'Follow links to subdomains of the start host',
      },
      format: { type: 'string', enum: [...CRAWL_FORMATS], default: 'markdown' },
      render: {
        type: 'string',
        enum: [...CRAWL_RENDER],
        default: 'auto',
        description: 'Rendering of script-built pages in a browser',
      },
      wait_seconds: waitSeconds,
    },
    ['url'],
  ),
  annotations: starts,
  async run(args, ctx) {
    const body = defined({
      url: args.url,
      limit: args.limit,
      max_depth: args.max_depth,
      include_paths: args.include_paths,
      exclude_paths: args.exclude_paths,
      include_subdomains: args.include_subdomains,
      format: args.format,
      render: args.render,
    });
    const started = await post(ctx, '/v1/crawl', body);
    const viewPath = pagesPath(started.crawl_id, MCP_TOOL_BOUNDS.crawlPages.default, 0);
    const waitFor = Number(args.wait_seconds ?? MCP_TOOL_BOUNDS.wait.default);
    // The completed event carries the run without its pages: its view is read from the API.
    const { view, ended } = await waitForRun(ctx, `/v1/crawl/${seg(started.crawl_id)}/events`, viewPath, waitFor, {
      readView: true,
    });
    return { text: crawlText(view, ended), structured: view };
  },
};

const getCrawl: ToolDefinition = {
  name: 'get_crawl',
  title: 'Get a crawl run',
  description:
    'The state of a crawl run started by crawl and a page of its pages (limit, offset), in the order read. Charged nothing (GET /v1/crawl/{crawl_id}).',
  inputSchema: schema(
    {
      crawl_id: id('The crawl_id crawl answered'),
      limit: {
        type: 'integer',
        minimum: 1,
        maximum: MCP_TOOL_BOUNDS.crawlPages.max,
        default: MCP_TOOL_BOUNDS.crawlPages.default,
        description: 'How many pages',
      },
      offset: { type: 'integer', minimum: 0, maximum: CRAWL_LIMITS.pages, default: 0, description: 'Pages to skip' },
    },
    ['crawl_id'],
  ),
  annotations: readOnly,
  async run(args, ctx) {
    const view = await get(
      ctx,
      pagesPath(args.crawl_id, Number(args.limit ?? MCP_TOOL_BOUNDS.crawlPages.default), Number(args.offset ?? 0)),
    );
    return { text: crawlText(view, false), structured: view };
  },
};

const connectorSearch: ToolDefinition = {
  name: 'search',
  title: 'Search (connector)',
  description:
    'Searches the web for a query and answers {results: [{id, title, url}]}; pass an id to fetch for the page’s text. Charged as POST /v1/search.',
  inputSchema: schema({ query: text(MCP_TOOL_BOUNDS.queryChars, 'The search query') }, ['query']),
  outputSchema: schema(
    {
      results: {
        type: 'array',
        items: schema({ id: { type: 'string' }, title: { type: 'string' }, url: { type: 'string' } }, [
          'id',
          'title',
          'url',
        ]),
      },
    },
    ['results'],
  ),
  annotations: readOnly,
  async run(args, ctx) {
    const response = await post(ctx, '/v1/search', { queries: [args.query], depth: 'auto' });
    const results = (response.results as Obj[]).map((row) => ({
      id: String(row.url),
      title: String(row.title || row.url),
      url: String(row.url),
    }));
    return { text: JSON.stringify({ results }), structured: { results } };
  },
};

const connectorFetch: ToolDefinition = {
  name: 'fetch',
  title: 'Fetch (connector)',
  description:
    'Reads a search result by its id (its URL) and answers {id, title, text, url, metadata}. Charged as POST /v1/extract (2 credits).',
  inputSchema: schema({ id: text(MCP_TOOL_BOUNDS.urlChars, 'An id from search (the page’s URL)') }, ['id']),
  outputSchema: schema(
    {
      id: { type: 'string' },
      title: { type: 'string' },
      text: { type: 'string' },
      url: { type: 'string' },
      metadata: { type: 'object' },
    },
    ['id', 'title', 'text', 'url', 'metadata'],
  ),
  annotations: readOnly,
  async run(args, ctx) {
    const response = await post(ctx, '/v1/extract', { urls: [args.id], format: 'markdown', excerpts: false });
    const row = (response.results as Obj[])[0] ?? {};
    if (row.error) throw new RestError(422, `${String(args.id)} could not be read: ${String(row.error)}`);
    const url = String(row.final_url || row.url || args.id);
    const metadata = defined({
      status: row.status,
      language: row.language,
      published_date: row.published_date,
      content_type: row.content_type,
      pages: row.pages,
      credits: response.credits,
    });
    const document = {
      id: String(args.id),
      title: String(row.title || url),
      text: String(row.content ?? ''),
      url,
      metadata,
    };
    return { text: JSON.stringify(document), structured: document };
  },
};

/** Every tool, in the order clients list them. */
export const MCP_TOOLS: readonly ToolDefinition[] = [
  webSearch,
  extract,
  deepResearch,
  getResearch,
  task,
  getTask,
  findAll,
  getFindAll,
  map,
  crawl,
  getCrawl,
  connectorSearch,
  connectorFetch,
];
