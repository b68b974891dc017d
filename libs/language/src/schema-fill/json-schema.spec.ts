import * as v8 from 'node:v8';
import * as vm from 'node:vm';
import { outputProblems, schemaDepth, schemaProblem } from './json-schema';

describe('user JSON Schemas', () => {
  it('lets two teams use the same $id (no schema is registered beyond its own use)', () => {
    expect(schemaProblem({ $id: 'urn:x', type: 'object' })).toBeNull();
    const a = { $id: 'urn:x', type: 'object', properties: { answer: { type: 'string' } } };
    const b = { $id: 'urn:x', type: 'object', properties: { total: { type: 'integer' } } };
    expect(schemaProblem(a)).toBeNull();
    expect(schemaProblem(b)).toBeNull();
    expect(schemaProblem({ ...a })).toBeNull();
    expect(outputProblems(a, { answer: 'yes' })).toEqual([]);
    expect(outputProblems(b, { total: 'many' }).join('; ')).toContain('(root).total is not of a type(s) integer');
  });

  it('refuses a $ref that points outside the schema, and follows one inside it', () => {
    expect(schemaProblem({ $ref: 'urn:x' })).toMatch(/\$ref "urn:x" points outside the schema/);
    expect(
      schemaProblem({ type: 'object', properties: { a: { $ref: 'http://json-schema.org/draft-07/schema#' } } }),
    ).toMatch(/points outside the schema/);
    expect(schemaProblem({ type: 'object', properties: { a: { $ref: 'https://evil.test/schema.json' } } })).toMatch(
      /points outside the schema/,
    );
    const inside = {
      type: 'object',
      definitions: { name: { type: 'string' } },
      properties: { a: { $ref: '#/definitions/name' } },
    };
    expect(schemaProblem(inside)).toBeNull();
    expect(outputProblems(inside, { a: 3 }).join('; ')).toContain('(root).a is not of a type(s) string');
    expect(schemaProblem({ type: 'object', properties: { a: { $ref: '#/definitions/missing' } } })).toMatch(
      /points to nothing/,
    );
  });

  it('runs `pattern` in linear time: ^(a+)+$ against 100,000 a and a b answers at once', () => {
    const schema = { type: 'object', properties: { code: { type: 'string', pattern: '^(a+)+$' } } };
    expect(schemaProblem(schema)).toBeNull();
    const started = performance.now();
    expect(outputProblems(schema, { code: `${'a'.repeat(100_000)}b` }).join('; ')).toContain(
      '(root).code does not match pattern "^(a+)+$"',
    );
    expect(outputProblems(schema, { code: 'aaaa' })).toEqual([]);
    // A backtracking engine takes longer than the universe's age here; RE2 takes milliseconds.
    expect(performance.now() - started).toBeLessThan(5_000);
  });

  it('refuses a pattern RE2 cannot run (back-references), naming it', () => {
    expect(schemaProblem({ type: 'string', pattern: '(a)\\1' })).toMatch(/invalid escape sequence/);
  });

  it('refuses a schema that is not valid JSON Schema, and patternProperties (its patterns would not run on RE2)', () => {
    expect(schemaProblem({ type: 'strin' })).toMatch(/must be equal to one of the allowed values|must be array/);
    expect(schemaProblem({ type: 'object', patternProperties: { '^(a+)+$': { type: 'string' } } })).toMatch(
      /patternProperties is not supported/,
    );
  });

  it('keeps nothing of the schemas it compiled: 3,000 distinct schemas leave the heap where it was', () => {
    v8.setFlagsFromString('--expose-gc');
    const gc = vm.runInNewContext('gc') as () => void;
    const round = (from: number) => {
      for (let i = from; i < from + 3_000; i++) {
        const schema = {
          $id: `urn:team:${i}`,
          type: 'object',
          properties: Object.fromEntries(
            Array.from({ length: 20 }, (_, j) => [`f${i}_${j}`, { type: 'string', pattern: `^x${i}` }]),
          ),
        };
        expect(schemaProblem(schema)).toBeNull();
        outputProblems(schema, { [`f${i}_0`]: 'y' });
      }
    };
    round(0);
    gc();
    const before = process.memoryUsage().heapUsed;
    round(3_000);
    gc();
    const grown = (process.memoryUsage().heapUsed - before) / 1024 / 1024;
    // A shared Ajv kept every one (86 MB for 3,000 schemas).
    expect(grown).toBeLessThan(10);
  });

  it('measures the depth of a schema nested far deeper than the stack', () => {
    let deep: Record<string, unknown> = { type: 'string' };
    for (let i = 0; i < 100_000; i++) deep = { type: 'object', properties: { x: deep } };
    expect(schemaDepth(deep)).toBe(100_000);
    expect(schemaDepth({ type: 'object', properties: { a: { type: 'array', items: { type: 'string' } } } })).toBe(2);
    expect(schemaDepth({ type: 'string' })).toBe(0);
  });
});
