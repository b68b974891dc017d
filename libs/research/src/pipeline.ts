import type { Finding, RunResult, RunUsage, Source } from '@app/domain/search-run/search-run.events';
import { focusExcerpts } from '@app/extraction/excerpts';
import { tokenize } from '@app/text';
import type { FollowUp, ResearchModel, ResearchPassage, TokenUsage } from './research-model.port';
import { assertCitationsResolve } from './citations';
import { domainOf, normalizeUrl } from '@app/urls';

export interface ResearchInput {
  prompt: string;
  queries: string[];
  objective: string | null;
  maxSubqueries: number;
  maxFetches: number;
  /** Merged results kept (and so the most sources a report can have). */
  limit: number;
  country: string;
  language: string;
  /** SERP pages per sub-query; default 1. */
  pagesPerSubquery?: number;
  /** URLs per read call; default READ_BATCH. */
  readBatch?: number;
  /** Write the cited report (default true); a caller that only needs the evidence skips the call. */
  synthesise?: boolean;
}

export interface SearchHit {
  url: string;
  title: string;
  snippet: string;
  date: string | null;
  domain?: string;
  /** Relevance in [0, 1], comparable across sub-queries (the search service normalises it). */
  score: number;
  /** Page text the search already has (local index): used as is, no read needed. */
  content?: string;
}

export interface ReadDocument {
  url: string;
  title: string | null;
  text: string;
  error: string | null;
}

export interface ResearchPorts {
  search(subquery: string, page: number, locale: { country: string; language: string }): Promise<{ hits: SearchHit[]; hasMore: boolean }>;
  /** One batch of reads; one answer per URL (matched by normalised URL; a missing one is a failure). */
  read(urls: string[]): Promise<ReadDocument[]>;
  model: ResearchModel;
  /** Re-orders (and may drop) results for the objective; unknown URLs in the answer are ignored. */
  rerank?(objective: string, results: RunResult[]): Promise<{ results: RunResult[]; usage?: TokenUsage }>;
}

/** Each callback is awaited before the pipeline goes on (the worker appends an event in each). */
export interface ResearchProgress {
  /** The plan (round 1), then each follow-up round's plan: every sub-query so far, the new ones last. */
  planned(subqueries: string[], pagesTarget: number, round?: number): Promise<void>;
  serpPage(subquery: string, page: number, hits: number): Promise<void>;
  pageFetched(url: string, ok: boolean, title: string | null, error: string | null): Promise<void>;
  findingGraded(finding: Finding): Promise<void>;
  resultsMerged(results: RunResult[], reranked: boolean): Promise<void>;
  /** Checked before every step and callback: true stops new work at once. */
  stopped(): boolean;
}

export interface ResearchOutcome {
  stopped: boolean;
  subqueries: string[];
  results: RunResult[];
  findings: Finding[];
  sources: Source[];
  /** null when stopped before the report was written. */
  report: string | null;
  usage: RunUsage;
  reranked: boolean;
  /** Read calls made (each a batch of up to `readBatch` URLs). */
  readBatches: number;
}

/** URLs per read call: big enough to fetch in parallel downstream, small enough to stop promptly. */
export const READ_BATCH = 5;
/** Characters of each document given to the grader per sub-query (focused on the sub-query). */
export const PASSAGE_CHARS = 4_000;
/** Passages per grading call (own results first): bounds a model call's size. */
export const MAX_PASSAGES = 12;
/** Follow-up rounds after the first: a chain of up to three pages (entity -> person -> fact). */
export const MAX_FOLLOW_UP_ROUNDS = 2;


interface Entry {
  key: string;
  /** The first-seen copy. */
  hit: SearchHit;
  /** The best score of any copy. */
  score: number;
  /** Global first-seen position (sub-query, page, rank): the source numbering order. */
  seen: number;
  firstSubquery: string;
  subqueries: Set<number>;
  content: string | null;
}

interface Doc {
  ok: boolean;
  title: string | null;
  text: string;
}

/**
 * The research pipeline: plan -> search (pages per sub-query) -> merge -> (rerank) -> read ->
 * grade per sub-query -> synthesise. No clock, no randomness, ties broken by first-seen order:
 * the same input and the same search/read answers give the same plan, source numbering and
 * report, which is what lets the worker re-run it from the start after a crash.
 *
 * Search and model errors propagate (the caller decides between retry and failure); a failed read
 * is a fact (PageFetched ok=false), not an error. Sources are the final merged results, numbered
 * 1.. in first-seen order. Each sub-query is graded against its own results (the read text focused
 * on it, or the snippet when no read was tried) plus documents read for other sub-queries that mention its
 * terms (shared evidence), at most MAX_PASSAGES.
 */
