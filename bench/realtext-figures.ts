/**
 * What `bench:realtext` makes of the outcomes: the figures of each part, the tune part's outcomes
 * as written to the JSON file, and a few of its misses of each kind.
 */
import type { Part } from './realtext-data';
import type { Outcome } from './realtext-measure';
import { firstParagraph } from './realtext-scoring';

const mean = (xs: number[]) => (xs.length ? xs.reduce((s, x) => s + x, 0) / xs.length : NaN);
const shareOf = <T>(xs: T[], pick: (x: T) => boolean) => (xs.length ? xs.filter(pick).length / xs.length : NaN);

export function figures(outcomes: Outcome[], part: Part | 'all'): Array<[string, number, string]> {
  const sel = outcomes.filter((o) => part === 'all' || o.part === part);
  const rows: Array<[string, number, string]> = [];
  for (const engine of ['service', 'fts5', 'minisearch']) {
    rows.push([
      `search recall@10, every gold page: ${engine}`,
      shareOf(sel, (o) => o.search[engine]?.all ?? false),
      `${sel.length}`,
    ]);
    rows.push([
      `search recall@10, any gold page: ${engine}`,
      shareOf(sel, (o) => o.search[engine]?.any ?? false),
      `${sel.length}`,
    ]);
  }
  const tasks = sel.filter((o) => o.task).map((o) => o.task!);
  const asked = sel.filter((o) => o.task || o.errors.some((e) => e.startsWith('task'))).length;
  rows.push([
    'task: an answer given (not null or empty)',
    shareOf(tasks, (t) => t.answer.trim() !== ''),
    `${tasks.filter((t) => t.answer.trim() !== '').length}/${tasks.length}`,
  ]);
  rows.push(['task: exact match', mean(tasks.map((t) => t.em)), `${tasks.length}/${asked}`]);
  rows.push(['task: token F1', mean(tasks.map((t) => t.f1)), `${tasks.length}/${asked}`]);
  const answerable = sel.filter((o) => o.task && o.answerable).map((o) => o.task!);
  const high = answerable.filter((t) => t.confidence === 'high');
  rows.push([
    'task: share answered with high confidence',
    shareOf(answerable, (t) => t.confidence === 'high'),
    `${high.length}/${answerable.length}`,
  ]);
  rows.push([
    'task: high-confidence answers right (F1 >= 0.8)',
    shareOf(high, (t) => t.f1 >= 0.8),
    `${high.filter((t) => t.f1 >= 0.8).length}/${high.length}`,
  ]);
  const unanswerable = sel.filter((o) => o.task && !o.answerable).map((o) => o.task!);
  if (outcomes.some((o) => !o.answerable)) {
    // SQuAD 2.0: questions written to have no answer in the text are right only when answered null.
    rows.push(['task: answerable questions, token F1', mean(answerable.map((t) => t.f1)), `${answerable.length}`]);
    rows.push([
      'task: unanswerable questions answered null',
      shareOf(unanswerable, (t) => t.answer.trim() === ''),
      `${unanswerable.filter((t) => t.answer.trim() === '').length}/${unanswerable.length}`,
    ]);
    rows.push([
      'task: unanswerable questions marked high (lower is better)',
      shareOf(unanswerable, (t) => t.confidence === 'high'),
      `${unanswerable.filter((t) => t.confidence === 'high').length}/${unanswerable.length}`,
    ]);
    const gaps = sel.filter((o) => o.deep && !o.answerable).map((o) => o.deep!);
    rows.push([
      'deep: unanswerable, first paragraph says no source answered',
      shareOf(gaps, (d) => d.firstParagraph.startsWith('No source answered')),
      `${gaps.length}`,
    ]);
  }
  // Whether a report or a reply holds the gold: asked of the questions that have one.
  const deeps = sel.filter((o) => o.deep && o.answerable).map((o) => o.deep!);
  rows.push(['deep: first paragraph contains gold', shareOf(deeps, (d) => d.contains), `${deeps.length}`]);
  rows.push(['deep: F1 of its first sentence', mean(deeps.map((d) => d.f1)), `${deeps.length}`]);
  rows.push(['deep: every gold page among sources', shareOf(deeps, (d) => d.bothSources), `${deeps.length}`]);
  const chats = sel.filter((o) => o.chat && o.answerable).map((o) => o.chat!);
  rows.push(['chat: reply contains gold', shareOf(chats, (c) => c.contains), `${chats.length}`]);
  rows.push(['chat: F1 of its first sentence', mean(chats.map((c) => c.f1)), `${chats.length}`]);
  return rows;
}

const cut = (text: string, n = 300) => {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > n ? `${flat.slice(0, n)}…` : flat;
};

/**
 * An outcome for the JSON file: each engine's search as the ranks (1..10, null when absent) of the
 * gold pages, texts cut to 160 characters, the chat's first paragraph only where it differs from
 * the deep run's.
 */
export const compact = (o: Outcome, gold: number[]) => {
  const chatFirst = o.chat ? firstParagraph(o.chat.reply) : undefined;
  return {
    id: o.id,
    type: o.type,
    question: o.question,
    gold: o.gold,
    search_gold_ranks: Object.fromEntries(
      Object.entries(o.search).map(([engine, r]) => [
        engine,
        gold.map((g) => (r.top.includes(g) ? r.top.indexOf(g) + 1 : null)),
      ]),
    ),
    task: o.task,
    deep: o.deep && { ...o.deep, firstParagraph: cut(o.deep.firstParagraph, 160) },
    chat: o.chat && {
      contains: o.chat.contains,
      f1: o.chat.f1,
      firstParagraph: chatFirst === o.deep?.firstParagraph ? '(as the deep run)' : cut(chatFirst ?? '', 160),
    },
    errors: o.errors.length ? o.errors : undefined,
  };
};

/** A few of the tune part's misses of each kind (the measure part's stay unseen). */
export function misses(outcomes: Outcome[], each = 4): string[] {
  const tune = outcomes.filter((o) => o.part === 'tune');
  const show = (title: string, picked: Outcome[], line: (o: Outcome) => string) =>
    picked.length
      ? [
          `  ${title} (${picked.length}; first ${Math.min(each, picked.length)}):`,
          ...picked
            .slice(0, each)
            .map((o) => `    ${cut(o.question, 120)} | gold ${JSON.stringify(o.gold[0])} | ${line(o)}`),
        ]
      : [];
  return [
    '',
    'tune part, misses:',
    ...show(
      'search, a gold page not in the service top 10 (FTS5 has them all)',
      tune.filter((o) => !o.search.service?.all && o.search.fts5?.all),
      (o) => `service top 3: ${o.search.service!.top.slice(0, 3).join(', ')}`,
    ),
    ...show(
      'task, F1 < 0.8',
      tune.filter((o) => o.task && o.task.f1 < 0.8),
      (o) => `answer ${JSON.stringify(cut(o.task!.answer, 80))} (${o.task!.confidence ?? 'no'} confidence)`,
    ),
    ...show(
      'deep, first paragraph without the gold',
      tune.filter((o) => o.deep && !o.deep.contains),
      (o) => cut(o.deep!.firstParagraph, 140),
    ),
    ...show(
      'chat, reply without the gold',
      tune.filter((o) => o.chat && !o.chat.contains),
      (o) => cut(firstParagraph(o.chat!.reply), 140),
    ),
  ];
}

export const fmt = (v: number) => (Number.isNaN(v) ? '-' : v.toFixed(2));
