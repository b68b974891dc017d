/**
 * A field's search words: the words of its name and description, the words pages use for them
 * (SYNONYMS), and where those words occur in a sentence, each with its weight.
 */
import { stem, tokenize } from '@app/text';
import type { JsonSchema } from './schema-fill.port';
import { fieldWords } from './value-patterns';

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
export const GENERIC = new Set([
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

/** The field's search words: its name's and description's content words, with the synonyms of each. */
export function termsOf(name: string, schema: JsonSchema): { term: string; weight: number }[] {
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
export function termPositions(text: string, weights: Map<string, number>): { index: number; weight: number }[] {
  const out: { index: number; weight: number }[] = [];
  for (const m of text.matchAll(/[\p{L}\p{N}]+/gu)) {
    const weight = weights.get(stem(m[0].toLowerCase()));
    if (weight !== undefined) out.push({ index: m.index!, weight });
  }
  return out;
}
