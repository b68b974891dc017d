/**
 * The extractive reader run in process over the real-text data sets, as `bench:reader` measures
 * it and `train:reader` learns from it: each question read over the pages its data set gives it
 * ("given") or over SQLite FTS5's top pages for it ("search", HotpotQA then following one bridge
 * name as the service's research does), graded by the task path's own functions.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { MAX_PASSAGES, type ResearchPassage } from '@app/research';
import type { Finding } from '@app/domain';
import { extractiveFollowUps } from '../libs/language/src/research/extractive.research-model';
import { DATA, type DataSet, exactMatch, f1, loadHotpot, loadSquad, type Question } from './realtext.bench';

export type Setting = 'given' | 'search';
export const SETTINGS: Setting[] = ['given', 'search'];

/** Pages read per question in the search setting, and a bridge name's pages. */
export const SEARCH_PAGES: Record<string, number> = { hotpotqa: 8, squad: 6, squad2: 6 };
export const BRIDGE_PAGES = 3;

/** A finding and the pages it was graded over. */
export interface Graded {
  finding: Finding;
  passages: ResearchPassage[];
}

/** The data sets found under DATA (REALTEXT_DATA), each loaded once. */
export function loadSets(): DataSet[] {
  const sets: DataSet[] = [];
  for (const [dir, load] of [
    ['hotpotqa-dev', (d: string) => loadHotpot(d)],
    ['squad-superbowl', (d: string) => loadSquad(d, 'squad')],
    ['squad2-dev', (d: string) => loadSquad(d, 'squad2')],
  ] as const) {
    const folder = path.join(DATA, dir);
    if (fs.existsSync(path.join(folder, 'questions.jsonl'))) sets.push(load(folder));
    else process.stderr.write(`[reading] no ${folder}: left out\n`);
  }
  return sets;
}

function passage(set: DataSet, id: number, source: number): ResearchPassage {
  const page = set.pages[id]!;
  return { source, url: page.url, title: page.title, text: page.text };
}

const words = (text: string) => new Set((text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).filter((w) => w.length > 1));

/** One question read: its first finding, then (searching HotpotQA) a bridge name's pages read and the question graded again over them. */
export function readQuestion(
  set: DataSet,
  q: Question,
  setting: Setting,
  search: (text: string, limit: number) => number[],
  grade: (question: string, passages: ResearchPassage[]) => Finding | null,
): Graded[] {
  const ids = setting === 'given' ? q.context : search(q.question, SEARCH_PAGES[set.name] ?? 8);
  const passages = ids.map((id, i) => passage(set, id, i + 1));
  const out: Graded[] = [];
  const first = grade(q.question, passages);
  if (first) out.push({ finding: first, passages: [...passages] });
  if (setting === 'search' && set.name === 'hotpotqa') {
    const follow = extractiveFollowUps(q.question, passages, 1);
    const have = new Set(ids);
    const bridged = new Set<number>();
    for (const f of follow)
      for (const id of search(f.subquery, BRIDGE_PAGES)) {
        if (have.has(id)) continue;
        have.add(id);
        const p = passage(set, id, passages.length + 1);
        passages.push(p);
        bridged.add(p.source);
      }
    if (bridged.size > 0) {
      // The pipeline's regrade: the bridge's pages and the sentences that named them first, then
      // the pages sharing most of the question's words; accepted only when it rests on a bridge's page.
      const kept = new Set([...bridged, ...follow.flatMap((f) => (f.via ? [f.via.source] : []))]);
      const terms = words(q.question);
      const shared = (p: ResearchPassage) => [...words(`${p.title} ${p.text}`)].filter((w) => terms.has(w)).length;
      const over = [...passages]
        .sort((a, b) => Number(kept.has(b.source)) - Number(kept.has(a.source)) || shared(b) - shared(a) || a.source - b.source)
        .slice(0, MAX_PASSAGES)
        .sort((a, b) => a.source - b.source);
      const again = grade(q.question, over);
      if (again && bridged.has(again.evidence[0]!.source)) out.push({ finding: again, passages: over });
    }
  }
  return out;
}

/**
 * A value scored as SQuAD 2.0 and HotpotQA score it: against the best of the gold answers
 * (normalised exact match, token F1); no value (null) scores 1 on a question written to have no
 * answer and 0 on any other, and any value on such a question scores 0.
 */
export function scoreValue(q: Question, value: string | null | undefined): { em: number; f1: number } {
  const given = value !== null && value !== undefined && value.trim() !== '';
  if (!q.answerable) return given ? { em: 0, f1: 0 } : { em: 1, f1: 1 };
  if (!given) return { em: 0, f1: 0 };
  return { em: Math.max(...q.answers.map((g) => exactMatch(value, g))), f1: Math.max(...q.answers.map((g) => f1(value, g))) };
}
