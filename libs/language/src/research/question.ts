import { sentenceSpans, stem, tokenize } from '@app/text';
import { SYNONYMS } from '../schema-fill/extractive.schema-filler';
import { type FoundValue, type ValueKind, valuesOfKind } from '../schema-fill/value-patterns';

/**
 * What a research question asks for, read the way a reference librarian would: the kind of value
 * that answers it (a year, a date, money, a number, a person, a place, an organisation, yes/no, or
 * free text), the entity it is about (its capitalised name), the words that say which fact is
 * wanted (its predicate, with the words pages use for them) and, for a question about someone or
 * something linked to the entity ("the chief executive of X"), that link. Deterministic, English-first.
 */
export interface QuestionShape {
  kind: ValueKind;
  /** Stems of the entity's name ("Brightwater Foods" -> brightwater, food). */
  entity: Set<string>;
  /** The entity's name as written in the question, or null. */
  entityName: string | null;
  /** Stemmed predicate words with weights: the question's own words 2, their synonyms 1.5. */
  predicate: Map<string, number>;
  /** "the chief executive of X": the role and the phrase to replace once the role-holder is known. */
  relation: { role: string; phrase: string } | null;
}

/** Words that say what kind of answer is wanted, or only phrase the question: never a predicate. */
const QUESTION_WORDS = new Set(
  tokenize(
    'what which who whom whose when where how many much year years date day month name number city town country region place ' +
      'organisation organization company firm amount figure value total current currently today kind type exactly approximately roughly',
  ),
);

/** Roles a question may ask about through the entity ("the founder of X", "X's chief executive"). */
const ROLES = [
  'chief executive officer',
  'chief executive',
  'chief technology officer',
  'chief financial officer',
  'chief operating officer',
  'managing director',
  'executive director',
  'head chef',
  'head of research',
  'co-founder',
  'cofounder',
  'founder',
  'ceo',
  'cto',
  'cfo',
  'coo',
  'chair',
  'chairman',
  'chairwoman',
  'chairperson',
  'president',
  'director',
  'principal',
  'rector',
  'dean',
  'head',
  'owner',
  'designer',
  'architect',
  'inventor',
  'creator',
  'author',
  'editor',
  'curator',
  'conductor',
  'coach',
  'captain',
  'lead engineer',
  'maintainer',
  'parent company',
  'owner company',
  'supplier',
  'chief scientist',
  'chief medical officer',
  'chief engineer',
  'chief designer',
  'general manager',
  'managing partner',
  'principal investigator',
  'vice-chancellor',
  'chancellor',
  'provost',
  'headteacher',
  'head teacher',
  'head brewer',
  'brewer',
  'brewmaster',
  'winemaker',
  'roaster',
  'chef',
  'manager',
  'partner',
  'leader',
  'scientist',
  'engineer',
  'developer',
  'treasurer',
  'secretary',
  'trustee',
  'proprietor',
  'co-owner',
  'skipper',
  'warden',
  'mayor',
];
/** Names are capitalised, so patterns that find them take no `i` flag: other words are made case-blind. */
const caseBlind = (words: string) => words.replace(/[a-z]/g, (c) => `[${c}${c.toUpperCase()}]`).replace(/[-\s]+/g, '[-\\s]+');
// "head of engineering", "director of research": a head of any department is a role too.
const ROLE_PATTERN = [`(?:${caseBlind('head')}|${caseBlind('director')}|${caseBlind('vice president')})[-\\s]+${caseBlind('of')}\\s+\\p{Ll}+`, ...ROLES.map(caseBlind)].join('|');
/** "the chief executive of Brightwater Foods" / "Brightwater Foods' founder" / "Brightwater's CEO". */
const ROLE_OF = new RegExp(`\\b(?:${caseBlind('the')}\\s+|${caseBlind('its')}\\s+|${caseBlind('their')}\\s+)?(?:current\\s+|former\\s+|first\\s+)?((?:(?!(?:did|does|do|was|were|is|are|has|have|had|the|its|their|of|at|in|for|and|a|an|to|where|when|what|which|who|how)\\s)\\p{Ll}[\\p{Ll}-]*\\s+){0,2}?(?:${ROLE_PATTERN}))\\s+(?:of|at)\\s+((?:the\\s+)?\\p{Lu}[\\p{L}\\p{N}&'’.-]*(?:\\s+(?:of|for|and|&|de|the)?\\s*(?:\\p{Lu}[\\p{L}\\p{N}&'’.-]*|\\d+\\b)){0,4})`, 'u');
const POSSESSIVE_ROLE = new RegExp(`((?:\\p{Lu}[\\p{L}\\p{N}&.-]*\\s+){0,3}\\p{Lu}[\\p{L}\\p{N}&.-]*)(?:['’]s|['’])\\s+(?:current\\s+|former\\s+)?(${ROLE_PATTERN})\\b`, 'u');

