import type { MonitorEvent, MonitorMode, PageDiff } from './monitor.events';

/** Lines reported per side of a diff; the summary still counts them all. */
export const DIFF_LINES_SHOWN = 200;

/** The content a page monitor compares and hashes: its non-blank lines, trimmed. */
export const pageText = (content: string): string => contentLines(content).join('\n');

const contentLines = (content: string) =>
  content
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);

/**
 * Line-wise difference of two versions of a page's main content: the lines of `after` that
 * `before` does not hold (as many times), and the other way round, each in its version's order.
 * Whitespace at line ends and blank lines never count.
 */
export function diffLines(before: string, after: string): PageDiff {
  const count = (lines: string[]) =>
    lines.reduce((m, line) => m.set(line, (m.get(line) ?? 0) + 1), new Map<string, number>());
  const onlyIn = (lines: string[], other: Map<string, number>) =>
    lines.filter((line) => {
      const left = other.get(line) ?? 0;
      if (left > 0) {
        other.set(line, left - 1);
        return false;
      }
      return true;
    });
  const old = contentLines(before);
  const now = contentLines(after);
  const added = onlyIn(now, count(old));
  const removed = onlyIn(old, count(now));
  const summary =
    added.length === 0 && removed.length === 0
      ? 'no change'
      : `${added.length} line${added.length === 1 ? '' : 's'} added, ${removed.length} line${removed.length === 1 ? '' : 's'} removed`;
  return { added: added.slice(0, DIFF_LINES_SHOWN), removed: removed.slice(0, DIFF_LINES_SHOWN), summary };
}

/**
 * A page monitor's event: `changed` when the content differs from the previous run's (the first
 * run reports every line as added), `unchanged` otherwise; the page itself is the one result.
 * `content` is always set here: the decider keeps it off the public event unless in snapshot mode.
 */
export function pageMonitorEvent(input: {
  event_id: string;
  monitor_id: string;
  ran_at: string;
  mode: MonitorMode;
  url: string;
  title: string;
  domain: string;
  content: string;
  content_hash: string;
  previous: string | null;
  slots_covered: number;
}): MonitorEvent {
  const diff = diffLines(input.previous ?? '', input.content);
  const changed = input.previous === null || diff.added.length > 0 || diff.removed.length > 0;
  return {
    event_id: input.event_id,
    monitor_id: input.monitor_id,
    ran_at: input.ran_at,
    status: changed ? 'changed' : 'unchanged',
    mode: input.mode,
    results_count: 1,
    results: [
      { url: input.url, title: input.title, snippet: diff.summary, date: null, domain: input.domain, score: 1 },
    ],
    added: [],
    removed: [],
    matched: null,
    error: null,
    slots_covered: input.slots_covered,
    diff,
    content_hash: input.content_hash,
    content: input.content,
  };
}
