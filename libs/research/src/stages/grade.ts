import type { Finding, Source } from '@app/domain';
import { tokenize } from '@app/text';
import type { FollowUp, ResearchPassage } from '../research-model.port';
import { normalizeUrl } from '@app/urls';
import { MAX_PASSAGES, type ResearchPorts, type ResearchProgress } from './ports';
import { addTokens, type Doc, type Entry, evidenceText, fullText, type ResearchState, sourcesOf } from './state';

/**
 * 5. Grade sub-queries `from`.., each against its passages (see `passagesFor`); a finding is kept
 * once checked (see `checkedFinding`) and recorded. `via` adds the passage that named a follow-up's
 * entity to its finding. True when stopped.
 */
export async function grade(
  state: ResearchState,
  ports: Pick<ResearchPorts, 'model'>,
  progress: ResearchProgress,
  from = 0,
  via: Map<string, FollowUp['via']> = new Map(),
): Promise<boolean> {
  for (let i = from; i < state.subqueries.length; i++) {
    const subquery = state.subqueries[i]!;
    if (progress.stopped()) return true;
    const passages = passagesFor(i, subquery, sourcesOf(state), state.entries, state.docs);
    if (passages.length === 0) continue; // nothing to judge: no call, no finding
    if (await gradeOne(state, ports, progress, subquery, passages, via.get(subquery) ?? null)) return true;
  }
  return false;
}

/**
 * One grading call: `subquery` against `passages`; the finding, once checked (see
 * `checkedFinding`) and where `keep` accepts it, is recorded, with `link` (the sentence that led
 * to it) cited after its own quotes. True when stopped.
 */
export async function gradeOne(
  state: ResearchState,
  ports: Pick<ResearchPorts, 'model'>,
  progress: ResearchProgress,
  subquery: string,
  passages: ResearchPassage[],
  link: FollowUp['via'],
  keep: (finding: Finding) => boolean = () => true,
): Promise<boolean> {
  const graded = await ports.model.grade(subquery, passages);
  state.usage.grader_calls++;
  addTokens(state, graded.usage);
  let finding = graded.finding && checkedFinding(graded.finding, subquery, passages);
  if (!finding || !keep(finding)) return false;
  // The chain is cited too: the answer quote, then the sentence that led to it.
  if (
    link &&
    sourcesOf(state).some((s) => s.index === link.source) &&
    !finding.evidence.some((e) => e.quote === link.quote)
  ) {
    finding = {
      ...finding,
      citations: [...new Set([...finding.citations, link.source])],
      evidence: [...finding.evidence, link],
    };
  }
  if (progress.stopped()) return true;
  await progress.findingGraded(finding);
  state.findings.push(finding);
  return false;
}

/**
 * Sub-query `i`'s own results (the read text focused on it, or the snippet when no read was
 * tried) plus documents read for other sub-queries that mention its terms (shared evidence), at
 * most MAX_PASSAGES, in source order.
 */
export function passagesFor(
  i: number,
  subquery: string,
  sources: Source[],
  entries: { get(key: string): Entry | undefined },
  docs: Map<string, Doc>,
): ResearchPassage[] {
  const terms = new Set(tokenize(subquery));
  const own: ResearchPassage[] = [];
  const shared: ResearchPassage[] = [];
  for (const s of sources) {
    const e = entries.get(normalizeUrl(s.url))!;
    const full = fullText(e, docs);
    const mine = e.queries.has(i);
    // Another sub-query's document joins only when it mentions this one's terms at all.
    if (!mine && !(full && tokenize(full).some((t) => terms.has(t)))) continue;
    const text = evidenceText(e, docs, subquery);
    if (text.trim()) (mine ? own : shared).push({ source: s.index, url: s.url, title: s.title, text });
  }
  return [...own, ...shared].slice(0, MAX_PASSAGES).sort((a, b) => a.source - b.source);
}

/** Trust but verify: the finding is for this sub-query and cites only sources it was shown. */
export function checkedFinding(f: Finding, subquery: string, passages: ResearchPassage[]): Finding | null {
  const shown = new Set(passages.map((p) => p.source));
  const evidence = f.evidence.filter((e) => shown.has(e.source));
  if (evidence.length === 0) return null;
  const citations = [...new Set([...f.citations.filter((c) => shown.has(c)), ...evidence.map((e) => e.source)])];
  return { ...f, subquery, citations, evidence };
}
