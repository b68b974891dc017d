/**
 * The value of a field's kind picked from a sentence or table row: the one nearest the field's
 * words (sharing their clause or line counts most), typed as the field's schema asks.
 */
import { stem } from '@app/text';
import type { JsonSchema } from './schema-fill.port';
import type { Unit } from './text-units';
import { type FoundValue, type ValueKind, valuesOfKind } from './value-patterns';

export const typed = (value: unknown, schema: JsonSchema): unknown => {
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
export function pick(
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
