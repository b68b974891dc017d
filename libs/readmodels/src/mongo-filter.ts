import type { Context, Query } from 'mingo';
import { isDocument } from './bson-limits';
import type { Filter } from './read-store.port';

/**
 * A filter as MongoDB matches it, for mingo. mingo matches most of MongoDB's query language as
 * MongoDB does, and has no option for where it does not: a null operand on a path through an
 * array of sub-documents (mingo drops the elements that lack the field, so `{'items.sku': null}`
 * misses `items: [{sku: 'a'}, {}]`), `$gte`/`$lte: null` (mingo misses a missing field) and `$in`
 * of an array (mingo only compares the array's elements). Those few conditions are rewritten into
 * ones mingo answers as MongoDB does, null ones through one operator registered with mingo.
 */
export function mongoQuery(filter: Filter): Query {
  return new (mingo().Query)(rewrite(filter), { context: context() });
}

/**
 * mingo, loaded at the first filtered read rather than with the process (it takes some 0.2 s to
 * load, which a boot with nothing to read yet need not pay).
 */
let loaded: typeof import('mingo') | undefined;
// eslint-disable-next-line @typescript-eslint/no-require-imports
const mingo = (): typeof import('mingo') => (loaded ??= require('mingo') as typeof import('mingo'));

/** mingo's name for "null or missing at this path", as MongoDB's `{path: null}` means it. */
const NULL = '$nullOrMissing';

/**
 * Whether MongoDB's `{path: null}` matches `value` (a document, then what the path reaches): the
 * path reaches nothing (a missing field, or a null or scalar on the way), or reaches null, or an
 * array holding null. Through an array the path goes on in each element that is a sub-document
 * (and in the element a numeric step names); an empty array or one of scalars reaches nothing, so
 * does not match (jstests/core/null_query_semantics.js in MongoDB's repository).
 */
function nullAt(value: unknown, path: readonly string[], step = 0): boolean {
  if (step === path.length)
    return value === null || value === undefined || (Array.isArray(value) && value.includes(null));
  const field = path[step]!;
  if (Array.isArray(value)) {
    if (value.some((item) => isDocument(item) && nullAt(item[field], path, step + 1))) return true;
    return /^\d+$/.test(field) && Number(field) < value.length && nullAt(value[Number(field)], path, step + 1);
  }
  return isDocument(value) ? nullAt(value[field], path, step + 1) : true;
}

let registered: Context | undefined;
const context = (): Context =>
  (registered ??= mingo().Context.init({
    query: {
      [NULL]: (selector: string, wanted: unknown, _options: unknown) => {
        const path = selector.split('.');
        return (doc: Record<string, unknown>) => nullAt(doc, path) === wanted;
      },
    },
  }));

/** `{$gt: 1, $lt: 5}`, as opposed to a document to compare with (`{a: 1}`, `{}`). */
const isOperators = (value: unknown): value is Record<string, unknown> =>
  isDocument(value) && Object.keys(value).length > 0 && Object.keys(value).every((key) => key.startsWith('$'));

/** The filter with each condition mingo would answer otherwise rewritten; the filter itself when there is none. */
function rewrite(filter: Filter): Filter {
  const kept: Filter = {};
  const rewritten: Filter[] = [];
  for (const [key, condition] of Object.entries(filter)) {
    if ((key === '$and' || key === '$or' || key === '$nor') && Array.isArray(condition))
      kept[key] = condition.map((clause: Filter) => rewrite(clause));
    else {
      const clause = key.startsWith('$') ? undefined : rewriteField(key, condition);
      if (clause) rewritten.push(clause);
      else kept[key] = condition;
    }
  }
  return rewritten.length === 0 ? kept : { $and: [kept, ...rewritten] };
}

/** `{[field]: condition}` as mingo should see it, or undefined when mingo answers it as MongoDB does. */
function rewriteField(field: string, condition: unknown): Filter | undefined {
  if (condition === null) return { [field]: { [NULL]: true } };
  if (!isOperators(condition)) return undefined;
  const kept: Record<string, unknown> = {};
  const clauses: Filter[] = [];
  for (const [operator, operand] of Object.entries(condition)) {
    const clause = rewriteOperator(field, operator, operand);
    if (clause) clauses.push(clause);
    else kept[operator] = operand;
  }
  if (clauses.length === 0) return undefined;
  // Operators left as they are stay together ($regex with its $options).
  if (Object.keys(kept).length > 0) clauses.unshift({ [field]: kept });
  return clauses.length === 1 ? clauses[0] : { $and: clauses };
}

function rewriteOperator(field: string, operator: string, operand: unknown): Filter | undefined {
  switch (operator) {
    case '$eq':
    case '$gte':
    case '$lte':
      // Null is the only value of its type, so `$gte: null` and `$lte: null` mean `$eq: null`.
      return operand === null ? { [field]: { [NULL]: true } } : undefined;
    case '$ne':
      return operand === null ? { [field]: { [NULL]: false } } : undefined;
    case '$in':
    case '$nin': {
      if (!Array.isArray(operand) || !operand.some((item) => item === null || Array.isArray(item))) return undefined;
      // Each array as an equality (the whole array, or an element equal to it), null as null.
      const others = operand.filter((item) => item !== null && !Array.isArray(item));
      const alternatives: Filter[] = [
        ...(operand.includes(null) ? [{ [field]: { [NULL]: true } }] : []),
        ...operand.filter(Array.isArray).map((list) => ({ [field]: { $eq: list } })),
        ...(others.length > 0 ? [{ [field]: { $in: others } }] : []),
      ];
      return operator === '$in' ? { $or: alternatives } : { $nor: alternatives };
    }
    case '$not': {
      // MongoDB's `$not` matches whatever its operand does not, a missing field included.
      const inner = isOperators(operand) ? rewriteField(field, operand) : undefined;
      return inner ? { $nor: [inner] } : undefined;
    }
    default:
      return undefined;
  }
}
