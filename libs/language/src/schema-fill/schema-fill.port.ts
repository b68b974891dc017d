import type { TokenUsage } from '@app/research';

/**
 * Schema filling (task runs with a JSON output schema): the language-model port's method that
 * turns pages read in a run into a value for each field of the schema, with a per-field basis.
 * Every excerpt cited is a verbatim substring of the text of the document it names; a field the
 * pages do not state is null with low confidence and reasoning that says so.
 */
export interface SchemaFillDocument {
  url: string;
  title: string;
  text: string;
}

export interface FieldCitation {
  url: string;
  title: string;
  excerpts: string[];
}

export interface FieldBasis {
  field: string;
  citations: FieldCitation[];
  reasoning: string;
  confidence: 'high' | 'medium' | 'low';
}

export type JsonSchema = Record<string, unknown>;

export interface SchemaFillRequest {
  /** The task's objective: it names the entity the fields are about. */
  task: string;
  /** A JSON Schema; an object schema's properties are the fields, anything else is one field `output`. */
  schema: JsonSchema;
  /** Pages read in the run, best first. */
  documents: SchemaFillDocument[];
}

export interface SchemaFillResult {
  output: unknown;
  /** One entry per top-level field, in schema order. */
  basis: FieldBasis[];
  usage: TokenUsage;
}

/** The top-level fields of a schema: its properties, or the single field `output`. */
export function schemaFields(schema: JsonSchema): { name: string; schema: JsonSchema }[] {
  const properties = schema.properties;
  if (schema.type === 'object' && properties && typeof properties === 'object' && !Array.isArray(properties)) {
    return Object.entries(properties as Record<string, JsonSchema>).map(([name, field]) => ({
      name,
      schema: field ?? {},
    }));
  }
  return [{ name: 'output', schema }];
}
