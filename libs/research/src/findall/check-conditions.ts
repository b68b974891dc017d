import type { ConditionReason, FindAllCondition } from '@app/domain';
import { sentenceSpans } from '@app/text';

export interface EntityPage {
  url: string;
  title: string;
  text: string;
}

const norm = (s: string) =>
  s
    .toLowerCase()
    .replace(/[^\p{L}\p{N}() ]/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();

/** The first sentence of the page that `pattern` finds, and its match. */
function find(page: EntityPage, pattern: RegExp): { sentence: string; match: RegExpExecArray } | undefined {
  for (const span of sentenceSpans(`${page.text}`)) {
    const match = pattern.exec(span.text);
    if (match) return { sentence: span.text, match };
  }
  return undefined;
}

const YEAR = /\b(?:founded|started|established|incorporated|operating since|since)\b\D{0,12}?\b(1[89]\d\d|20\d\d)\b/i;
const COUNT =
  /\b(?:employs|employing|team of|counts|staff of|headcount of|workforce of)\s+(?:about\s+|around\s+|some\s+)?(\d[\d,]*)/i;
const PLACE = /\b(?:headquartered|based|head office|headquarters|located)\s+(?:is\s+)?in\s+([^.;]+)/i;

/**
 * Whether one condition holds for an entity, judged on the entity's own page, with the sentence
 * that decides it. Years and head counts are compared as numbers, places as names (the city named
 * first), keywords as words the page carries.
 */
export function checkCondition(condition: FindAllCondition, page: EntityPage): ConditionReason {
  const reason = (holds: boolean, excerpt: string | null): ConditionReason => ({
    condition: condition.name,
    holds,
    evidence_url: excerpt ? page.url : null,
    excerpt,
  });
  switch (condition.kind) {
    case 'place': {
      const found = find(page, PLACE);
      if (!found) return reason(false, null);
      const named = norm(found.match[1]!.split(',')[0]!);
      return reason(named === norm(String(condition.value)), found.sentence);
    }
    case 'year_after':
    case 'year_before':
    case 'year_in': {
      const found = find(page, YEAR);
      if (!found) return reason(false, null);
      const year = Number(found.match[1]);
      const bound = Number(condition.value);
      const holds =
        condition.kind === 'year_after'
          ? year > bound
          : condition.kind === 'year_before'
            ? year < bound
            : year === bound;
      return reason(holds, found.sentence);
    }
    case 'count_more':
    case 'count_less': {
      const found = find(page, COUNT);
      if (!found) return reason(false, null);
      const n = Number(found.match[1]!.replace(/,/g, ''));
      return reason(
        condition.kind === 'count_more' ? n > Number(condition.value) : n < Number(condition.value),
        found.sentence,
      );
    }
    case 'keyword': {
      const words = norm(String(condition.value)).split(' ').filter(Boolean);
      const pattern = new RegExp(
        `\\b${words.map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('\\s+')}\\b`,
        'i',
      );
      const found = find(page, pattern);
      return reason(!!found, found?.sentence ?? null);
    }
  }
}
