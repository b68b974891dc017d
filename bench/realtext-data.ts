/**
 * The real-text data sets of `bench:realtext` (and of the benches that read them): HotpotQA's and
 * SQuAD's paragraphs and questions as pages and questions, read from REALTEXT_DATA, each question
 * put in the tune or the measure part once for all.
 */
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ROOT } from './bench-util';

export type Part = 'tune' | 'measure';
export const DATA = path.resolve(ROOT, process.env.REALTEXT_DATA ?? path.join('..', 'shared', 'data'));
const SQUAD_TASK_EVERY = Number(process.env.REALTEXT_SQUAD_TASK_EVERY ?? 1);
const SQUAD_DEEP_EVERY = Number(process.env.REALTEXT_SQUAD_DEEP_EVERY ?? 1);

export interface Page {
  id: number;
  title: string;
  text: string;
  url: string;
}
export interface Question {
  id: string;
  part: Part;
  question: string;
  answers: string[];
  /** Ids of the gold pages. */
  gold: number[];
  type: string;
  /** The pages the data set gives the question to read: HotpotQA's ten paragraphs (its two gold ones and eight distractors); SQuAD's own paragraph. */
  context: number[];
  /** False: written to have no answer in the text (SQuAD 2.0); right only when answered null. */
  answerable: boolean;
  /** Which kinds of call ask this question (search always). */
  task: boolean;
  deep: boolean;
}
export interface DataSet {
  name: string;
  pages: Page[];
  questions: Question[];
  samples: string;
}

export const partOf = (id: string): Part => (createHash('sha256').update(id).digest()[0]! < 128 ? 'tune' : 'measure');

const readJsonl = <T>(file: string): T[] =>
  fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as T);

const wikiUrl = (title: string) =>
  `https://en.wikipedia.org/wiki/${encodeURIComponent(title.replace(/ /g, '_')).replace(/%2F/g, '/')}`;

export function loadHotpot(dir: string): DataSet {
  const raw = readJsonl<{ title: string; text: string }>(path.join(dir, 'paragraphs.jsonl'));
  const pages = raw.map((p, id) => ({ id, title: p.title, text: p.text, url: wikiUrl(p.title) }));
  const byTitle = new Map(pages.map((p) => [p.title, p.id]));
  const questions = readJsonl<{
    id: string;
    question: string;
    answer: string;
    type: string;
    supporting: string[];
    titles: string[];
  }>(path.join(dir, 'questions.jsonl')).map((q): Question => ({
    id: q.id,
    part: partOf(q.id),
    question: q.question.trim(),
    answers: [q.answer],
    gold: q.supporting.map((t) => {
      const id = byTitle.get(t);
      if (id === undefined) throw new Error(`hotpotqa: no paragraph titled ${JSON.stringify(t)}`);
      return id;
    }),
    type: q.type,
    context: q.titles.flatMap((t) => (byTitle.has(t) ? [byTitle.get(t)!] : [])),
    answerable: true,
    task: true,
    deep: true,
  }));
  return {
    name: 'hotpotqa',
    pages,
    questions,
    samples: `${questions.length} questions, all of them for every kind of call`,
  };
}

/** SQuAD (v1.1, `squad`) or SQuAD 2.0 (`squad2`, with questions written to have no answer). */
export function loadSquad(dir: string, name = 'squad'): DataSet {
  const raw = readJsonl<{ id: number; title: string; text: string }>(path.join(dir, 'paragraphs.jsonl'));
  const pages = raw.map((p, id) => ({
    id,
    title: p.title,
    text: p.text,
    url: `${wikiUrl(p.title)}?paragraph=${p.id}`,
  }));
  const byParagraph = new Map(raw.map((p, id) => [p.id, id]));
  const sorted = readJsonl<{
    id: string;
    question: string;
    answers: string[];
    paragraph: number;
    answerable?: boolean;
  }>(path.join(dir, 'questions.jsonl')).sort((a, b) => a.id.localeCompare(b.id));
  const questions = sorted.map((q, i): Question => ({
    id: q.id,
    part: partOf(q.id),
    question: q.question.trim(),
    answers: q.answers,
    gold: [byParagraph.get(q.paragraph)!],
    type: q.answerable === false ? 'unanswerable' : 'single-hop',
    context: [byParagraph.get(q.paragraph)!],
    answerable: q.answerable !== false && q.answers.length > 0,
    task: SQUAD_TASK_EVERY > 0 && i % SQUAD_TASK_EVERY === 0,
    deep: SQUAD_DEEP_EVERY > 0 && i % SQUAD_DEEP_EVERY === 0,
  }));
  const n = (pick: (q: Question) => boolean) => questions.filter(pick).length;
  const step = (every: number) =>
    every === 1 ? 'every question' : every > 1 ? `every ${every}th by id order` : 'none';
  return {
    name,
    pages,
    questions,
    samples:
      `${questions.length} questions for search; tasks on ${step(SQUAD_TASK_EVERY)} (${n((q) => q.task)}); ` +
      `deep runs and chat on ${step(SQUAD_DEEP_EVERY)} (${n((q) => q.deep)})`,
  };
}