export async function runResearch(input: ResearchInput, ports: ResearchPorts, progress: ResearchProgress): Promise<ResearchOutcome> {
  const pagesPer = Math.max(1, Math.floor(input.pagesPerSubquery ?? 1));
  const limit = Math.max(0, Math.floor(input.limit));
  const usage: RunUsage = { planner_calls: 0, grader_calls: 0, synth_calls: 0, search_queries: 0, pages_fetched: 0, tokens: { input: 0, output: 0 } };
  const addTokens = (u?: TokenUsage) => {
    usage.tokens.input += u?.input ?? 0;
    usage.tokens.output += u?.output ?? 0;
  };
  const entries = new Map<string, Entry>();
  const docs = new Map<string, Doc>();
  const findings: Finding[] = [];
  let subqueries: string[] = [];
  let reranked: RunResult[] | null = null;
  let sources: Source[] | null = null;
  let readBatches = 0;

  const merged = (): RunResult[] =>
    reranked ??
    [...entries.values()]
      .sort((a, b) => b.score - a.score || a.seen - b.seen)
      .slice(0, limit)
      .map((e) => toResult(e));
  const outcome = (stopped: boolean, report: string | null = null): ResearchOutcome => ({
    stopped,
    subqueries,
    results: merged(),
    findings: [...findings],
    sources: sources ?? numberSources(merged(), entries, docs),
    report,
    usage: { ...usage, tokens: { ...usage.tokens } },
    reranked: reranked !== null,
    readBatches,
  });

  // 1. Plan.
  if (progress.stopped()) return outcome(true);
  const maxSubqueries = Math.max(0, Math.floor(input.maxSubqueries));
  const plan = await ports.model.plan(input.prompt, input.queries, maxSubqueries);
  usage.planner_calls++;
  addTokens(plan.usage);
  // The cap and uniqueness are the pipeline's promise, whatever a model answers.
  subqueries = [...new Set(plan.subqueries.map((q) => q.replace(/\s+/g, ' ').trim()).filter(Boolean))].slice(0, maxSubqueries);
  if (progress.stopped()) return outcome(true);
  await progress.planned(subqueries, subqueries.length * pagesPer);

  // 2. Search and merge.
  let seen = 0;
  /** Searches sub-queries `from`.. and merges their hits; true when stopped. */
  const search = async (from: number): Promise<boolean> => {
    for (let i = from; i < subqueries.length; i++) {
      const subquery = subqueries[i]!;
      for (let page = 1; page <= pagesPer; page++) {
        if (progress.stopped()) return true;
        const serp = await ports.search(subquery, page, { country: input.country, language: input.language });
        usage.search_queries++;
        for (const hit of serp.hits) {
          const key = normalizeUrl(hit.url);
          if (!key) continue;
          const score = Number.isFinite(hit.score) ? hit.score : 0;
          const entry = entries.get(key);
          if (!entry) {
            entries.set(key, { key, hit, score, seen: seen++, firstSubquery: subquery, subqueries: new Set([i]), content: hit.content?.trim() ? hit.content : null });
            continue;
          }
          entry.subqueries.add(i);
          // The first-seen copy stays (URL, title, snippet): the same answers give the same sources
          // whatever the scores, and a later copy's tracking parameters never become the source URL.
          entry.score = Math.max(entry.score, score);
          if (!entry.content && hit.content?.trim()) entry.content = hit.content;
        }
        if (progress.stopped()) return true;
        await progress.serpPage(subquery, page, serp.hits.length);
        if (!serp.hasMore) break;
      }
      if (progress.stopped()) return true;
      await progress.resultsMerged(merged(), false);
    }
    return false;
  };
  if (await search(0)) return outcome(true);

  // 3. Re-rank against the objective (optional).
  const objective = input.objective?.trim();
  if (objective && ports.rerank && merged().length > 0) {
    if (progress.stopped()) return outcome(true);
    const answer = await ports.rerank(objective, merged());
    addTokens(answer.usage);
    reranked = keepKnown(answer.results, entries);
    if (progress.stopped()) return outcome(true);
    await progress.resultsMerged(reranked, true);
  }

  // 4. Read.
  let fetchesLeft = Math.max(0, Math.floor(input.maxFetches));
  const batchSize = Math.max(1, Math.floor(input.readBatch ?? READ_BATCH));
  /** Reads the chosen entries in batches; true when stopped. */
  const read = async (toRead: Entry[]): Promise<boolean> => {
    fetchesLeft -= toRead.length;
    for (let at = 0; at < toRead.length; at += batchSize) {
      if (progress.stopped()) return true;
      const batch = toRead.slice(at, at + batchSize);
      const answers = await ports.read(batch.map((e) => e.hit.url));
      readBatches++;
      const byKey = new Map(answers.map((d) => [normalizeUrl(d.url), d]));
      const asked = new Set(batch.map((e) => e.key));
      for (const [j, entry] of batch.entries()) {
        // By URL; else by position when that answer names no URL we asked for (a reader that
        // reports the URL it was redirected to).
        const positional = answers.length === batch.length && !asked.has(normalizeUrl(answers[j]!.url)) ? answers[j] : undefined;
        const doc = byKey.get(entry.key) ?? positional;
        const ok = !!doc && !doc.error && doc.text.trim().length > 0;
        const title = ok ? doc.title?.trim() || null : null;
        const error = ok ? null : doc?.error || (doc ? 'empty document' : 'no answer for this URL');
        if (progress.stopped()) return true;
        await progress.pageFetched(entry.hit.url, ok, title, error);
        // Recorded after it is reported, so a stopped run never claims an unreported read.
        docs.set(entry.key, { ok, title, text: ok ? doc.text : '' });
        if (ok) usage.pages_fetched++;
      }
    }
    return false;
  };
  if (await read(chooseReads(merged(), entries, subqueries.length, fetchesLeft))) return outcome(true);
  sources = numberSources(merged(), entries, docs);

  // 5. Grade each sub-query.
  /** Grades sub-queries `from`..; `via` adds the passage that named a follow-up's entity to its finding. */
  const grade = async (from: number, via: Map<string, FollowUp['via']> = new Map()): Promise<boolean> => {
    for (let i = from; i < subqueries.length; i++) {
      const subquery = subqueries[i]!;
      if (progress.stopped()) return true;
      const passages = passagesFor(i, subquery, sources!, entries, docs);
      if (passages.length === 0) continue; // nothing to judge: no call, no finding
      const graded = await ports.model.grade(subquery, passages);
      usage.grader_calls++;
      addTokens(graded.usage);
      let finding = graded.finding && checkedFinding(graded.finding, subquery, passages);
      if (!finding) continue;
      const link = via.get(subquery);
      // The chain is cited too: the answer quote, then the sentence that led to it.
      if (link && sources!.some((s) => s.index === link.source) && !finding.evidence.some((e) => e.quote === link.quote)) {
        finding = { ...finding, citations: [...new Set([...finding.citations, link.source])], evidence: [...finding.evidence, link] };
      }
      if (progress.stopped()) return true;
      await progress.findingGraded(finding);
      findings.push(finding);
    }
    return false;
  };
  if (await grade(0)) return outcome(true);

  // 6. Follow up: what the evidence names that the question depends on, searched, read and graded
  // in rounds while the budgets last. Sources keep their numbers; new ones are numbered after them.
  const restatements: string[] = [];
  let question = input.prompt.trim() || input.queries[0] || '';
  for (let round = 2; round <= MAX_FOLLOW_UP_ROUNDS + 1 && subqueries.length < maxSubqueries && question; round++) {
    if (progress.stopped()) return outcome(true);
    const asked = question;
    const evidence = passagesOver(asked, sources!, entries, docs);
    if (evidence.length === 0) break;
    const next = await ports.model.followUp(asked, evidence, maxSubqueries - subqueries.length);
    // A planning step when it cost something or planned something: an offline look that finds
    // nothing to follow is not a step the run is charged for.
    if (next.followUps.length > 0 || next.usage.input + next.usage.output > 0) usage.planner_calls++;
    addTokens(next.usage);
    const known = new Set(subqueries.map(queryKey));
    const shown = new Set(evidence.map((p) => p.source));
    const fresh = next.followUps.filter((f) => {
      const key = queryKey(f.subquery);
      if (!f.subquery.trim() || known.has(key)) return false;
      known.add(key);
      return true;
    }).slice(0, maxSubqueries - subqueries.length);
    if (fresh.length === 0) break;
    const from = subqueries.length;
    subqueries = [...subqueries, ...fresh.map((f) => oneLine(f.subquery))];
    if (progress.stopped()) return outcome(true);
    await progress.planned(subqueries, subqueries.length * pagesPer, round);
    if (await search(from)) return outcome(true);
    const numbered = sources!;
    const newEntries = [...entries.values()].filter((e) => [...e.subqueries].some((i) => i >= from) && !numbered.some((s) => normalizeUrl(s.url) === e.key));
    if (await read(chooseReads(newEntries.sort((a, b) => b.score - a.score || a.seen - b.seen).map(toResult), entries, subqueries.length, fetchesLeft, from))) return outcome(true);
    sources = appendSources(numbered, newEntries, docs, limit);
    const via = new Map(fresh.filter((f) => f.via && shown.has(f.via.source)).map((f) => [oneLine(f.subquery), f.via!]));
    if (await grade(from, via)) return outcome(true);
    const restated = fresh.find((f) => f.restates);
    if (!restated) break;
    restatements.unshift(oneLine(restated.subquery));
    question = oneLine(restated.subquery);
  }

  // 7. Synthesise.
  if (progress.stopped()) return outcome(true);
  if (input.synthesise === false) return outcome(false);
  const topic = input.prompt.trim() || input.queries.join('; ');
  const written = await ports.model.synthesise(topic, findings, sources, { subqueries, restatements, queries: input.queries });
  usage.synth_calls++;
  addTokens(written.usage);
  assertCitationsResolve(written.report, sources);
  return outcome(false, written.report);
}

