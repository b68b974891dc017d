/**
 * The connector tools: search answers {results: [{id, title, url}]}, each id a page's URL, and
 * fetch reads a page by that id.
 */
import { Type } from '@sinclair/typebox';
import { RestError } from './rest-backend';
import { defined, defineTool, MCP_TOOL_BOUNDS, type Obj, outputOf, post, readOnly, schema, text } from './tool-kit';

export const connectorSearch = defineTool({
  name: 'search',
  title: 'Search (connector)',
  description:
    'Searches the web for a query and answers {results: [{id, title, url}]}; pass an id to fetch for the page’s text. Charged as POST /v1/search.',
  inputSchema: schema({ query: text(MCP_TOOL_BOUNDS.queryChars, 'The search query') }, ['query']),
  outputSchema: outputOf(
    schema(
      {
        results: Type.Array(
          schema({ id: Type.String(), title: Type.String(), url: Type.String() }, ['id', 'title', 'url']),
        ),
      },
      ['results'],
    ),
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
});

export const connectorFetch = defineTool({
  name: 'fetch',
  title: 'Fetch (connector)',
  description:
    'Reads a search result by its id (its URL) and answers {id, title, text, url, metadata}. Charged as POST /v1/extract (2 credits).',
  inputSchema: schema({ id: text(MCP_TOOL_BOUNDS.urlChars, 'An id from search (the page’s URL)') }, ['id']),
  outputSchema: outputOf(
    schema(
      {
        id: Type.String(),
        title: Type.String(),
        text: Type.String(),
        url: Type.String(),
        metadata: Type.Unsafe<Obj>({ type: 'object' }),
      },
      ['id', 'title', 'text', 'url', 'metadata'],
    ),
  ),
  annotations: readOnly,
  async run(args, ctx) {
    const response = await post(ctx, '/v1/extract', { urls: [args.id], format: 'markdown', excerpts: false });
    const row = (response.results as Obj[])[0] ?? {};
    if (row.error) throw new RestError(422, `${args.id} could not be read: ${String(row.error)}`);
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
      id: args.id,
      title: String(row.title || url),
      text: String(row.content ?? ''),
      url,
      metadata,
    };
    return { text: JSON.stringify(document), structured: document };
  },
});
