/**
 * The tools over a whole site: map (its URLs), crawl (start a crawl and wait for it) and
 * get_crawl (a crawl's state and a page of its pages).
 */
import { Type } from '@sinclair/typebox';
import { MAP_SITEMAP_MODES } from '@app/contracts';
import { CRAWL_FORMATS, CRAWL_LIMITS, CRAWL_RENDER } from '@app/domain';
import { waitForRun } from './run-wait';
import { crawlText, mapText } from './tool-text';
import {
  defined,
  defineTool,
  get,
  id,
  MCP_TOOL_BOUNDS,
  oneOf,
  post,
  readOnly,
  schema,
  seg,
  starts,
  strings,
  text,
  waitSeconds,
} from './tool-kit';

export const map = defineTool({
  name: 'map',
  title: 'Map a site',
  description:
    'Lists the URLs of a site (with their titles) from its sitemaps and the links of its pages; robots.txt is honoured. With search, the URLs are ranked by how well their title and URL words match it. Charged as POST /v1/map (1 credit).',
  inputSchema: schema(
    {
      url: text(MCP_TOOL_BOUNDS.urlChars, 'The site to map (its start page), an absolute URL'),
      limit: Type.Integer({
        minimum: MCP_TOOL_BOUNDS.mapLinks.min,
        maximum: MCP_TOOL_BOUNDS.mapLinks.max,
        default: 1000,
        description: 'How many URLs at most',
      }),
      search: text(MCP_TOOL_BOUNDS.mapSearchChars, 'Rank the URLs by how well their title and URL words match this'),
      include_subdomains: Type.Boolean({
        default: false,
        description: 'Also list URLs on subdomains of the start host',
      }),
      sitemap: oneOf(MAP_SITEMAP_MODES, {
        default: 'include',
        description: 'include: sitemaps and links; only: sitemaps; skip: links only',
      }),
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
});

const pathPatterns = (description: string) =>
  strings(CRAWL_LIMITS.patternChars, { maxItems: CRAWL_LIMITS.patterns, description });
const pagesPath = (crawlId: unknown, limit: number, offset: number) =>
  `/v1/crawl/${seg(crawlId)}?limit=${limit}&offset=${offset}`;

export const crawl = defineTool({
  name: 'crawl',
  title: 'Crawl a site',
  description: `Reads the pages of a site from a start page, following its links (robots.txt and its Crawl-delay honoured), and answers each page's URL, title and the start of its content (the first ${MCP_TOOL_BOUNDS.crawlPages.default} pages; get_crawl pages on). Waits up to wait_seconds (default 60), reporting each page read; if not done by then, answers the crawl_id for get_crawl. Charged as POST /v1/crawl (2 credits per page read, as extract, and 1 per page rendered in the browser).`,
  inputSchema: schema(
    {
      url: text(MCP_TOOL_BOUNDS.urlChars, 'The start page (depth 0), an absolute URL'),
      limit: Type.Integer({ minimum: 1, maximum: CRAWL_LIMITS.pages, default: 100, description: 'Pages read at most' }),
      max_depth: Type.Integer({
        minimum: 0,
        maximum: CRAWL_LIMITS.depth,
        default: 3,
        description: 'Link hops from the start page',
      }),
      include_paths: pathPatterns('Regular expressions (RE2) on the path and query: only matching pages are followed'),
      exclude_paths: pathPatterns('Regular expressions (RE2) on the path and query: matching pages are not followed'),
      include_subdomains: Type.Boolean({
        default: false,
        description: 'Follow links to subdomains of the start host',
      }),
      format: oneOf(CRAWL_FORMATS, { default: 'markdown' }),
      render: oneOf(CRAWL_RENDER, { default: 'auto', description: 'Rendering of script-built pages in a browser' }),
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
    const waitFor = args.wait_seconds ?? MCP_TOOL_BOUNDS.wait.default;
    // The completed event carries the run without its pages: its view is read from the API.
    const { view, ended } = await waitForRun(ctx, `/v1/crawl/${seg(started.crawl_id)}/events`, viewPath, waitFor, {
      readView: true,
    });
    return { text: crawlText(view, ended), structured: view };
  },
});

export const getCrawl = defineTool({
  name: 'get_crawl',
  title: 'Get a crawl run',
  description:
    'The state of a crawl run started by crawl and a page of its pages (limit, offset), in the order read. Charged nothing (GET /v1/crawl/{crawl_id}).',
  inputSchema: schema(
    {
      crawl_id: id('The crawl_id crawl answered'),
      limit: Type.Integer({
        minimum: 1,
        maximum: MCP_TOOL_BOUNDS.crawlPages.max,
        default: MCP_TOOL_BOUNDS.crawlPages.default,
        description: 'How many pages',
      }),
      offset: Type.Integer({ minimum: 0, maximum: CRAWL_LIMITS.pages, default: 0, description: 'Pages to skip' }),
    },
    ['crawl_id'],
  ),
  annotations: readOnly,
  async run(args, ctx) {
    const view = await get(
      ctx,
      pagesPath(args.crawl_id, args.limit ?? MCP_TOOL_BOUNDS.crawlPages.default, args.offset ?? 0),
    );
    return { text: crawlText(view, false), structured: view };
  },
});
