import { domainMatches } from '@app/urls';

/**
 * `filter_prompt` (monitors): a natural-language predicate evaluated per row. The extractive
 * engine reads a small grammar of predicates joined by "and" and says when a prompt is outside it.
 */
export interface FilterRow {
  url: string;
  title: string;
  snippet: string;
  date: string | null;
  domain: string;
}

export interface FilterVerdicts {
  /** One per row, in order; null when the predicate could not be evaluated. */
  kept: boolean[] | null;
  /** Why it could not, when kept is null. */
  note: string | null;
}

type Check = (row: FilterRow) => boolean;

/** One clause of the grammar, or undefined when the words are outside it. */
function clause(text: string): Check | undefined {
  const t = text.trim().replace(/[.!]+$/, '');
  let m =
    /^(?:it |the (?:row|result|page) )?(?:mentions?|contains?|says?|is about|talks about)\s+["“']?(.+?)["”']?$/i.exec(
      t,
    );
  if (m) {
    const phrase = m[1]!.toLowerCase();
    return (row) => `${row.title} ${row.snippet}`.toLowerCase().includes(phrase);
  }
  m =
    /^(?:it (?:was |is )?)?(?:published|dated)\s+(after|since|before|on or after|on or before)\s+(\d{4}-\d{2}-\d{2})$/i.exec(
      t,
    );
  if (m) {
    const [, how, day] = m;
    const op = how!.toLowerCase();
    return (row) =>
      !!row.date &&
      (op === 'after'
        ? row.date > day!
        : op === 'before'
          ? row.date < day!
          : op === 'on or before'
            ? row.date <= day!
            : row.date >= day!);
  }
  m = /^(?:it (?:is |comes )?)?(?:from|on)\s+(?:the\s+)?(?:domain|site|website)?\s*([a-z0-9.-]+\.[a-z]{2,})$/i.exec(t);
  if (m) {
    const domain = m[1]!.toLowerCase();
    return (row) => domainMatches(row.domain.toLowerCase(), domain);
  }
  return undefined;
}

export const EXTRACTIVE_FILTER_GRAMMAR =
  '"mentions <words>", "published after|before <YYYY-MM-DD>", "from domain <domain>", joined by "and"';

export function filterRowsExtractively(predicate: string, rows: FilterRow[]): FilterVerdicts {
  const checks = predicate.split(/\s+and\s+/i).map(clause);
  if (checks.some((c) => c === undefined)) {
    return {
      kept: null,
      note: `filter_prompt: the extractive engine cannot evaluate "${predicate}"; it reads ${EXTRACTIVE_FILTER_GRAMMAR} (an OpenAI-compatible model reads any predicate)`,
    };
  }
  return { kept: rows.map((row) => checks.every((check) => check!(row))), note: null };
}
