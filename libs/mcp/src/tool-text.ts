/**
 * The text results of the MCP tools, written for a model to read: the answer or the results
 * first, then the sources with their URLs. The REST response itself rides beside it as
 * `structuredContent`.
 */
type Obj = Record<string, unknown>;

const rows = (value: unknown): Obj[] => (Array.isArray(value) ? (value.filter((item) => item && typeof item === 'object') as Obj[]) : []);
const str = (value: unknown): string => (typeof value === 'string' ? value : value === null || value === undefined ? '' : JSON.stringify(value));
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
  const warnings = Array.isArray(response.warnings) && response.warnings.length ? `\n\nWarnings: ${response.warnings.map(str).join('; ')}` : '';
  return `${head}\n\n${lines.join('\n\n')}${warnings}\n\nCredits: ${str(response.credits)}`;
}

export function extractText(response: Obj): string {
  const parts = rows(response.results).map((row) => {
    const url = str(row.final_url) || str(row.url);
    if (row.error) return `## ${str(row.url)}\nNot extracted: ${str(row.error)}`;
    const excerpts = Array.isArray(row.excerpts) && row.excerpts.length ? `\nExcerpts:\n${row.excerpts.map((e) => `- ${str(e)}`).join('\n')}\n` : '';
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
  if (view.status !== 'completed') return `The research ${str(view.status)}${view.error ? `: ${str(view.error)}` : ''} (search_id "${id}").`;
  const sources = sourceLines(view.sources);
  return `${str(view.report)}\n\nSources:\n${sources || '(none)'}\n\nsearch_id: ${id} · credits: ${str(view.credits)}`;
}

export function taskText(view: Obj, ended: boolean): string {
  const id = str(view.task_id);
  if (!ended && (view.status === 'queued' || view.status === 'running')) {
    return `The task is still ${str(view.status)}. Call get_task with task_id "${id}" for its output.`;
  }
  if (view.status !== 'completed') return `The task ${str(view.status)}${view.error ? `: ${str(view.error)}` : ''} (task_id "${id}").`;
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

const findAllStatus = (view: Obj): string => (typeof view.status === 'object' && view.status ? str((view.status as Obj).status) : str(view.status));

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