/** Words of the research vocabulary beyond the schema filler's (keys are stems, as `tokenize` gives them). */
const MORE_SYNONYMS: Record<string, string[]> = {
  study: ['studied', 'graduated', 'degree', 'educated', 'alumnus', 'alumna', 'trained', 'doctorate', 'phd'],
  born: ['born', 'birth', 'native'],
  grew: ['grew', 'raised', 'childhood', 'hometown'],
  work: ['worked', 'career', 'joined', 'spent', 'previously', 'before'],
  bought: ['acquired', 'acquisition', 'purchased', 'takeover', 'buys', 'buy'],
  buy: ['acquired', 'acquisition', 'purchased', 'takeover', 'buys', 'bought'],
  acquir: ['acquired', 'bought', 'purchased', 'takeover', 'acquisition'],
  own: ['owned', 'owner', 'subsidiary', 'parent'],
  open: ['opened', 'opening', 'inaugurated', 'launched'],
  launch: ['launched', 'introduced', 'unveiled', 'released'],
  employ: ['employs', 'employees', 'staff', 'workforce', 'headcount', 'people'],
  employe: ['employs', 'staff', 'workforce', 'headcount', 'people'],
  peopl: ['employs', 'employees', 'staff', 'workforce', 'headcount'],
  staff: ['employs', 'employees', 'workforce', 'headcount', 'people'],
  worker: ['employs', 'employees', 'staff', 'workforce', 'people'],
  headquarter: ['headquarters', 'headquartered', 'based', 'head office', 'hq', 'main office'],
  base: ['based', 'headquartered', 'headquarters', 'head office'],
  locat: ['located', 'based', 'headquartered'],
  lead: ['leads', 'led', 'heads', 'runs', 'chief', 'executive'],
  run: ['runs', 'leads', 'heads', 'managed'],
  ceo: ['chief executive', 'chief executive officer', 'managing director', 'leads', 'heads'],
  revenu: ['revenue', 'revenues', 'sales', 'turnover', 'income'],
  sale: ['sales', 'revenue', 'turnover'],
  rais: ['raised', 'funding', 'round', 'investment', 'secured'],
  fund: ['funding', 'raised', 'round', 'investment', 'grant'],
  cost: ['cost', 'costs', 'price', 'invested', 'investment', 'budget'],
  invest: ['invested', 'investment', 'investing', 'cost'],
  produc: ['produces', 'makes', 'output', 'manufactures', 'built'],
  mak: ['makes', 'produces', 'manufactures'],
  sell: ['sells', 'sold', 'exports', 'ships', 'stocks', 'available'],
  export: ['exports', 'ships', 'sells', 'abroad'],
  list: ['listed', 'exchange', 'publicly', 'shares', 'traded'],
  public: ['publicly', 'listed', 'exchange', 'traded', 'private', 'privately'],
  traded: ['listed', 'exchange', 'publicly', 'shares'],
  member: ['members', 'membership'],
  student: ['students', 'enrolled', 'enrolment', 'enrollment'],
  visitor: ['visitors', 'visits', 'attendance'],
  capacit: ['capacity', 'megawatts', 'mw', 'gw', 'seats', 'beds'],
};

const synonymsOf = (term: string): string[] => [...(SYNONYMS[term] ?? []), ...(MORE_SYNONYMS[term] ?? [])];

export function questionKind(question: string): ValueKind {
  const q = question.toLowerCase().replace(/\s+/g, ' ').trim();
  if (/^(?:is|are|was|were|does|do|did|has|have|had|can|could|will|would|should)\b/.test(q)) return 'boolean';
  if (/\b(?:what|which) (?:year|decade)\b|\bin what year\b|\byear (?:was|did|were)\b/.test(q)) return 'year';
  if (/\b(?:what|which) (?:date|day)\b|\bon what date\b/.test(q)) return 'date';
  if (/\bwhen\b/.test(q)) return /\b(?:found|founded|established|born|incorporated|set up|formed|created|started)\b/.test(q) ? 'year' : 'date';
  // "Which non-profit organisation …" names the kind outright, whatever other words follow.
  if (/\b(?:which|what|whose) (?:[\w-]+ )?(?:company|companies|firm|organisation|organization|university|college|school|bank|investor|investors|group|brand|supplier|manufacturer|institution|publisher|employer|business|fund|agency|club|team|charity|foundation|retailer|partner|customer|airline)\b/.test(q)) return 'organisation';
  if (/\bwhat (?:percentage|percent|share|proportion)\b|\bby how much\b.*\b(?:grow|grew|rise|rose|fall|fell)\b/.test(q)) return 'percent';
  if (/\bhow much\b/.test(q) || (/^(?:what|which)\b/.test(q) && /(?<!-)\b(?:revenue|revenues|turnover|sales|price|cost|costs|funding|budget|valuation|investment|profit|income|loss|fee|fees|salary|earnings)\b/.test(q))) return 'money';
  if (/\bhow many\b|\bnumber of\b|\bhow (?:large|big|tall|long|old|high|far)\b|\bwhat (?:size|capacity|headcount)\b/.test(q)) return 'number';
  if (/\bwhere\b.*\b(?:study|studied|educated|train|trained|graduate|graduated|work|worked|employed|intern)\b/.test(q)) return 'organisation';
  if (/\bwho (?:acquired|bought|owns|owned|funded|supplies|supplied|manufactures|makes|published|invested)\b/.test(q)) return 'organisation';
  if (/\bwhere\b|\b(?:which|what|in which|in what) (?:city|town|country|region|state|village|port|island|province|county|neighbourhood|neighborhood)\b/.test(q)) return 'place';
  if (/\bwho\b|\bwhom\b|\bwhose\b|\bwhich person\b|\bname of (?:the|its|their) (?:ceo|founder|chief|director|head|owner|president|chair)/.test(q)) return 'person';
  return 'text';
}

