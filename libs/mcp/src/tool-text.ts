/**
 * The text results of the MCP tools, written for a model to read: the answer or the results
 * first, then the sources with their URLs. The REST response itself rides beside it as
 * `structuredContent`.
 */
type Obj = Record<string, unknown>;

const rows = (value: unknown): Obj[] =>
  Array.isArray(value) ? (value.filter((item) => item && typeof item === 'object') as Obj[]) : [];
const str = (value: unknown): string =>
  typeof value === 'string' ? value : value === null || value === undefined ? '' : JSON.stringify(value);
const clip = (text: string, max: number): string => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

export function searchText(response: Obj): string {
  const results = rows(response.results);
  const queries = Array.isArray(response.queries) ? response.queries.map(str).join('; ') : '';
  const head = `${results.length} results for "${queries}" (depth ${str(response.depth)})`;
  const lines = results.map((row, i) => {
    const excerpts = Array.isArray(row.excerpts) && row.excerpts.length ? row.excerpts.map(str) : [str(row.snippet)];
    const meta = [str(row.domain), row.date ? str(row.date) : ''].filter(Boolean).join(' · ');
    return `${i + 1}. ${str(row.title) || str(row.url)}\n   ${str(row.url)}${meta ? `\n   ${meta}` : ''}\n   ${clip(excerpts.join(' … '), 700)}`;
  });
  const warnings =
    Array.isArray(response.warnings) && response.warnings.length
      ? `\n\nWarnings: ${response.warnings.map(str).join('; ')}`
      : '';
  return `${head}\n\n${lines.join('\n\n')}${warnings}\n\nCredits: ${str(response.credits)}`;
}

export function extractText(response: Obj): string {
  const parts = rows(response.results).map((row) => {
    const url = str(row.final_url) || str(row.url);
    if (row.error) return `## ${str(row.url)}\nNot extracted: ${str(row.error)}`;
    const excerpts =
      Array.isArray(row.excerpts) && row.excerpts.length
        ? `\nExcerpts:\n${row.excerpts.map((e) => `- ${str(e)}`).join('\n')}\n`
        : '';
    const content = row.content ? `\n${str(row.content)}` : '';
    return `## ${str(row.title) || url}\nURL: ${url}${row.published_date ? `\nPublished: ${str(row.published_date)}` : ''}\n${excerpts}${content}`;
  });
  return `${parts.join('\n\n')}\n\nCredits: ${str(response.credits)}`;
}

/** Sources of a research report as `[N] title: url` lines (the report's `[N]` markers point at them). */
const sourceLines = (sources: unknown): string =>
  rows(sources)
    .map((source) => `[${str(source.index)}] ${str(source.title) || str(source.domain)}: ${str(source.url)}`)
    .join('\n');

export function researchText(view: Obj, ended: boolean): string {
  const id = str(view.search_id);
  if (!ended && (view.status === 'queued' || view.status === 'running')) {
    return `The research is still ${str(view.status)} (${rows(view.results).length} results so far). Call get_research with search_id "${id}" for the report.`;
  }
  if (view.status !== 'completed')
    return `The research ${str(view.status)}${view.error ? `: ${str(view.error)}` : ''} (search_id "${id}").`;
  const sources = sourceLines(view.sources);
  return `${str(view.report)}\n\nSources:\n${sources || '(none)'}\n\nsearch_id: ${id} · credits: ${str(view.credits)}`;
}

export function taskText(view: Obj, ended: boolean): string {
  const id = str(view.task_id);
  if (!ended && (view.status === 'queued' || view.status === 'running')) {
    return `The task is still ${str(view.status)}. Call get_task with task_id "${id}" for its output.`;
  }
  if (view.status !== 'completed')
    return `The task ${str(view.status)}${view.error ? `: ${str(view.error)}` : ''} (task_id "${id}").`;
  const output = typeof view.output === 'string' ? view.output : JSON.stringify(view.output, null, 2);
  const basis = rows(view.basis).map((b) => {
    const urls = rows(b.citations).map((c) => str(c.url));
    return `- ${str(b.field)} (${str(b.confidence)}): ${clip(str(b.reasoning), 300)}${urls.length ? `\n  sources: ${urls.join(', ')}` : ''}`;
  });
  const sources = Array.isArray(view.sources) ? view.sources.map(str) : [];
  return [
    `Output:\n${output}`,
    view.answer ? `Answer: ${str(view.answer)}` : '',
    basis.length ? `Basis:\n${basis.join('\n')}` : '',
    view.report ? `Report:\n${str(view.report)}\n\nReport sources:\n${sourceLines(view.sources_detailed)}` : '',
    `Sources:\n${sources.map((url) => `- ${url}`).join('\n') || '(none)'}`,
    `task_id: ${id} · credits: ${str(view.credits)}`,
  ]
    .filter(Boolean)
    .join('\n\n');
}

const findAllStatus = (view: Obj): string =>
  typeof view.status === 'object' && view.status ? str((view.status as Obj).status) : str(view.status);

