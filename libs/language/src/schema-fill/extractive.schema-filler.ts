import { tokenize } from '@app/text';
import {
  type FieldBasis,
  type JsonSchema,
  type SchemaFillDocument,
  type SchemaFillRequest,
  type SchemaFillResult,
  schemaFields,
} from './schema-fill.port';
import { GENERIC, termPositions, termsOf } from './field-terms';
import { type Unit, unitsOf } from './text-units';
import { valueKind } from './value-patterns';
import { pick, typed } from './value-pick';

export { SYNONYMS } from './field-terms';

interface Candidate {
  unit: Unit;
  value: unknown;
  score: number;
  matched: number;
  found: string;
}

const round = (n: number) => Math.round(n * 1000) / 1000;

/** A year after "since" that dates someone's time in a role, not the organisation's start. */
const SINCE = tokenize('since');
const TENURE =
  /\b(?:run|runs|led|leads|headed|heads|served|serves|chaired|chairs|managed|manages|joined|chief executive|ceo|president|chair(?:man|woman)?|director|head of)\b[^.;!?]{0,80}\bsince\b/i;

function fillField(
  name: string,
  schema: JsonSchema,
  units: Unit[],
  documents: SchemaFillDocument[],
  entity: Set<string>,
  names: Set<string>,
): { value: unknown; basis: FieldBasis } {
  const kind = valueKind(name, schema);
  const terms = termsOf(name, schema);
  const termSet = new Set(terms.map((t) => t.term));
  const weightOf = new Map(terms.map((t) => [t.term, t.weight]));
  const docWords = documents.map((doc) => new Set(tokenize(`${doc.title} ${doc.text}`)));
  const docEntity = docWords.map((words) => [...entity].filter((e) => words.has(e)).length / Math.max(1, entity.size));
  // A page that names neither the task's entity (its proper nouns) nor, in its title, a word of the task is about something else.
  const aboutEntity = docWords.map(
    (words, i) =>
      names.size === 0 ||
      [...names].some((n) => words.has(n)) ||
      tokenize(documents[i]!.title).some((t) => entity.has(t)),
  );
  let best: Candidate | null = null;
  for (const unit of units) {
    if (!aboutEntity[unit.doc]) continue;
    const tokens = new Set(tokenize(unit.text));
    // "has run X since 2012", "chief executive since 2012": a tenure, not a founding.
    if (TENURE.test(unit.text)) for (const since of SINCE) tokens.delete(since);
    let matched = 0;
    for (const term of termSet) if (tokens.has(term)) matched += weightOf.get(term)!;
    if (matched === 0) continue;
    const labelTokens = unit.row ? new Set(tokenize(unit.row.label)) : undefined;
    const labelMatched = !!labelTokens && [...termSet].some((t) => labelTokens.has(t) && weightOf.get(t)! >= 1.5);
    const found = pick(kind, unit, termPositions(unit.text, weightOf), termSet, entity, labelMatched);
    if (!found) continue;
    const value = typed(
      found.value,
      kind === 'text' || kind === 'money' ? { ...schema, type: schema.type ?? 'string' } : schema,
    );
    if (value === null || value === '') continue;
    const entityHere = [...entity].filter((e) => tokens.has(e)).length;
    const score =
      matched + (labelMatched ? 2 : 0) + 0.5 * Math.min(2, entityHere) + docEntity[unit.doc]! + 0.3 / (1 + unit.doc);
    if (!best || score > best.score) best = { unit, value, score, matched, found: found.text };
  }
  if (!best) {
    const about =
      typeof schema.description === 'string' && schema.description
        ? schema.description.toLowerCase()
        : name.replace(/_/g, ' ');
    return {
      value: null,
      basis: {
        field: name,
        citations: [],
        reasoning: `No page read in this run states the ${about.replace(/^the\s+/, '')}; the field is left null.`,
        confidence: 'low',
      },
    };
  }
  const doc = documents[best.unit.doc]!;
  const confidence: FieldBasis['confidence'] = best.matched >= 3 ? 'high' : best.matched >= 1.5 ? 'medium' : 'low';
  return {
    value: best.value,
    basis: {
      field: name,
      citations: [{ url: doc.url, title: doc.title, excerpts: [best.unit.text] }],
      reasoning: `"${doc.title}" states it: the passage that names the ${name.replace(/_/g, ' ')} gives ${JSON.stringify(best.found)} (score ${round(best.score)}).`,
      confidence,
    },
  };
}

/** Stems of the capitalised words of the task after its first word ("Company profile of Acme Robotics" -> acme, robot). */
function properNouns(task: string, fieldTerms: Set<string>): Set<string> {
  const words = [...task.matchAll(/[\p{L}\p{N}][\p{L}\p{N}'’-]*/gu)].slice(1).filter((m) => /^\p{Lu}/u.test(m[0]));
  return new Set(words.flatMap((m) => tokenize(m[0])).filter((t) => !fieldTerms.has(t) && !GENERIC.has(t)));
}

/**
 * The offline schema filler: for each top-level field, the sentence or table row of the read
 * pages that best matches the field's words (its name, description and their usual synonyms) and
 * carries a value of the kind the field asks for (a year, a number, an amount of money, a
 * percentage, a person, a place, an organisation, a date, or free text), nearest those words.
 * Pages about the task's entity weigh more. Nested object fields are filled the same way, one
 * level down; anything it cannot find is null with low confidence.
 */
export function fillSchemaExtractively(request: SchemaFillRequest): SchemaFillResult {
  const units = unitsOf(request.documents);
  const fields = schemaFields(request.schema);
  const fieldTerms = new Set(fields.flatMap((f) => termsOf(f.name, f.schema).map((t) => t.term)));
  const entity = new Set(
    tokenize(request.task).filter((t) => !fieldTerms.has(t) && !GENERIC.has(t) && !/^\d+$/.test(t)),
  );
  const names = properNouns(request.task, fieldTerms);
  const output: Record<string, unknown> = {};
  const basis: FieldBasis[] = [];
  for (const field of fields) {
    const properties = field.schema.properties as Record<string, JsonSchema> | undefined;
    if (field.schema.type === 'object' && properties) {
      // One level down: each sub-field searched with the parent's words too.
      const nested: Record<string, unknown> = {};
      const citations: FieldBasis['citations'] = [];
      for (const [sub, subSchema] of Object.entries(properties)) {
        const filled = fillField(`${field.name}_${sub}`, subSchema, units, request.documents, entity, names);
        nested[sub] = filled.value;
        citations.push(...filled.basis.citations);
      }
      const known = Object.values(nested).filter((v) => v !== null).length;
      output[field.name] = nested;
      basis.push({
        field: field.name,
        citations,
        reasoning: `${known} of ${Object.keys(nested).length} sub-fields are stated by the pages read; the others are null.`,
        confidence: known === 0 ? 'low' : known === Object.keys(nested).length ? 'medium' : 'low',
      });
      continue;
    }
    const filled = fillField(field.name, field.schema, units, request.documents, entity, names);
    output[field.name] = filled.value;
    basis.push(filled.basis);
  }
  const single =
    fields.length === 1 &&
    fields[0]!.name === 'output' &&
    !(request.schema.type === 'object' && request.schema.properties);
  return { output: single ? output.output : output, basis, usage: { input: 0, output: 0 } };
}
