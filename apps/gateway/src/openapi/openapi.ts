import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { DocumentBuilder, type OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import { contractComponents } from './contract-schemas';
import { checkResponses } from './response-check';

const validationError = {
  type: 'object',
  required: ['loc', 'msg', 'type'],
  properties: {
    loc: { type: 'array', items: { oneOf: [{ type: 'string' }, { type: 'integer' }] } },
    msg: { type: 'string' },
    type: { type: 'string' },
    input: {},
    ctx: { type: 'object', additionalProperties: true },
  },
};
const detailError = { type: 'object', required: ['detail'], properties: { detail: { type: 'string' } } };

/**
 * Builds the OpenAPI 3 document from the controllers and DTO decorators once at boot and serves
 * it, without auth, at GET /v1/openapi.json (as FastAPI does). Every /v1 operation documents the
 * 401 and 422 bodies of API.md.
 */
export function buildOpenApi(app: NestFastifyApplication): OpenAPIObject {
  const config = new DocumentBuilder()
    .setTitle('Web Research API')
    .setDescription(
      'Search, deep research runs, tasks, FindAll, extraction, site maps, crawl runs and monitors (of a query or a page) over a self-hosted web research service. The same tools are served to agents by an MCP server at /mcp (Streamable HTTP, the same bearer keys); it is not a REST operation, so it is not described here.',
    )
    .setVersion('1.0.0')
    .addBearerAuth({ type: 'http', scheme: 'bearer', description: 'wr_<key id>_<secret>' })
    .build();
  const document = SwaggerModule.createDocument(app, config);
  document.components = {
    ...document.components,
    schemas: {
      ...document.components?.schemas,
      ValidationError: validationError,
      HTTPValidationError: {
        type: 'object',
        properties: { detail: { type: 'array', items: { $ref: '#/components/schemas/ValidationError' } } },
      },
      ErrorDetail: detailError,
      ...contractComponents(),
    },
  };
  for (const [path, item] of Object.entries(document.paths)) {
    if (!path.startsWith('/v1/')) continue;
    for (const [method, operation] of Object.entries(item)) {
      if (typeof operation !== 'object' || operation === null || !('responses' in operation)) continue;
      const responses = operation.responses as Record<string, unknown>;
      // What can charge (a POST that does work; not a cancel) can be refused for the key's budget.
      if (method === 'post' && !/\/cancel$/.test(path))
        responses['402'] ??= {
          description: "The key's credit budget is spent: `detail` names the budget, what was spent and when it resets",
          content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorDetail' } } },
        };
      responses['401'] ??= {
        description: 'Missing, malformed, unknown or revoked API key',
        content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorDetail' } } },
      };
      responses['422'] ??= {
        description: 'Validation Error',
        content: { 'application/json': { schema: { $ref: '#/components/schemas/HTTPValidationError' } } },
      };
      responses['429'] ??= {
        description: 'Rate limit exceeded (see Retry-After)',
        content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorDetail' } } },
      };
      // Any other refusal (404, 409, 413, 503 with Retry-After, …) says why in `detail`.
      responses.default ??= {
        description: 'Any other refusal: not found, conflict, too large, unavailable (see Retry-After)…',
        content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorDetail' } } },
      };
    }
  }
  return withoutUnusedSchemas(document);
}

/**
 * The document without component schemas nothing refers to: the bus's own message classes, which
 * Nest's explorer finds on the handlers served in the same process, are no part of the HTTP API.
 */
function withoutUnusedSchemas(document: OpenAPIObject): OpenAPIObject {
  const schemas = document.components?.schemas ?? {};
  const used = new Set<string>();
  const visit = (value: unknown): void => {
    if (Array.isArray(value)) return value.forEach(visit);
    if (typeof value !== 'object' || value === null) return;
    for (const [key, inner] of Object.entries(value)) {
      if (key === '$ref' && typeof inner === 'string' && inner.startsWith('#/components/schemas/')) {
        const name = inner.slice('#/components/schemas/'.length);
        if (!used.has(name)) {
          used.add(name);
          visit(schemas[name]);
        }
      } else visit(inner);
    }
  };
  visit(document.paths);
  return {
    ...document,
    components: {
      ...document.components,
      schemas: Object.fromEntries(Object.entries(schemas).filter(([name]) => used.has(name))),
    },
  };
}

export function mountOpenApi(app: NestFastifyApplication, responseCheck?: string): void {
  let document: OpenAPIObject | undefined;
  if (responseCheck) checkResponses(app, () => (document ??= buildOpenApi(app)), responseCheck);
  app
    .getHttpAdapter()
    .getInstance()
    .get('/v1/openapi.json', async (_request, reply) => {
      document ??= buildOpenApi(app);
      return reply.type('application/json').send(document);
    });
}
