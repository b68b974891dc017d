import { sentenceSpans, stem, tokenize } from '@app/text';
import {
  type FieldBasis,
  type JsonSchema,
  type SchemaFillDocument,
  type SchemaFillRequest,
  type SchemaFillResult,
  schemaFields,
} from './schema-fill.port';
import { type FoundValue, fieldWords, type ValueKind, valueKind, valuesOfKind } from './value-patterns';

/**
 * Words pages use for what a field name says (the field "headquarters" is stated as "based in").
 * General vocabulary of company, people and document facts, not tuned to any page. Keys are the
 * stemmed field words (`tokenize`), as the lookup sees them.
 */
export const SYNONYMS: Record<string, string[]> = {
  found: ['founded', 'established', 'started', 'incorporated', 'founding', 'since'],
  founder: ['founded', 'established', 'founding', 'co-founded'],
  headquarter: ['headquarters', 'headquartered', 'based', 'hq', 'head office'],
  hq: ['headquarters', 'headquartered', 'based'],
  ceo: ['chief executive', 'chief executive officer'],
  cto: ['chief technology officer'],
  cfo: ['chief financial officer'],
  employe: ['employs', 'employees', 'staff', 'people', 'workforce', 'headcount', 'team of'],
  revenu: ['revenue', 'sales', 'turnover'],
  ticker: ['ticker', 'listed', 'symbol'],
  city: ['based', 'headquartered', 'located', 'head office'],
  occupation: ['job', 'profession'],
  university: ['university', 'studied', 'phd', 'degree', 'college'],
  websit: ['website', 'url'],
  phd: ['phd', 'doctorate'],
  celsius: ['degrees', 'celsius'],
  gram: ['grams', 'g'],
  group: ['group', 'team', 'lab'],
  siz: ['size', 'people', 'members'],
};

/** The synonyms written in several words ("chief executive" for "ceo"), stemmed once. */
const SPELT_OUT = Object.entries(SYNONYMS).flatMap(([key, synonyms]) =>
  synonyms.map((synonym) => ({ key, words: tokenize(synonym) })).filter((s) => s.words.length > 1),
);

/** Words that say nothing about which sentence holds a field ("name of the ..."). */
const GENERIC = new Set([
  'name',
  'number',
  'valu',
  'field',
  'current',
  'her',
  'his',
  'their',
  'total',
  'amount',
  'detail',
  'profil',
]);

interface Unit {
  doc: number;
  text: string;
  /** For a table row: its label (first cell) and the cells after it. */
  row?: { label: string; rest: string };
}

interface Candidate {
  unit: Unit;
  value: unknown;
  score: number;
  matched: number;
  found: string;
}

const round = (n: number) => Math.round(n * 1000) / 1000;

/** Sentences and table rows (tab-separated lines) of each document, verbatim. */
function unitsOf(documents: SchemaFillDocument[]): Unit[] {
  const units: Unit[] = [];
  documents.forEach((doc, i) => {
    for (const span of sentenceSpans(doc.text)) {
      const lines = span.text.split('\n');
      if (lines.every((line) => line.includes('\t'))) {
        for (const line of lines) {
          const [label, ...cells] = line.split('\t');
          units.push({ doc: i, text: line, row: { label: label!.trim(), rest: cells.join(' ').trim() } });
        }
      } else {
        units.push({ doc: i, text: span.text });
      }
    }
  });
  return units;
}

/** The field's search words: its name's and description's content words, with the synonyms of each. */
function termsOf(name: string, schema: JsonSchema): { term: string; weight: number }[] {
  const description = typeof schema.description === 'string' ? schema.description : '';
  const weights = new Map<string, number>();
  const add = (term: string, weight: number) => weights.set(term, Math.max(weights.get(term) ?? 0, weight));
  for (const t of tokenize(fieldWords(name, ''))) if (!GENERIC.has(t)) add(t, 2);
  for (const t of tokenize(description)) if (!GENERIC.has(t)) add(t, 1);
  for (const [t, w] of [...weights])
    for (const synonym of SYNONYMS[t] ?? []) for (const s of tokenize(synonym)) add(s, Math.min(w, 1.5));
  // A field that spells out a phrase in full ("chief executive") also searches the word the phrase
  // stands for ("CEO"), as pages write it either way ("led by CEO Dana Whitcombe").
  const named = new Set(tokenize(fieldWords(name, '')));
  for (const { key, words } of SPELT_OUT) if (words.every((word) => named.has(word))) add(key, 1.5);
  return [...weights].map(([term, weight]) => ({ term, weight }));
}

