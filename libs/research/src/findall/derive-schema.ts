import type { FindAllCondition, FindAllSchema } from '@app/domain';

/** Plural nouns an enumeration query names its entities with. */
const TYPE_NOUNS =
  /\b(companies|startups|start-ups|firms|businesses|organisations|organizations|manufacturers|suppliers|universities|labs|laboratories|institutes|people|researchers|founders|products|projects|restaurants|hospitals|schools|banks|stores|shops|agencies|teams)\b/i;

const clean = (text: string) =>
  text
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/[.?!]+$/, '');

/** One condition in words, or a keyword condition when no pattern reads it. */
function readCondition(phrase: string): FindAllCondition | undefined {
  const p = clean(phrase).replace(/^(?:that are|that|which are|which|who are|who|and|with)\s+/i, '');
  if (!p) return undefined;
  let m = /^(?:are\s+|is\s+)?(?:headquartered|based|located|situated|with (?:its )?head office)\s+in\s+(.+)$/i.exec(p);
  if (m) return { name: `headquartered in ${clean(m[1]!)}`, kind: 'place', value: clean(m[1]!) };
  m = /^(?:were\s+|was\s+)?(?:founded|established|started|incorporated)\s+(after|before|in|since)\s+(\d{4})$/i.exec(p);
  if (m) {
    const how = m[1]!.toLowerCase();
    const year = Number(m[2]);
    if (how === 'after') return { name: `founded after ${year}`, kind: 'year_after', value: year };
    if (how === 'before') return { name: `founded before ${year}`, kind: 'year_before', value: year };
    if (how === 'since') return { name: `founded in or after ${year}`, kind: 'year_after', value: year - 1 };
    return { name: `founded in ${year}`, kind: 'year_in', value: year };
  }
  m =
    /^(?:having\s+|employing\s+)?(more|over|fewer|less|under)\s+than\s+(\d[\d,]*)\s+(?:employees|people|staff|workers)$/i.exec(
      p,
    ) ?? /^(over|under)\s+(\d[\d,]*)\s+(?:employees|people|staff|workers)$/i.exec(p);
  if (m) {
    const n = Number(m[2]!.replace(/,/g, ''));
    const more = /more|over/i.test(m[1]!);
    return {
      name: `${more ? 'more' : 'fewer'} than ${n} employees`,
      kind: more ? 'count_more' : 'count_less',
      value: n,
    };
  }
  return { name: p, kind: 'keyword', value: p };
}

/**
 * The entity type and match conditions of an enumeration query: "robotics companies founded after
 * 2010 headquartered in Berlin" gives type "companies" and the conditions "robotics" (a keyword the
 * entity's own page must carry), "founded after 2010" and "headquartered in Berlin" (values
 * compared, not words). The generator's queries search for the type with each condition.
 */
export function deriveFindAllSchema(query: string): FindAllSchema {
  const q = clean(query);
  const noun = TYPE_NOUNS.exec(q);
  const entityType = noun ? noun[1]!.toLowerCase() : 'entities';
  const before = noun ? clean(q.slice(0, noun.index)).replace(/^(?:all|every|the|find|list)\s+/i, '') : '';
  const after = noun ? q.slice(noun.index + noun[0].length) : q;
  const conditions: FindAllCondition[] = [];
  if (before) conditions.push({ name: before.toLowerCase(), kind: 'keyword', value: before.toLowerCase() });
  // Conditions follow one another with or without a joining word: split before each one's verb too.
  for (const piece of after.split(
    /,|\band\b|\bthat\b|\bwhich\b|\bwho\b|(?=\b(?:founded|established|started|incorporated|headquartered|based|located|situated|with|having|employing)\b)/i,
  )) {
    const condition = readCondition(piece);
    if (condition) conditions.push(condition);
  }
  const base = `${before ? `${before} ` : ''}${entityType}`;
  const queries = [
    q,
    base,
    `${entityType} directory`,
    ...conditions.filter((c) => c.kind !== 'keyword').map((c) => `${base} ${c.name}`),
  ];
  return {
    objective: `Find all ${q}`,
    entity_type: entityType,
    conditions,
    generator: { queries: [...new Set(queries)] },
  };
}
