import * as fs from 'node:fs';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { OpenAPIObject } from '@nestjs/swagger';
import Ajv, { type ValidateFunction } from 'ajv';

/** One answer that does not conform to the document, as appended to the check file. */
export interface ResponseViolation {
  operation: string;
  status: number;
  problem: string;
}

/**
 * A test facility (OPENAPI_RESPONSE_CHECK=<file>): every JSON answer of a documented /v1
 * operation is validated against the schema the OpenAPI document declares for its status; one
 * that does not conform, or whose status declares no JSON schema, is appended to <file> as a JSON
 * line. The e2e suites run with it and fail on any line, so the document clients are generated
 * from cannot drift from what the service sends.
 */
export function checkResponses(app: NestFastifyApplication, document: () => OpenAPIObject, file: string): void {
  // OpenAPI 3.0 schemas: `nullable`, formats and descriptive keywords ajv does not enforce.
  const ajv = new Ajv({ strict: false, allErrors: false, validateFormats: false });
  const compiled = new Map<string, ValidateFunction | string>();
  const validator = (path: string, method: string, status: number): ValidateFunction | string => {
    const key = `${method} ${path} ${status}`;
    let found = compiled.get(key);
    if (found) return found;
    const operation = (
      document().paths[path] as
        Record<string, { responses?: Record<string, { content?: Record<string, { schema?: object }> }> }> | undefined
    )?.[method];
    // An undeclared status is the operation's `default` answer (OpenAPI).
    const response =
      operation?.responses?.[String(status)] ?? (status >= 400 ? operation?.responses?.default : undefined);
    const schema = response?.content?.['application/json']?.schema;
    if (!operation) found = 'undocumented operation';
    else if (!response) found = 'undocumented status';
    else if (!schema) found = 'no JSON schema for this status';
    // The schema's $refs point into the document's components: they travel with it.
    else {
      try {
        found = ajv.compile({ ...schema, components: document().components });
      } catch (err) {
        found = `the schema does not compile: ${err instanceof Error ? err.message : String(err)}`;
      }
    }
    compiled.set(key, found);
    return found;
  };
  app
    .getHttpAdapter()
    .getInstance()
    .addHook('onSend', async (request, reply, payload) => {
      const route = request.routeOptions.url;
      // JSON as sent: a string, or a Buffer (how errors are sent).
      const text = typeof payload === 'string' ? payload : Buffer.isBuffer(payload) ? payload.toString('utf8') : null;
      if (
        !route?.startsWith('/v1/') ||
        route === '/v1/openapi.json' ||
        text === null ||
        !String(reply.getHeader('content-type') ?? '').startsWith('application/json')
      )
        return payload;
      const path = route.replace(/:(\w+)/g, '{$1}');
      const method = request.method.toLowerCase();
      const check = validator(path, method, reply.statusCode);
      let problem: string | null = typeof check === 'string' ? check : null;
      if (typeof check !== 'string') {
        try {
          const body = JSON.parse(text) as unknown;
          if (!check(body))
            problem = (check.errors ?? [])
              .map((e) => `${e.instancePath || '/'} ${e.message ?? 'invalid'} (${valueAt(body, e.instancePath)})`)
              .join('; ');
        } catch {
          problem = 'the body is not JSON';
        }
      }
      if (problem)
        fs.appendFileSync(
          file,
          JSON.stringify({
            operation: `${request.method} ${path}`,
            status: reply.statusCode,
            problem,
          } satisfies ResponseViolation) + '\n',
        );
      return payload;
    });
}

/** The value at a JSON pointer, shortened: what a violation names. */
function valueAt(body: unknown, pointer: string): string {
  let value = body;
  for (const part of pointer.split('/').slice(1))
    value = (value as Record<string, unknown> | null)?.[part.replace(/~1/g, '/').replace(/~0/g, '~')];
  return (JSON.stringify(value) ?? 'undefined').slice(0, 80);
}
