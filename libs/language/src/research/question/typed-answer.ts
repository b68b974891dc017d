/** A typed answer: the value of the asked kind a passage states next to the question's predicate. */
import { stem, tokenize } from '@app/text';
import { type FoundValue, type ValueKind, valuesOfKind } from '../../schema-fill/value-patterns';
import type { QuestionAnalysis } from './analysis';
import type { AnswerUnit } from './answer-units';
import type { QuestionShape } from './question-shape';
import { roleHolder } from './role-holder';

export interface TypedAnswer {
  unit: AnswerUnit;
  /** The value as the page wrote it ("$25.0 million", "1997", "yes"). */
  value: string;
  score: number;
}

const FUTURE = /\b(?:will|plan|plans|planned|planning|going to|future|proposed|expected|next year)\b/i;
const PLANNED =
  /\b(?:will|plans? to|planning to|planned|proposed|is to|are to|to (?:build|open|create|launch|set up))\b/i;

const NEGATION = /\b(?:not|no|never|none|neither|nor|without|n['’]t|no longer|ceased|stopped)\b/i;

/**
 * The best unit carrying a value of the asked kind next to the question's predicate, on a page
 * about the asked entity: the typed answer, or null when no unit states one. A value the question
 * itself contains ("fiscal 2024" in a revenue question) is never the answer.
 */
export function typedAnswer(
  question: string | Pick<QuestionAnalysis, 'text' | 'words'>,
  shape: QuestionShape,
  units: AnswerUnit[],
): TypedAnswer | null {
  if (shape.kind === 'text') return null;
  // The question's words as analysed (a copy: the role-holder's name joins them), or read here.
  const asked = new Set(typeof question === 'string' ? tokenize(question) : question.words);
  // "Where did the chief executive of X study?": the chief executive's name is the link, not the answer.
  const holder = shape.relation && shape.kind !== 'person' ? roleHolder(shape, units) : null;
  if (holder) for (const t of tokenize(holder.name)) asked.add(t);
  const futureQuestion = FUTURE.test(typeof question === 'string' ? question : question.text);
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
    const score =
      matched + (labelMatched ? 2 : 0) + 0.5 * Math.min(2, entityHere) + found.bond - planned - order / 10_000;
    if (!best || score > best.score) best = { unit, value: found.value, score };
  });
  return best;
}

function valueFor(
  shape: QuestionShape,
  unit: AnswerUnit,
  asked: Set<string>,
  labelMatched: boolean,
): { value: string; bond: number } | null {
  // A sentence that reports a question ("people often ask whether …") states neither answer.
  if (shape.kind === 'boolean')
    return /\?|\bwhether\b/i.test(unit.text) ? null : { value: NEGATION.test(unit.text) ? 'no' : 'yes', bond: 0 };
  if (unit.text.includes('\t')) {
    if (!labelMatched) return null;
    const cells = unit.text.split('\t').map((c) => c.trim());
    if (cells.length < 2) return null;
    // Columns the question names ("FY2024", "2024", "Price") first, then the last one (the latest
    // figure), then the rest: the first whose cell holds a value of the asked kind.
    const named = (unit.header ?? []).flatMap((h, i) =>
      i > 0 && tokenize(h).some((t) => asked.has(t) || asked.has(t.replace(/^fy/, '')) || shape.predicate.has(t))
        ? [i]
        : [],
    );
    const order = [...new Set([...named, cells.length - 1, ...cells.keys()])].filter((i) => i > 0);
    // Cells that repeat the question's figures ("4 weeks" for "a four-week course") pick the row.
    const figures = numbersIn([...asked].join(' '));
    const echoed = cells.slice(1).filter((c) => numbersIn(c).some((n) => figures.includes(n))).length;
    for (const i of order) {
      const cell = cells[i]!;
      const typed =
        valuesOfKind(shape.kind, cell, shape.entity)[0] ??
        (shape.kind === 'money' ? moneyInUnits(cell, cells[0]!) : undefined);
      if (typed) return { value: typed.text, bond: 1.5 + echoed };
      if (shape.kind === 'person' || shape.kind === 'place' || shape.kind === 'organisation')
        return { value: cell, bond: 1 + echoed };
    }
    return null;
  }
  const values = valuesOfKind(shape.kind, unit.text, shape.entity).filter((v) => !askedValue(v, asked));
  if (values.length === 0) return null;
  // The value nearest a predicate word wins; one in the same clause is bound to it.
  const positions = [...unit.text.matchAll(/[\p{L}\p{N}]+/gu)]
    .filter((m) => shape.predicate.has(stem(m[0].toLowerCase())))
    .map((m) => m.index!);
  // A predicate word inside the value ("Design Academy" for a design question) is not near it.
  const distance = (v: FoundValue) => {
    const outside = positions.filter((p) => p < v.index || p >= v.index + v.text.length);
    return outside.length
      ? Math.min(...outside.map((p) => (p < v.index ? v.index - p : p - (v.index + v.text.length))))
      : 200;
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

const NUMBER_WORD: Record<string, string> = {
  one: '1',
  two: '2',
  three: '3',
  four: '4',
  five: '5',
  six: '6',
  seven: '7',
  eight: '8',
  nine: '9',
  ten: '10',
  twelve: '12',
};
/** Figures of a text, number words as digits ("four-week" -> 4). */
const numbersIn = (text: string): string[] =>
  [...text.toLowerCase().matchAll(/\d+(?:\.\d+)?|[a-z]+/g)]
    .map((m) => NUMBER_WORD[m[0]] ?? m[0])
    .filter((w) => /^\d/.test(w));

/** A bare figure under a label that gives its unit ("Revenue (€ million)" 212.4 -> "€212.4 million"). */
function moneyInUnits(cell: string, label: string): FoundValue | undefined {
  if (!/^\d[\d,]*(?:\.\d+)?$/.test(cell.trim())) return undefined;
  const currency = /(?:US)?\$|€|£|₹|¥|\b(?:EUR|USD|GBP|CHF|INR|JPY|SEK|NOK|DKK|AUD|CAD|NZD)\b|\b(?:Rs|kr)\b/.exec(
    label,
  )?.[0];
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
export const formatValue = (kind: ValueKind, value: string): string =>
  kind === 'boolean' ? (value === 'yes' ? 'Yes' : 'No') : value.replace(/\s+/g, ' ').trim();