function toResult(e: Entry): RunResult {
  return { url: e.hit.url, title: e.hit.title, snippet: e.hit.snippet, date: e.hit.date ?? null, domain: e.hit.domain || domainOf(e.hit.url), score: e.score };
}

/** The re-ranker's order, limited to results we know (once each): it cannot add URLs. */
function keepKnown(results: RunResult[], entries: Map<string, Entry>): RunResult[] {
  const out: RunResult[] = [];
  const taken = new Set<string>();
  for (const r of results) {
    const key = normalizeUrl(r.url);
    const entry = entries.get(key);
    if (!entry || taken.has(key)) continue;
    taken.add(key);
    out.push({ ...toResult(entry), score: Number.isFinite(r.score) ? r.score : 0 });
  }
  return out;
}

/**
 * Best-ranked first, round-robin over sub-queries (each takes its best unchosen result in turn),
 * so a sub-query whose results rank lower overall still gets read evidence. Results that came
 * with content need no read and are skipped.
 */
function chooseReads(results: RunResult[], entries: Map<string, Entry>, subqueryCount: number, maxFetches: number, from = 0): Entry[] {
  const ranked = results.map((r) => entries.get(normalizeUrl(r.url))!).filter((e) => e && !e.content);
  const queues = Array.from({ length: subqueryCount - from }, (_, i) => ranked.filter((e) => e.subqueries.has(from + i)));
  const chosen: Entry[] = [];
  const taken = new Set<string>();
  while (chosen.length < maxFetches && queues.some((q) => q.length)) {
    for (const queue of queues) {
      while (queue.length && taken.has(queue[0]!.key)) queue.shift();
      const next = queue.shift();
      if (!next || chosen.length >= maxFetches) continue;
      taken.add(next.key);
      chosen.push(next);
    }
  }
  return chosen;
}