export function findAllText(view: Obj, ended: boolean): string {
  const id = str(view.findall_id);
  const status = findAllStatus(view);
  const entities = rows(view.entities).map((entity, i) => {
    const fields = Object.entries(entity)
      .filter(([key]) => key !== 'name' && key !== 'url')
      .map(([key, value]) => `${key}: ${str(value)}`);
    return `${i + 1}. ${str(entity.name)}: ${str(entity.url)}${fields.length ? `\n   ${fields.join(' · ')}` : ''}`;
  });
  const list = entities.length ? entities.join('\n') : '(no entities matched yet)';
  if (!ended && (status === 'queued' || status === 'running')) {
    return `FindAll is still ${status}; ${entities.length} entities so far:\n${list}\n\nCall get_findall with findall_id "${id}" for the rest.`;
  }
  return `${entities.length} entities for "${str(view.query)}" (${status}${view.error ? `: ${str(view.error)}` : ''}):\n${list}\n\nfindall_id: ${id} · credits: ${str(view.credits)}`;
}

/** Bounds of the site texts: a map's listing, and the start of each crawled page's content. */
export const SITE_TEXT_BOUNDS = { mapChars: 100_000, pageContentChars: 500, crawlChars: 100_000 } as const;

/** Lines up to `budget` characters; what does not fit is counted in a last line. */
function bounded(lines: string[], budget: number, rest: (left: number) => string): string {
  const out: string[] = [];
  let used = 0;
  for (const line of lines) {
    if (used + line.length + 1 > budget) {
      out.push(rest(lines.length - out.length));
      break;
    }
    out.push(line);
    used += line.length + 1;
  }
  return out.join('\n');
}

export function mapText(response: Obj): string {
  const links = rows(response.links);
  const lines = links.map(
    (link, i) =>
      `${i + 1}. ${str(link.url)}${link.title ? ` (${clip(str(link.title), 200)})` : ''}${link.lastmod ? ` · ${str(link.lastmod)}` : ''}`,
  );
  const list = bounded(lines, SITE_TEXT_BOUNDS.mapChars, (left) => `… ${left} more links in the structured result`);
  return `${links.length} URLs on ${str(response.url)}:\n${list || '(none found)'}\n\nCredits: ${str(response.credits)}`;
}

/** A crawl's state and a page of its pages: each page's URL, title and the start of its content. */
export function crawlText(view: Obj, ended: boolean): string {
  const id = str(view.crawl_id);
  const pages = rows(view.pages);
  const offset = Number(view.pages_offset ?? 0);
  const counts = (view.counts ?? {}) as Obj;
  const total = Number(counts.pages ?? pages.length);
  const lines = pages.map((page, i) => {
    const head = `${offset + i + 1}. ${str(page.title) || '(untitled)'}\n   ${str(page.url)}${page.final_url && page.final_url !== page.url ? ` -> ${str(page.final_url)}` : ''} · depth ${str(page.depth)}`;
    if (page.error) return `${head}\n   Not read: ${clip(str(page.error), 300)}`;
    const content = str(page.content).replace(/\s+/g, ' ').trim();
    return `${head}\n   ${clip(content, SITE_TEXT_BOUNDS.pageContentChars) || '(no text)'}`;
  });
  const list = bounded(lines, SITE_TEXT_BOUNDS.crawlChars, (left) => `… ${left} more pages in the structured result`);
  const next =
    offset + pages.length < total
      ? `\n\nPages ${offset + 1} to ${offset + pages.length} of ${total}: call get_crawl with crawl_id "${id}" and offset ${offset + pages.length} for more.`
      : '';
  const still = !ended && (view.status === 'queued' || view.status === 'running');
  const head = still
    ? `The crawl of ${str(view.url)} is still ${str(view.status)} (${total} pages so far). Call get_crawl with crawl_id "${id}" for the rest.`
    : `Crawl of ${str(view.url)} ${str(view.status)}${view.error ? `: ${str(view.error)}` : ''}: ${total} pages (${str(counts.read ?? 0)} read, ${str(counts.failed ?? 0)} failed).`;
  return `${head}\n\n${list || '(no pages yet)'}${next}\n\ncrawl_id: ${id} · credits: ${str(view.credits)}`;
}

/** A group's progress: its runs counted by status, and whether any still waits or runs. */
const groupProgress = (view: Obj): string => {
  const status = (view.status ?? {}) as Obj;
  const counts = (status.task_run_status_counts ?? {}) as Obj;
  const parts = ['queued', 'running', 'completed', 'failed', 'cancelled'].map(
    (key) => `${key} ${str(counts[key] ?? 0)}`,
  );
  return `${str(status.num_task_runs)} runs (${parts.join(', ')}); ${status.is_active ? 'active' : 'not active'}${status.status_message ? ` (${str(status.status_message)})` : ''}`;
};

export function taskGroupText(view: Obj): string {
  const id = str(view.taskgroup_id);
  return `Task group ${id}: ${groupProgress(view)}.\n\nCall get_task_group with taskgroup_id "${id}" for its progress and its runs' outputs.`;
}

export function taskGroupRunsText(view: Obj): string {
  const id = str(view.taskgroup_id);
  const lines = rows(view.runs).map((run) => {
    const output = run.output === undefined || run.output === null ? '' : ` → ${clip(str(run.output), 500)}`;
    return `- ${str(run.run_id)} [${str(run.status)}] ${clip(str(run.input), 200)}${output}`;
  });
  const more = view.next_cursor ? `\n\nMore: call get_task_group with after "${str(view.next_cursor)}".` : '';
  return `Task group ${id}: ${groupProgress(view)}.\n\n${lines.join('\n') || '(no runs on this page)'}${more}`;
}
