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
import { extractDocument } from '@app/extraction';
import { extractiveFollowUps } from '../libs/language/src/research/extractive.research-model';
import { ROOT } from './bench-util';
import { DATA, type DataSet, loadHotpot, loadSquad, type Question, scoreAnswer } from './realtext.bench';

export type Setting = 'given' | 'search';
export const SETTINGS: Setting[] = ['given', 'search'];

/** Pages read per question in the search setting, and a bridge name's pages. */
export const SEARCH_PAGES: Record<string, number> = { hotpotqa: 8, squad: 6, squad2: 6, fixture: 8 };
export const BRIDGE_PAGES = 3;

/** A finding and the pages it was graded over. */
export interface Graded {
  finding: Finding;
  passages: ResearchPassage[];
}

/**
 * The research-quality fixture (bench/fixtures/quality: a made-up web of organisations, their
 * people and directories) as a data set: its pages as the extraction reads them, its questions
 * with their accepted answers; its tuned-on part is `tune`, its held-out part `measure`.
 */
export function loadFixture(dir = path.join(ROOT, 'bench', 'fixtures', 'quality')): DataSet {
  const files: string[] = [];
  const walk = (d: string) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name.endsWith('.html')) files.push(p);
    }
  };
  walk(path.join(dir, 'pages'));
  const pages = files.map((file, id) => {
    const html = fs.readFileSync(file, 'utf8');
    const url = /<link rel="canonical" href="([^"]+)"/.exec(html)?.[1] ?? `file://${file}`;
    const doc = extractDocument(html, { url, contentType: 'text/html' });
    return { id, title: doc.title ?? url, text: doc.text, url };
  });
  const byUrl = new Map(pages.map((p) => [p.url.replace(/\/$/, ''), p.id]));
  const questions: Question[] = [];
  for (const file of fs
    .readdirSync(dir)
    .filter((f) => /^questions-.*\.json$/.test(f))
    .sort()) {
    const raw = JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8')) as {
      questions: Array<{
        id: string;
        split: string;
        hops: number;
        question: string;
        answers: string[];
        gold: string[];
      }>;
    };
    for (const q of raw.questions) {
      const gold = q.gold.flatMap((u) => (byUrl.has(u.replace(/\/$/, '')) ? [byUrl.get(u.replace(/\/$/, ''))!] : []));
      questions.push({
        id: q.id,
        part: q.split === 'tune' ? 'tune' : 'measure',
        question: q.question,
        answers: q.answers,
        gold,
        type: q.hops > 1 ? 'two-page' : 'single-hop',
        context: gold,
        answerable: true,
        task: true,
        deep: true,
      });
    }
  }
  return { name: 'fixture', pages, questions, samples: `${questions.length} questions` };
}

/** The data sets found under DATA (REALTEXT_DATA), each loaded once, and the research-quality fixture. */
export function loadSets(): DataSet[] {
  const sets: DataSet[] = [loadFixture()];
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

const words = (text: string) =>
  new Set((text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).filter((w) => w.length > 1));

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
  if (setting === 'search' && (set.name === 'hotpotqa' || set.name === 'fixture')) {
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
        .sort(
          (a, b) =>
            Number(kept.has(b.source)) - Number(kept.has(a.source)) || shared(b) - shared(a) || a.source - b.source,
        )
        .slice(0, MAX_PASSAGES)
        .sort((a, b) => a.source - b.source);
      const again = grade(q.question, over);
      if (again && bridged.has(again.evidence[0]!.source)) out.push({ finding: again, passages: over });
    }
  }
  return out;
}

/** A value scored as SQuAD 2.0 and HotpotQA score it (realtext.bench.ts). */
export const scoreValue = scoreAnswer;