/** Where the field's words occur in `text`, with their weights. */
function termPositions(text: string, weights: Map<string, number>): { index: number; weight: number }[] {
  const out: { index: number; weight: number }[] = [];
  for (const m of text.matchAll(/[\p{L}\p{N}]+/gu)) {
    const weight = weights.get(stem(m[0].toLowerCase()));
    if (weight !== undefined) out.push({ index: m.index!, weight });
  }
  return out;
}

const typed = (value: unknown, schema: JsonSchema): unknown => {
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
  if (value === null || value === undefined) return null;
  if (type === 'integer') {
    const n = typeof value === 'number' ? value : Number(String(value).replace(/[^\d.-]/g, ''));
    return Number.isInteger(n) ? n : null;
  }
  if (type === 'number') {
    const n = typeof value === 'number' ? value : Number(String(value).replace(/[^\d.-]/g, ''));
    return Number.isFinite(n) ? n : null;
  }
  if (type === 'boolean') return typeof value === 'boolean' ? value : null;
  if (type === 'string') return String(value);
  return value;
};

/** The value of `kind` nearest a field word in the unit, or for text fields the row's value or the clause after the word. */
function pick(
  kind: ValueKind,
  unit: Unit,
  positions: { index: number; weight: number }[],
  termWords: Set<string>,
  entity: Set<string>,
  labelMatched: boolean,
): FoundValue | null {
  if (labelMatched && unit.row && (kind === 'text' || kind === 'money'))
    return { text: unit.row.rest, index: unit.text.indexOf(unit.row.rest), value: unit.row.rest };
  if (kind === 'boolean')
    return positions.length > 0
      ? { text: '', index: positions[0]!.index, value: !/\b(not|no|never|without)\b/i.test(unit.text) }
      : null;
  if (kind === 'text') {
    const at = positions[0]?.index;
    if (at === undefined) return null;
    // The words after the field's word up to the clause's end ("wrote tinyrank, a BM25 library" -> "tinyrank").
    const after = unit.text.slice(at).replace(/^[\p{L}\p{N}]+[\s:]*/u, '');
    const clause = /^(?:is|was|are|of|on|as|called|named)?\s*([^,;.()]{2,120})/u.exec(after)?.[1]?.trim();
    return clause ? { text: clause, index: at, value: clause } : null;
  }
  const values = valuesOfKind(kind, unit.text, entity).filter((v) => !termWords.has(stem(v.text.toLowerCase())));
  if (values.length === 0) return null;
  // The value sharing a clause with most of the field's words wins ("500 grams of rye flour, 420
  // grams of water": flour's grams are 500); then the nearest, a value before its word costing more.
  const clauses = clauseIds(unit.text);
  const lines = lineIds(unit.text);
  // Same clause counts most; the same line (a "Name, Title" row of a list) counts too.
  const score = (v: FoundValue) => {
    let shared = 0;
    for (const { index, weight } of positions) {
      if (clauses[index] === clauses[v.index]) shared += weight;
      else if (lines[index] === lines[v.index]) shared += weight / 2;
      // A field word right after a number is its unit ("210 degrees", "10 minutes"): the tightest bond.
      const gap = index - (v.index + v.text.length);
      if (gap >= 0 && gap <= 2) shared += weight;
    }
    const distance = positions.length
      ? Math.min(...positions.map(({ index }) => Math.abs(index - v.index) + (v.index < index ? 15 : 0)))
      : 1_000;
    return shared - distance / 1_000;
  };
  return values.reduce((best, v) => (score(v) > score(best) ? v : best));
}

/** For each character, the index of its clause (split at , ; : line breaks and "and"/"then"). */
function clauseIds(text: string): number[] {
  const ids: number[] = [];
  let id = 0;
  for (let i = 0; i < text.length; i++) {
    if (/[,;:\n]/.test(text[i]!) || /^\s(?:and|then|but|while)\s/.test(text.slice(i, i + 7))) id++;
    ids.push(id);
  }
  return ids;
}

/** For each character, the index of its line. */
function lineIds(text: string): number[] {
  const ids: number[] = [];
  let id = 0;
  for (let i = 0; i < text.length; i++) {
    if (text[i] === '\n') id++;
    ids.push(id);
  }
  return ids;
}

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