function numberSources(results: RunResult[], entries: Map<string, Entry>, docs: Map<string, Doc>): Source[] {
  return results
    .map((r) => ({ r, e: entries.get(normalizeUrl(r.url))! }))
    .filter(({ e }) => e)
    .sort((a, b) => a.e.seen - b.e.seen)
    .map(({ r, e }, i) => {
      const doc = docs.get(e.key);
      const text = fullText(e, docs) ?? '';
      return {
        index: i + 1,
        url: r.url,
        title: (doc?.ok && doc.title) || r.title,
        domain: r.domain,
        fetched: text.length > 0,
        quality: quality(r.score, doc ? doc.ok : null, text.length),
        first_seen_subquery: e.firstSubquery,
      };
    });
}

/** A failed read is low; a long read page from a well-scored hit is high; some text or a strong hit is medium. */
function quality(score: number, readOk: boolean | null, textLength: number): Source['quality'] {
  if (readOk === false) return 'low';
  if (textLength >= 2_000 && score >= 0.5) return 'high';
  if (textLength >= 500 || score >= 0.5) return 'medium';
  return 'low';
}

function passagesFor(i: number, subquery: string, sources: Source[], entries: Map<string, Entry>, docs: Map<string, Doc>): ResearchPassage[] {
  const terms = new Set(tokenize(subquery));
  const own: ResearchPassage[] = [];
  const shared: ResearchPassage[] = [];
  for (const s of sources) {
    const e = entries.get(normalizeUrl(s.url))!;
    const full = fullText(e, docs);
    const mine = e.subqueries.has(i);
    // Another sub-query's document joins only when it mentions this one's terms at all.
    if (!mine && !(full && tokenize(full).some((t) => terms.has(t)))) continue;
    const text = evidenceText(e, docs, subquery);
    if (text.trim()) (mine ? own : shared).push({ source: s.index, url: s.url, title: s.title, text });
  }
  return [...own, ...shared].slice(0, MAX_PASSAGES).sort((a, b) => a.source - b.source);
}