export function analyseQuestion(question: string): QuestionShape {
  const kind = questionKind(question);
  const relation = relationOf(question);
  const names = namesIn(relation ? question.replace(relation.phrase, ' ') : question);
  const entityName = names.entity ?? (relation ? namesIn(relation.phrase).entity : null);
  const entity = new Set(entityName ? tokenize(entityName) : []);
  const roleTerms = new Set(relation ? tokenize(relation.role) : []);
  const predicate = new Map<string, number>();
  for (const term of tokenize(question)) {
    if (entity.has(term) || QUESTION_WORDS.has(term) || /^\d+$/.test(term)) continue;
    // The role names the link, not the fact asked about it: it matters less than the predicate.
    predicate.set(term, Math.max(predicate.get(term) ?? 0, roleTerms.has(term) ? 1 : 2));
  }
  for (const [term, weight] of [...predicate]) {
    for (const synonym of synonymsOf(term)) for (const s of tokenize(synonym)) if (!predicate.has(s) && !entity.has(s)) predicate.set(s, Math.min(weight, 1.5));
  }
  return { kind, entity, entityName, predicate, relation };
}

/**
 * The named entity: a run of capitalised words after the question's first word. A run after "at",
 * "of", "from", "by", "for" or "with" names who the question is about ("a four-week Intensive
 * Spanish course at Corvallen Idiomas"); otherwise the first run does ("did Ledgerlark raise in its
 * Series B round"). The other runs' words stay predicate words: they narrow the fact asked for.
 */
