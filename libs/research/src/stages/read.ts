import type { RunResult } from '@app/domain';
import { normalizeUrl } from '@app/urls';
import type { ResearchPorts, ResearchProgress } from './ports';
import { contentOf, type Entry, mergedResults, numberSources, type ResearchState } from './state';

/** 4. Read: the first round's pages (see `chooseReads`), then the sources are numbered. True when stopped. */
export async function read(
  state: ResearchState,
  ports: Pick<ResearchPorts, 'read'>,
  progress: ResearchProgress,
): Promise<boolean> {
  if (await readPages(state, ports, progress, chooseReads(mergedResults(state), state, state.fetchesLeft))) return true;
  state.sources = numberSources(mergedResults(state), state.entries, state.docs, state.subqueries);
  return false;
}

/** Reads the chosen entries in batches, each read recorded (PageFetched) then kept. True when stopped. */
export async function readPages(
  state: ResearchState,
  ports: Pick<ResearchPorts, 'read'>,
  progress: ResearchProgress,
  toRead: Entry[],
): Promise<boolean> {
  state.fetchesLeft -= toRead.length;
  for (let at = 0; at < toRead.length; at += state.batchSize) {
    if (progress.stopped()) return true;
    const batch = toRead.slice(at, at + state.batchSize);
    const answers = await ports.read(batch.map((e) => e.hit.url));
    state.readBatches++;
    const byKey = new Map(answers.map((d) => [normalizeUrl(d.url), d]));
    const asked = new Set(batch.map((e) => e.key));
    for (const [j, entry] of batch.entries()) {
      // By URL; else by position when that answer names no URL we asked for (a reader that
      // reports the URL it was redirected to).
      const positional =
        answers.length === batch.length && !asked.has(normalizeUrl(answers[j]!.url)) ? answers[j] : undefined;
      const doc = byKey.get(entry.key) ?? positional;
      const ok = !!doc && !doc.error && doc.text.trim().length > 0;
      const title = ok ? doc.title?.trim() || null : null;
      const error = ok ? null : doc?.error || (doc ? 'empty document' : 'no answer for this URL');
      if (progress.stopped()) return true;
      // A page the read rendered in the browser says so: the run is charged for it, whatever came of it.
      await (doc?.rendered
        ? progress.pageFetched(entry.hit.url, ok, title, error, true)
        : progress.pageFetched(entry.hit.url, ok, title, error));
      // Recorded after it is reported, so a stopped run never claims an unreported read.
      state.docs.set(entry.key, {
        ok,
        title,
        text: ok ? doc.text : '',
        ...(ok && doc.pageStarts && { pageStarts: doc.pageStarts }),
      });
      if (ok) state.usage.pages_fetched++;
    }
  }
  return false;
}

/**
 * Best-ranked first, round-robin over sub-queries `from`.. (each takes its best unchosen result in
 * turn), so a sub-query whose results rank lower overall still gets read evidence. Results that
 * came with content need no read and are skipped.
 */
export function chooseReads(
  results: RunResult[],
  state: Pick<ResearchState, 'entries' | 'subqueries'>,
  maxFetches: number,
  from = 0,
): Entry[] {
  const ranked = results.map((r) => state.entries.get(normalizeUrl(r.url))!).filter((e) => e && !contentOf(e));
  const queues = Array.from({ length: state.subqueries.length - from }, (_, i) =>
    ranked.filter((e) => e.queries.has(from + i)),
  );
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
