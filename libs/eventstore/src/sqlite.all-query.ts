/** The SQL of a $all read in the sqlite adapter, its prefix filter written as range conditions. */
import type { AllFilter } from './event-store.port';
import { activePrefixes, prefixUpperBound } from './prefix-filter';
import { COLUMNS } from './sqlite.rows';

/**
 * $all query with the filter as range conditions (`x >= prefix AND x < upper`) that SQLite
 * evaluates while walking the rowid in position order. The `+` keeps the planner from choosing
 * the (stream, revision) index for a prefix: that plan sorts every matching row to return a
 * batch, which makes a catch-up over a broad prefix quadratic.
 */
export function allQuery(filter: AllFilter | undefined): { sql: string; params: string[] } {
  const params: string[] = [];
  const clauses: string[] = [];
  const dimension = (column: string, prefixes: readonly string[] | undefined): void => {
    if (!prefixes) return;
    const ranges = prefixes.map((prefix) => {
      const upper = prefixUpperBound(prefix);
      params.push(prefix);
      if (upper === undefined) return `+${column} >= ?`;
      params.push(upper);
      return `(+${column} >= ? AND +${column} < ?)`;
    });
    clauses.push(`(${ranges.join(' OR ')})`);
  };
  dimension('stream', activePrefixes(filter?.streamPrefixes));
  dimension('type', activePrefixes(filter?.eventTypePrefixes));
  const where = ['position > ?', ...clauses].join(' AND ');
  return { sql: `SELECT ${COLUMNS} FROM events WHERE ${where} ORDER BY position LIMIT ?`, params };
}