function namesIn(text: string): { entity: string | null } {
  const words = [...text.matchAll(/[\p{L}\p{N}][\p{L}\p{N}&'’.-]*/gu)];
  const runs: Array<{ name: string; led: boolean }> = [];
  let run: string[] = [];
  let led = false;
  const flush = () => {
    const name = run.join(' ').replace(/[.,;:!?]+$/, '').replace(/['’]s?$/, '').replace(/\s+(?:of|and|&|de|for)$/, '');
    if (name) runs.push({ name, led });
    run = [];
  };
  words.forEach((m, i) => {
    const word = m[0];
    const capital = /^\p{Lu}/u.test(word) && i > 0 && !QUESTION_WORDS.has(stem(word.toLowerCase()));
    const joiner = run.length > 0 && /^(?:of|and|&|de|for)$/.test(word);
    if (capital || joiner) {
      if (run.length === 0) led = /^(?:at|of|from|by|for|with)$/i.test(words[i - 1]?.[0] ?? '');
      run.push(word);
    } else flush();
  });
  flush();
  const entity = runs.find((r) => r.led) ?? runs[0];
  return { entity: entity?.name ?? null };
}

/** "the person who founded X": the verb's role. */
const WHO_DID: Record<string, string> = {
  founded: 'founder',
  'co-founded': 'co-founder',
  started: 'founder',
  leads: 'leader',
  led: 'leader',
  runs: 'head',
  ran: 'head',
  heads: 'head',
  headed: 'head',
  owns: 'owner',
  owned: 'owner',
  designed: 'designer',
  created: 'creator',
  invented: 'inventor',
  chairs: 'chair',
  directs: 'director',
  manages: 'manager',
  wrote: 'author',
};
const WHO_DID_PATTERN = new RegExp(
  `\\b${caseBlind('the')}\\s+(?:person|man|woman|people|scientist|engineer|chef|entrepreneur)\\s+(?:who|that)\\s+(?:(?:first|originally|currently)\\s+)?(${Object.keys(WHO_DID).join('|')})\\s+((?:the\\s+)?\\p{Lu}[\\p{L}\\p{N}&'’.-]*(?:\\s+(?:of|for|and|&|de|the)?\\s*(?:\\p{Lu}[\\p{L}\\p{N}&'’.-]*|\\d+\\b)){0,4})`,
  'u',
);

function relationOf(question: string): QuestionShape['relation'] {
  const who = WHO_DID_PATTERN.exec(question);
  if (who) return { role: WHO_DID[who[1]!]!, phrase: who[0].trim() };
  const of = ROLE_OF.exec(question);
  if (of) return { role: of[1]!.toLowerCase(), phrase: of[0].trim() };
  const possessive = POSSESSIVE_ROLE.exec(question);
  if (possessive) return { role: possessive[2]!.toLowerCase(), phrase: possessive[0].trim() };
  return null;
}

/** One sentence or table row of a passage, verbatim, with what the question needs to know of it. */
export interface AnswerUnit {
  source: number;
  text: string;
  /** Table rows: the header cells of their table, for picking the column a question names. */
  header?: string[];
  /** The passage is about the question's entity (its title or text names it). */
  about: boolean;
}

export interface TypedAnswer {
  unit: AnswerUnit;
  /** The value as the page wrote it ("$25.0 million", "1997", "yes"). */
  value: string;
  score: number;
}

/** Sentences and table rows of passages (tab-separated lines as the extractor writes tables). */
export function answerUnits(passages: Array<{ source: number; title: string; text: string; url?: string }>, shape: Pick<QuestionShape, 'entity'>, minChars: number, maxChars: number): AnswerUnit[] {
  const units: AnswerUnit[] = [];
  for (const p of passages) {
    // The site's own name counts: a museum's "Plan your visit" page need not repeat the museum's name.
    const words = new Set(tokenize(`${p.title} ${p.text} ${hostWords(p.url)}`));
    // Pages shorten names ("the Halvergate Institute" for "… for Coastal Research"): half of its words do.
    // The name's first word is its distinctive one ("Tamsworth" of "Tamsworth Polytechnic"): a page must have it.
    const entity = [...shape.entity];
    const named = entity.filter((e) => words.has(e)).length;
    const about = entity.length === 0 || (words.has(entity[0]!) && named >= Math.ceil(entity.length / 2));
    for (const span of sentenceSpans(p.text)) {
      const lines = span.text.split('\n');
      if (lines.length > 1 && lines.every((line) => line.includes('\t'))) {
        const header = lines[0]!.split('\t').map((c) => c.trim());
        for (const line of lines.slice(1)) units.push({ source: p.source, text: line, header, about });
        continue;
      }
      if (lines.length > 1) {
        // A list ("Founded: 1966" / "Staff: 540"): each line is its own statement, short ones too.
        for (const line of lines.map((l) => l.trim())) if (line.length >= 8 && line.length <= maxChars) units.push({ source: p.source, text: line, about });
        continue;
      }
      if (span.text.length >= minChars && span.text.length <= maxChars) units.push({ source: p.source, text: span.text, about });
    }
  }
  return units;
}

/** `https://fenwright-museum.test/visit` -> "fenwright museum": the host's name words. */
const hostWords = (url: string | undefined): string => {
  if (!url) return '';
  try {
    return new URL(url).hostname.split('.').slice(0, -1).filter((p) => p !== 'www').join(' ').replace(/-/g, ' ');
  } catch {
    return '';
  }
};

const ORGANISATION_WORD = /\b(?:Capital|Partners|Group|Ventures|Holdings|Ltd|Limited|Inc|LLC|GmbH|AG|SA|Fund|Bank|Foundation|Trust|Systems|Company|Corporation|University|Institute|College|Council|Agency|Labs?|Studio|Media|Investments?)\b/;
const PRONOUN = /^(?:She|He|They|It|We|I|You|This|That|Who|Which|Our|Their|His|Her)$/;
const HONORIFIC = /^(?:(?:Dr|Prof|Professor|Mr|Mrs|Ms|Mx|Sir|Dame|Lord|Lady)\.?\s+)+/;

const FUTURE = /\b(?:will|plan|plans|planned|planning|going to|future|proposed|expected|next year)\b/i;
const PLANNED = /\b(?:will|plans? to|planning to|planned|proposed|is to|are to|to (?:build|open|create|launch|set up))\b/i;

const NEGATION = /\b(?:not|no|never|none|neither|nor|without|n['’]t|no longer|ceased|stopped)\b/i;

/**
 * The best unit carrying a value of the asked kind next to the question's predicate, on a page
 * about the asked entity: the typed answer, or null when no unit states one. A value the question
 * itself contains ("fiscal 2024" in a revenue question) is never the answer.
 */
export function typedAnswer(question: string, shape: QuestionShape, units: AnswerUnit[]): TypedAnswer | null {
  if (shape.kind === 'text') return null;
  const asked = new Set(tokenize(question));
  // "Where did the chief executive of X study?": the chief executive's name is the link, not the answer.
  const holder = shape.relation && shape.kind !== 'person' ? roleHolder(shape, units) : null;
  if (holder) for (const t of tokenize(holder.name)) asked.add(t);
  const futureQuestion = FUTURE.test(question);
  let best: TypedAnswer | null = null;
  units.forEach((unit, order) => {
    if (!unit.about && shape.entity.size > 0) return;
    const tokens = tokenize(unit.text);
    const present = new Set(tokens);
    let matched = 0;
    for (const [term, weight] of shape.predicate) if (present.has(term)) matched += weight;
    const isRow = unit.text.includes('\t');
    const label = isRow ? new Set(tokenize(unit.text.split('\t')[0] ?? '')) : null;
    const labelMatched = !!label && [...shape.predicate.keys()].some((t) => label.has(t));
    if (matched === 0 && !labelMatched) return;
    const entityHere = [...shape.entity].filter((e) => present.has(e)).length;
    const found = valueFor(shape, unit, asked, labelMatched);
    if (!found) return;
    // "Where is its plant?" asks what is: a plan ("to build a plant in Harborview") answers another question.
    const planned = !futureQuestion && shape.kind !== 'boolean' && PLANNED.test(unit.text) ? 1 : 0;
    const score = matched + (labelMatched ? 2 : 0) + 0.5 * Math.min(2, entityHere) + found.bond - planned - order / 10_000;
    if (!best || score > best.score) best = { unit, value: found.value, score };
  });
  return best;
}

function valueFor(shape: QuestionShape, unit: AnswerUnit, asked: Set<string>, labelMatched: boolean): { value: string; bond: number } | null {
  // A sentence that reports a question ("people often ask whether …") states neither answer.
  if (shape.kind === 'boolean') return /\?|\bwhether\b/i.test(unit.text) ? null : { value: NEGATION.test(unit.text) ? 'no' : 'yes', bond: 0 };
  if (unit.text.includes('\t')) {
    if (!labelMatched) return null;
    const cells = unit.text.split('\t').map((c) => c.trim());
    if (cells.length < 2) return null;
    // Columns the question names ("FY2024", "2024", "Price") first, then the last one (the latest
    // figure), then the rest: the first whose cell holds a value of the asked kind.
    const named = (unit.header ?? []).flatMap((h, i) => (i > 0 && tokenize(h).some((t) => asked.has(t) || asked.has(t.replace(/^fy/, '')) || shape.predicate.has(t)) ? [i] : []));
    const order = [...new Set([...named, cells.length - 1, ...cells.keys()])].filter((i) => i > 0);
    // Cells that repeat the question's figures ("4 weeks" for "a four-week course") pick the row.
    const figures = numbersIn([...asked].join(' '));
    const echoed = cells.slice(1).filter((c) => numbersIn(c).some((n) => figures.includes(n))).length;
    for (const i of order) {
      const cell = cells[i]!;
      const typed = valuesOfKind(shape.kind, cell, shape.entity)[0] ?? (shape.kind === 'money' ? moneyInUnits(cell, cells[0]!) : undefined);
      if (typed) return { value: typed.text, bond: 1.5 + echoed };
      if (shape.kind === 'person' || shape.kind === 'place' || shape.kind === 'organisation') return { value: cell, bond: 1 + echoed };
    }
    return null;
  }
  const values = valuesOfKind(shape.kind, unit.text, shape.entity).filter((v) => !askedValue(v, asked));
  if (values.length === 0) return null;
  // The value nearest a predicate word wins; one in the same clause is bound to it.
  const positions = [...unit.text.matchAll(/[\p{L}\p{N}]+/gu)].filter((m) => shape.predicate.has(stem(m[0].toLowerCase()))).map((m) => m.index!);
  // A predicate word inside the value ("Design Academy" for a design question) is not near it.
  const distance = (v: FoundValue) => {
    const outside = positions.filter((p) => p < v.index || p >= v.index + v.text.length);
    return outside.length ? Math.min(...outside.map((p) => (p < v.index ? v.index - p : p - (v.index + v.text.length)))) : 200;
  };
  // Figures written in digits state amounts; "three of them" is usually a manner of speaking.
  const worded = (v: FoundValue) => (shape.kind === 'number' && /^[a-z]+$/i.test(v.text) ? 60 : 0) + describesOther(v);
  // "a 40-minute bus ride": a figure joined to its unit describes the noun after it; when the
  // question never names that noun, the figure is about something else.
  const describesOther = (v: FoundValue) => {
    const noun = /^-[\p{L}]+\s+([\p{L}]+)/u.exec(unit.text.slice(v.index + v.text.length))?.[1];
    return noun && !tokenize(noun).some((t) => asked.has(t) || shape.predicate.has(t)) ? 80 : 0;
  };
  const nearest = values.reduce((a, b) => (distance(b) + worded(b) < distance(a) + worded(a) ? b : a));
  const d = distance(nearest) + worded(nearest);
  return { value: String(nearest.text), bond: d <= 40 ? 1 : d <= 100 ? 0.5 : 0 };
}

const NUMBER_WORD: Record<string, string> = { one: '1', two: '2', three: '3', four: '4', five: '5', six: '6', seven: '7', eight: '8', nine: '9', ten: '10', twelve: '12' };
/** Figures of a text, number words as digits ("four-week" -> 4). */
const numbersIn = (text: string): string[] => [...text.toLowerCase().matchAll(/\d+(?:\.\d+)?|[a-z]+/g)].map((m) => NUMBER_WORD[m[0]] ?? m[0]).filter((w) => /^\d/.test(w));

/** A bare figure under a label that gives its unit ("Revenue (€ million)" 212.4 -> "€212.4 million"). */
function moneyInUnits(cell: string, label: string): FoundValue | undefined {
  if (!/^\d[\d,]*(?:\.\d+)?$/.test(cell.trim())) return undefined;
  const currency = /(?:US)?\$|€|£|₹|¥|\b(?:EUR|USD|GBP|CHF|INR|JPY|SEK|NOK|DKK|AUD|CAD|NZD)\b|\b(?:Rs|kr)\b/.exec(label)?.[0];
  if (!currency) return undefined;
  const scale = /\b(thousand|million|billion|crore|lakh|bn|m|k)\b/i.exec(label)?.[1];
  const symbol = /^[$€£₹¥]|US\$/.test(currency);
  const text = `${symbol ? currency : `${currency} `}${cell.trim()}${scale ? ` ${scale}` : ''}`;
  return { text, index: 0, value: text };
}

/** The value repeats the question ("2024" of "fiscal 2024", the entity's own name). */
const askedValue = (v: FoundValue, asked: Set<string>) => {
  const terms = tokenize(v.text);
  return terms.length > 0 && terms.every((t) => asked.has(t));
};

/** "yes"/"no" are words of the report's own; other values are the page's spelling. */
export const formatValue = (kind: ValueKind, value: string): string => (kind === 'boolean' ? (value === 'yes' ? 'Yes' : 'No') : value.replace(/\s+/g, ' ').trim());

/**
 * Who holds the question's role at its entity, as the units name them: "our chief executive, Dana
 * Whitcombe", "Dana Whitcombe, founder", "founded by Dana Whitcombe", "Dana Whitcombe leads …".
 */
export function roleHolder(shape: QuestionShape, units: AnswerUnit[]): { name: string; unit: AnswerUnit } | null {
  if (!shape.relation) return null;
  const role = caseBlind(shape.relation.role);
  const name = "(\\p{Lu}[\\p{L}'’-]+(?:\\s+(?:van|von|de|da|del|le|la)?\\s*\\p{Lu}[\\p{L}'’-]+){1,3})";
  const by = (words: string[]) => words.map((w) => caseBlind(w)).join('|');
  const roleWords = /found/.test(shape.relation.role)
    ? `(?:${role}|${by(['founded by', 'co-founded by', 'started by', 'set up by', 'established by'])})`
    : /^(?:ceo|chief executive|chief executive officer|managing director|head|leader|director|president|chair|chairman|chairwoman|chairperson|principal|rector)$/.test(shape.relation.role)
      ? `(?:${role}|${by(['led by', 'headed by', 'run by', 'managed by', 'chaired by', 'directed by'])})`
      : /design|creat|invent|author/.test(shape.relation.role)
        ? `(?:${role}|${by(['designed by', 'created by', 'invented by', 'written by', 'drawn by'])})`
        : /owner/.test(shape.relation.role)
          ? `(?:${role}|${by(['owned by'])})`
          : role;
  const verbs = /found/.test(shape.relation.role)
    ? 'co-founded|founded|started|set up|established'
    : /^(?:ceo|chief executive|chief executive officer|managing director|head|leader|director|president)$/.test(shape.relation.role)
      ? 'runs|leads|heads|has led|has run|has headed|took over'
      : /design|creat|invent/.test(shape.relation.role)
        ? 'designed|created|invented'
        : null;
  const patterns = [
    new RegExp(`${role}(?:\\s+(?:and\\s+)?[\\p{Ll}]+){0,4}?[,:]?\\s+${name}`, 'u'),
    new RegExp(`${name}\\s*(?:[,:–—-]\\s*)?(?:(?:is|was|has been|serves as|became|as)\\s+)?(?:(?:the|our|its|their)\\s+)?(?:[\\p{L}-]+\\s+){0,3}?${role}\\b`, 'u'),
    new RegExp(`${name}\\s*\\((?:[^)]*\\b)?${role}\\b`, 'u'),
    // "Dana Whitcombe founded …", "… runs …": the verb of the role.
    ...(verbs ? [new RegExp(`${name}\\s+(?:${verbs})\\b`, 'u')] : []),
    // "led by …", "founded by …": weaker, as a funding round or a project is led by someone too.
    new RegExp(`${roleWords}(?:\\s+(?:and\\s+)?[\\p{Ll}]+){0,4}?[,:]?\\s+${name}`, 'u'),
  ];
  // A first name alone ("Mette joined Skarnvik as chief executive"), weakest of all: pages about the
  // person may still give the full name, and a search for the first name with the question finds them.
  const single = "(\\p{Lu}[\\p{L}'’-]+)";
  const firstNamePatterns = [patterns[0]!, patterns[1]!].map((p) => new RegExp(p.source.split(name).join(single), 'u'));
  const personRole = !/company|supplier|owner|partner/.test(shape.relation.role);
  let best: { name: string; unit: AnswerUnit; score: number } | null = null;
  const score0 = (pattern: number, order: number) => (20 - pattern) * 0.1 - order / 10_000;
  const all = [...patterns.map((p, i) => ({ p, weight: i, minWords: 2 })), ...firstNamePatterns.map((p, i) => ({ p, weight: 10 + i, minWords: 1 }))];
  units.forEach((unit, order) => {
    // Only a page about the question's entity says who holds its role (another body has its own).
    if (!unit.about) return;
    for (const { p: pattern, weight: i, minWords } of all) {
      const m = pattern.exec(unit.text);
      if (!m) continue;
      const found = m[1]!.replace(/['’]s$/, '').trim();
      // The role word itself capitalised ("Chief Executive Dana …") is not part of the name.
      const cleaned = found
        .split(/\s+/)
        .filter((w) => !new RegExp(`^(?:${ROLE_PATTERN}|Chief|Executive|Officer|Our|The|Its|Their|Managing|Director)$`, 'i').test(w))
        .join(' ');
      if (!cleaned || cleaned.split(' ').length < minWords || PRONOUN.test(cleaned) || tokenize(cleaned).some((t) => shape.entity.has(t))) continue;
      // A person holds a person's role: "Pellbrook Capital" led a funding round, not the company.
      if (personRole && ORGANISATION_WORD.test(cleaned)) continue;
      // A title is not part of the name pages use for the person ("Dr Ewan Strachie" -> "Ewan Strachie").
      const bare = cleaned.replace(HONORIFIC, '');
      if (bare.split(' ').length >= 2 && bare !== cleaned) {
        if (!best || score0(i, order) > best.score) best = { name: bare, unit, score: score0(i, order) };
        continue;
      }
      const score = score0(i, order);
      if (!best || score > best.score) best = { name: cleaned, unit, score };
    }
  });
  return best ? { name: (best as { name: string }).name, unit: (best as { unit: AnswerUnit }).unit } : null;
}

/**
 * What a role is "of" when the question describes it instead of naming it: "the lead designer of
 * Verabrook Medical's flagship infusion pump" -> owner Verabrook Medical, described "flagship
 * infusion pump" (lower-case words after the possessive, up to an adverb or a verb-like word).
 */
export function describedObject(question: string, shape: QuestionShape): { text: string; descriptor: string } | null {
  if (!shape.relation || !shape.entityName) return null;
  const at = question.indexOf(shape.relation.phrase);
  if (at < 0 || !/['’]s?$/.test(shape.relation.phrase)) return null;
  const rest = question.slice(at + shape.relation.phrase.length);
  const descriptor: string[] = [];
  for (const word of rest.trim().split(/\s+/)) {
    if (!/^\p{Ll}[\p{Ll}-]*$/u.test(word) || /ly$/.test(word) || DESCRIPTOR_STOP.has(word) || descriptor.length >= 3) break;
    descriptor.push(word);
  }
  if (descriptor.length === 0) return null;
  const possessive = shape.relation.phrase.slice(shape.relation.phrase.lastIndexOf(shape.entityName));
  return { text: `${possessive} ${descriptor.join(' ')}`, descriptor: descriptor.join(' ') };
}

const DESCRIPTOR_STOP = new Set('did does do was were is are has have had in at on for of to from by with before after when where while who which that study studied work worked design designed hold holds born live lives'.split(' '));

/** The name the entity's own pages give what the question describes ("Our flagship infusion pump is the Sentria 4"). */
export function describedName(descriptor: string, shape: QuestionShape, units: AnswerUnit[]): { name: string; unit: AnswerUnit } | null {
  const wanted = tokenize(descriptor);
  const need = Math.min(2, wanted.length);
  for (const unit of units) {
    if (!unit.about) continue;
    const present = new Set(tokenize(unit.text));
    if (wanted.filter((w) => present.has(w)).length < need) continue;
    for (const m of unit.text.matchAll(/\p{Lu}[\p{L}'’-]+(?:\s+(?:\p{Lu}[\p{L}'’-]*|\d+[\p{L}]*))*/gu)) {
      const name = m[0].replace(/['’]s$/, '');
      const terms = tokenize(name);
      // Not the owner itself, not a word opening the sentence ("Our").
      if (terms.length === 0 || terms.some((t) => shape.entity.has(t)) || NOT_NAMES.has(name) || m.index === 0) continue;
      return { name, unit };
    }
  }
  return null;
}

const NOT_NAMES = new Set(['The', 'Our', 'We', 'It', 'Its', 'This', 'That', 'These', 'In', 'On', 'At']);

const PLACE_NOUNS = 'company|firm|organisation|organization|employer|business|university|institute|school|college|lab|laboratory|startup|hospital|charity|studio|agency';
const NAME = "\\p{Lu}[\\p{L}'’-]+(?:\\s+\\p{Lu}[\\p{L}'’-]+){1,3}";
/** "the company where Henrik Salvesen works", "the university that Ana Lopes attended", "Henrik Salvesen's employer". */
const AFFILIATION = [
  new RegExp(`\\b${caseBlind('the')}\\s+(?:(?:[\\p{Ll}-]+)\\s+)?(?:${PLACE_NOUNS})\\s+(?:where|that|which|for which|at which|in which)\\s+(${NAME})\\s+(?:now\\s+|currently\\s+|later\\s+|first\\s+)?(?:works|worked|is employed|was employed|teaches|taught|studied|studies|trained|attended|joined|founded|co-founded|started|runs|ran|leads|led|heads|headed|chairs)(?:\\s+(?:for|at|in|as))?`, 'u'),
  new RegExp(`\\b${caseBlind('the')}\\s+(?:(?:[\\p{Ll}-]+)\\s+)?(?:${PLACE_NOUNS})\\s+(?:that|which|who)\\s+(?:now\\s+|currently\\s+)?(?:employs|employed|hired|hires|trained|funds|funded)\\s+(${NAME})`, 'u'),
  new RegExp(`(${NAME})['’]s?\\s+(?:current\\s+|former\\s+|first\\s+)?(?:employer|company|firm|university|alma mater|school|college|startup|business)\\b`, 'u'),
];
const AFFILIATION_WORDS = new Set(tokenize('work worked works joined join employ employed teach teaches taught study studied trained attended found founded co-founded start started run runs lead leads led head heads chair chairs at'));

/** A question that names a person's organisation by its relation to them, and that person. */
export function affiliation(question: string): { phrase: string; person: string } | null {
  for (const pattern of AFFILIATION) {
    const m = pattern.exec(question);
    if (m) return { phrase: m[0].trim(), person: m[1]! };
  }
  return null;
}

/** The organisation a person's pages tie them to ("I joined Tindral Systems in 2012" -> Tindral Systems). */
export function affiliationName(person: string, passages: Array<{ source: number; title: string; text: string; url?: string }>): { name: string; unit: AnswerUnit } | null {
  const personTerms = new Set(tokenize(person));
  const units = answerUnits(passages, { entity: personTerms }, 20, 600);
  let best: { name: string; unit: AnswerUnit; score: number } | null = null;
  units.forEach((unit, order) => {
    if (!unit.about) return;
    const words = [...unit.text.matchAll(/[\p{L}\p{N}]+/gu)];
    const anchors = words.filter((m) => AFFILIATION_WORDS.has(stem(m[0].toLowerCase()))).map((m) => m.index!);
    if (anchors.length === 0) return;
    for (const v of valuesOfKind('organisation', unit.text, personTerms)) {
      if (tokenize(v.text).some((t) => personTerms.has(t)) || NOT_NAMES.has(v.text)) continue;
      const distance = Math.min(...anchors.map((a) => Math.abs(a - v.index)));
      const score = -distance - order / 10_000;
      if (!best || score > best.score) best = { name: v.text, unit, score };
    }
  });
  return best ? { name: (best as { name: string }).name, unit: (best as { unit: AnswerUnit }).unit } : null;
}

/**
 * A follow-up question's pronoun resolved with the name an earlier message gave ("Tell me about
 * HelioGrid." then "Where is its battery plant?" -> "Where is HelioGrid's battery plant?"). A
 * question that names its own entity, or has no pronoun, is returned as it is.
 */
export function resolveReference(question: string, context: string): string {
  if (analyseQuestion(question).entityName) return question;
  const name = namesIn(` ${context}`).entity;
  if (!name) return question;
  let done = false;
  const once = (replacement: string) => (match: string) => {
    if (done) return match;
    done = true;
    return /^\p{Lu}/u.test(match) && !/^\p{Lu}/u.test(replacement) ? replacement.charAt(0).toUpperCase() + replacement.slice(1) : replacement;
  };
  return question.replace(/\b(?:its|their|his|her)\b/i, once(`${name}'s`)).replace(/\b(?:it|they|them|he|she|him)\b/i, once(name));
}
