import type { Source } from '@app/domain';
import { tokenize } from '@app/text';
import type { ResearchPassage } from '../research-model.port';
import { normalizeUrl } from '@app/urls';
import { grade, gradeOne } from './grade';
import { MAX_FOLLOW_UP_ROUNDS, MAX_PASSAGES, type ResearchPorts, type ResearchProgress } from './ports';
import { chooseReads, readPages } from './read';
import { searchAndMerge } from './search';
import {
  addTokens,
  byRank,
  type Doc,
  type Entry,
  evidenceText,
  numberSources,
  oneLine,
  type ResearchState,
  sourcesOf,
  toResult,
} from './state';

/**
 * 6. Follow up: what the evidence names that the question depends on, searched, read and graded
 * in rounds while the budgets last. Sources keep their numbers; new ones are numbered after them.
 * True when stopped.
 */
export async function followUp(
  state: ResearchState,
  ports: ResearchPorts,
  progress: ResearchProgress,
): Promise<boolean> {
  for (
    let round = 2;
    round <= MAX_FOLLOW_UP_ROUNDS + 1 && state.subqueries.length < state.maxSubqueries && state.question;
    round++
  ) {
    const step = await followUpRound(state, ports, progress, round);
    if (step !== 'next') return step === 'stopped';
  }
  return false;
}

/**
 * One follow-up round: the model's follow-ups on the evidence for the question (new sub-queries
 * only), planned, searched, read and graded. 'next' when a follow-up restated the question (it is
 * then the question of the next round), 'done' when there is nothing more to follow.
 */
export async function followUpRound(
  state: ResearchState,
  ports: ResearchPorts,
  progress: ResearchProgress,
  round: number,
): Promise<'stopped' | 'done' | 'next'> {
  if (progress.stopped()) return 'stopped';
  const asked = state.question;
  const evidence = passagesOver(asked, sourcesOf(state), state.entries, state.docs);
  if (evidence.length === 0) return 'done';
  const room = state.maxSubqueries - state.subqueries.length;
  const next = await ports.model.followUp(asked, evidence, room);
  // A planning step when it cost something or planned something: an offline look that finds
  // nothing to follow is not a step the run is charged for.
  if (next.followUps.length > 0 || next.usage.input + next.usage.output > 0) state.usage.planner_calls++;
  addTokens(state, next.usage);
  const known = new Set(state.subqueries.map(queryKey));
  const shown = new Set(evidence.map((p) => p.source));
  const fresh = next.followUps
    .filter((f) => {
      const key = queryKey(f.subquery);
      if (!f.subquery.trim() || known.has(key)) return false;
      known.add(key);
      return true;
    })
    .slice(0, room);
  if (fresh.length === 0) return 'done';
  const from = state.subqueries.length;
  state.subqueries = [...state.subqueries, ...fresh.map((f) => oneLine(f.subquery))];
  if (progress.stopped()) return 'stopped';
  await progress.planned(state.subqueries, state.subqueries.length * state.pagesPer, round);
  if (await searchAndMerge(state, ports, progress, from)) return 'stopped';
  const numbered = sourcesOf(state);
  const newEntries = state.entries
    .values()
    .filter((e) => [...e.queries].some((i) => i >= from) && !numbered.some((s) => normalizeUrl(s.url) === e.key));
  if (
    await readPages(
      state,
      ports,
      progress,
      chooseReads(newEntries.sort(byRank).map(toResult), state, state.fetchesLeft, from),
    )
  )
    return 'stopped';
  state.sources = appendSources(numbered, newEntries, state.docs, state.limit, state.subqueries);
  const via = new Map(fresh.filter((f) => f.via && shown.has(f.via.source)).map((f) => [oneLine(f.subquery), f.via!]));
  if (await grade(state, ports, progress, from, via)) return 'stopped';
  const bridges = fresh.filter((f) => f.regrade);
  if (bridges.length > 0) {
    const bridged = new Set(state.sources.slice(numbered.length).map((s) => s.index));
    if (
      await regrade(
        state,
        ports,
        progress,
        bridged,
        bridges.flatMap((f) => (f.via && shown.has(f.via.source) ? [f.via] : [])),
      )
    )
      return 'stopped';
  }
  const restated = fresh.find((f) => f.restates);
  if (!restated) return 'done';
  state.restatements.unshift(oneLine(restated.subquery));
  state.question = oneLine(restated.subquery);
  return 'next';
}

/**
 * The question graded again once a bridge's pages (`bridged`, the sources this round added) are
 * read: over them and the pages that named them, then the others by the question's words. Its
 * finding answers the question only when it rests on a bridge's page (a reading of the same pages
 * again is no news), citing the sentence that led there too. True when stopped.
 */
async function regrade(
  state: ResearchState,
  ports: ResearchPorts,
  progress: ResearchProgress,
  bridged: Set<number>,
  links: Array<{ source: number; quote: string }>,
): Promise<boolean> {
  if (progress.stopped()) return true;
  if (bridged.size === 0) return false;
  const first = new Set([...bridged, ...links.map((l) => l.source)]);
  const passages = passagesOver(state.question, sourcesOf(state), state.entries, state.docs, first);
  if (passages.length === 0) return false;
  const shown = new Set(passages.map((p) => p.source));
  return gradeOne(
    state,
    ports,
    progress,
    state.question,
    passages,
    links.find((l) => shown.has(l.source)) ?? null,
    (f) => bridged.has(f.evidence[0]!.source),
  );
}

/** Two sub-queries with the same stemmed words are one search. */
const queryKey = (q: string) => [...new Set(tokenize(q))].sort().join(' ') || q.toLowerCase();

/**
 * Sources found by a follow-up round, numbered after the existing ones (whose numbers findings
 * already cite), best first, as many as `limit` allows beyond them but at least the best two.
 */
function appendSources(
  sources: Source[],
  fresh: Entry[],
  docs: Map<string, Doc>,
  limit: number,
  subqueries: string[],
): Source[] {
  const room = Math.max(2, limit - sources.length);
  const ranked = [...fresh].sort(byRank).slice(0, room);
  const numbered = numberSources(ranked.map(toResult), new Map(ranked.map((e) => [e.key, e])), docs, subqueries).map(
    (s, i) => ({ ...s, index: sources.length + i + 1 }),
  );
  return [...sources, ...numbered];
}

/** Every source's text focused on the question: what a follow-up decision looks at. */
export function passagesOver(
  question: string,
  sources: Source[],
  entries: { get(key: string): Entry | undefined },
  docs: Map<string, Doc>,
  kept: Set<number> = new Set(),
): ResearchPassage[] {
  const terms = new Set(tokenize(question));
  const out: Array<ResearchPassage & { shared: number }> = [];
  for (const s of sources) {
    const e = entries.get(normalizeUrl(s.url));
    if (!e) continue;
    const text = evidenceText(e, docs, question);
    const shared = new Set(tokenize(`${s.title} ${text}`).filter((t) => terms.has(t))).size;
    if (text.trim()) out.push({ source: s.index, url: s.url, title: s.title, text, shared });
  }
  // The passages sharing most of the question's words (`kept` ones first), in source order.
  return out
    .sort(
      (a, b) => Number(kept.has(b.source)) - Number(kept.has(a.source)) || b.shared - a.shared || a.source - b.source,
    )
    .slice(0, MAX_PASSAGES)
    .sort((a, b) => a.source - b.source)
    .map(({ shared: _shared, ...p }) => p);
}
