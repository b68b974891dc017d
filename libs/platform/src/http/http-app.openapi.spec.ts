/** The OpenAPI document the HTTP layer generates from the same field declarations as its validation. */
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import { app, useSampleApp } from './testing/sample-app';

useSampleApp();

describe('OpenAPI', () => {
  it('is generated from the same field declarations', () => {
    const doc = SwaggerModule.createDocument(app, new DocumentBuilder().build());
    const schema = doc.components!.schemas!.SearchBody as Record<string, any>;
    expect(schema.required).toEqual(['queries']);
    expect(schema.properties.queries).toEqual({
      type: 'array',
      items: { type: 'string', minLength: 1 },
      minItems: 1,
      maxItems: 5,
    });
    expect(schema.properties.limit).toEqual({ type: 'integer', minimum: 1, maximum: 100, default: 10 });
    expect(schema.properties.depth).toMatchObject({
      type: 'string',
      enum: ['instant', 'fast', 'auto', 'deep'],
      default: 'auto',
    });
    expect(schema.properties.from).toEqual({ type: 'string', format: 'date' });
    expect(schema.properties.threshold).toMatchObject({
      type: 'number',
      minimum: 0,
      exclusiveMinimum: true,
      maximum: 1,
      nullable: true,
    });
    expect(schema.properties.filters).toMatchObject({ type: 'array', items: { $ref: '#/components/schemas/Filter' } });
    const params = doc.paths['/items'].get!.parameters as Array<Record<string, any>>;
    expect(params.find((p) => p.name === 'limit')).toMatchObject({
      in: 'query',
      required: false,
      schema: { type: 'integer', minimum: 1, maximum: 100, default: 10 },
    });
    expect(params.find((p) => p.name === 'q')).toMatchObject({ in: 'query', required: true });
  });
});