/** Trust but verify: the finding is for this sub-query and cites only sources it was shown. */
function checkedFinding(f: Finding, subquery: string, passages: ResearchPassage[]): Finding | null {
  const shown = new Set(passages.map((p) => p.source));
  const evidence = f.evidence.filter((e) => shown.has(e.source));
  if (evidence.length === 0) return null;
  const citations = [...new Set([...f.citations.filter((c) => shown.has(c)), ...evidence.map((e) => e.source)])];
  return { ...f, subquery, citations, evidence };
}

const oneLine = (q: string) => q.replace(/\s+/g, ' ').trim();
/** Two sub-queries with the same stemmed words are one search. */
const queryKey = (q: string) => [...new Set(tokenize(q))].sort().join(' ') || q.toLowerCase();

/**
 * Sources found by a follow-up round, numbered after the existing ones (whose numbers findings
 * already cite), best first, as many as `limit` allows beyond them but at least the best two.
 */
function appendSources(sources: Source[], fresh: Entry[], docs: Map<string, Doc>, limit: number): Source[] {
  const room = Math.max(2, limit - sources.length);
  const ranked = [...fresh].sort((a, b) => b.score - a.score || a.seen - b.seen).slice(0, room);
  const numbered = numberSources(ranked.map(toResult), new Map(ranked.map((e) => [e.key, e])), docs).map((s, i) => ({ ...s, index: sources.length + i + 1 }));
  return [...sources, ...numbered];
}

/** Every source's text focused on the question: what a follow-up decision looks at. */
function passagesOver(question: string, sources: Source[], entries: Map<string, Entry>, docs: Map<string, Doc>): ResearchPassage[] {
  const terms = new Set(tokenize(question));
  const out: Array<ResearchPassage & { shared: number }> = [];
  for (const s of sources) {
    const e = entries.get(normalizeUrl(s.url));
    if (!e) continue;
    const text = evidenceText(e, docs, question);
    const shared = new Set(tokenize(`${s.title} ${text}`).filter((t) => terms.has(t))).size;
    if (text.trim()) out.push({ source: s.index, url: s.url, title: s.title, text, shared });
  }
  // The passages sharing most of the question's words, in source order.
  return out
    .sort((a, b) => b.shared - a.shared || a.source - b.source)
    .slice(0, MAX_PASSAGES)
    .sort((a, b) => a.source - b.source)
    .map(({ shared: _shared, ...p }) => p);
}

/** The page's text the run has: given with the hit, or read. */
const fullText = (e: Entry, docs: Map<string, Doc>): string | null => {
  const doc = docs.get(e.key);
  return e.content ?? (doc?.ok ? doc.text : null);
};

/**
 * What a source says for a judgement: its text (focused, see `focused`); unread, its snippet (still
 * the page's own words); after a failed read nothing, as the page may be gone.
 */
function evidenceText(e: Entry, docs: Map<string, Doc>, question: string): string {
  const full = fullText(e, docs);
  if (full) return focused(full, question);
  return docs.has(e.key) ? '' : e.hit.snippet;
}

/**
 * A page's text for a judgement: whole when it fits the passage budget (an answer may use none of
 * the question's words: "head office" for "headquartered"), else the excerpts focused on the question.
 */
const focused = (text: string, question: string) => (text.length <= PASSAGE_CHARS ? text : focusExcerpts(text, question, PASSAGE_CHARS).join('\n\n'));
