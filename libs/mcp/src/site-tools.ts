/**
 * The tools over a whole site: map (its URLs), crawl (start a crawl and wait for it) and
 * get_crawl (a crawl's state and a page of its pages).
 */
import { MAP_SITEMAP_MODES } from '@app/contracts';
import { CRAWL_FORMATS, CRAWL_LIMITS, CRAWL_RENDER } from '@app/domain';
import { waitForRun } from './run-wait';
import { crawlText, mapText } from './tool-text';
import {
  defined,
  get,
  id,
  MCP_TOOL_BOUNDS,
  post,
  readOnly,
  schema,
  seg,
  starts,
  text,
  type ToolDefinition,
  waitSeconds,
} from './tool-kit';

export const map: ToolDefinition = {
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

export const crawl: ToolDefinition = {
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

export const getCrawl: ToolDefinition = {
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
