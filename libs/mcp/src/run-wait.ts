import { deadline, okBody, type RestBackend, type RunEvent } from './rest-backend';

/** What a tool needs while it works: the REST API, the call's abort signal and its progress line. */
export interface ToolContext {
  rest: RestBackend;
  /** Aborted when the client cancels the call or goes away. */
  signal: AbortSignal;
  /** Reports one stage of the work (a progress notification, when the client asked for them). */
  progress(message: string): Promise<void>;
}

/** A run's view once the wait is over: `ended` says whether the run reached its end within it. */
export interface Waited {
  view: Record<string, unknown>;
  ended: boolean;
}

const TERMINAL = new Set(['run.completed', 'run.failed', 'run.cancelled']);
/** After a failed or cancelled event, how long the view may still lag behind it. */
const VIEW_CATCH_UP_MS = 2_000;

const clip = (text: unknown, max = 160): string => {
  const flat = String(text ?? '')
    .replace(/\s+/g, ' ')
    .trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
};

/** One public run event as a line for a person or a model: the plan, each page read, each finding, each entity. */
export function stageMessage(event: RunEvent): string {
  const data = (event.data ?? {}) as Record<string, unknown>;
  switch (event.event) {
    case 'run.queued':
      return 'queued';
    case 'run.started':
      return 'started';
    case 'plan.created': {
      const subqueries = Array.isArray(data.subqueries) ? data.subqueries.map(String) : [];
      return `plan: ${subqueries.length} sub-queries: ${clip(subqueries.join('; '), 400)}`;
    }
    case 'serp.page':
      return `searched "${clip(data.subquery, 120)}" (results page ${String(data.pagesFetched)} of ${String(data.pagesTarget)})`;
    case 'page.fetched': {
      // A research run's page says `ok`; a crawl's page its `error` (null when read) and its title.
      const failed = data.ok === false || (typeof data.error === 'string' && data.error !== '');
      const title = !failed && typeof data.title === 'string' && data.title ? `: ${clip(data.title, 120)}` : '';
      return `${failed ? 'could not read' : 'read'} ${String(data.url)}${title}${failed && data.error ? ` (${clip(data.error, 200)})` : ''}`;
    }
    case 'finding.graded':
      return `finding (${String(data.confidence ?? 'graded')}): ${clip(data.answer)}`;
    case 'results.updated':
      return `${String(data.count)} results so far`;
    case 'entity.found':
      return `found ${clip(data.name, 120)} ${String(data.url ?? '')}`.trim();
    case 'run.completed':
      return 'completed';
    case 'run.failed':
      return `failed: ${clip(data.error, 300)}`;
    case 'run.cancelled':
      return 'cancelled';
    default:
      return event.event;
  }
}

const running = (view: Record<string, unknown>) => view.status === 'queued' || view.status === 'running';

/**
 * Follows a run's event stream for up to `waitSeconds`, reporting each stage as it happens, then
 * answers its view: the completed event's own view, or the view read from the API (which may lag
 * the log by a moment after the end event, so it is read again until it shows the end).
 * `readView` reads the API's view after a completion too: a view with more than the event carries
 * (a crawl's pages).
 */
export async function waitForRun(
  ctx: ToolContext,
  eventsPath: string,
  viewPath: string,
  waitSeconds: number,
  options: { readView?: boolean } = {},
): Promise<Waited> {
  const { signal, release } = deadline(ctx.signal, waitSeconds * 1000);
  let ended = false;
  try {
    for await (const event of ctx.rest.events(eventsPath, signal)) {
      await ctx.progress(stageMessage(event));
      if (!TERMINAL.has(event.event)) continue;
      ended = true;
      if (event.event === 'run.completed' && !options.readView && event.data && typeof event.data === 'object')
        return { view: event.data as Record<string, unknown>, ended };
      break;
    }
  } catch (error) {
    if (!signal.aborted) throw error;
  } finally {
    release();
  }
  ctx.signal.throwIfAborted();
  const read = async () =>
    okBody(await ctx.rest.call('GET', viewPath, undefined, ctx.signal)) as Record<string, unknown>;
  let view = await read();
  for (
    const deadline = Date.now() + VIEW_CATCH_UP_MS;
    ended && running(view) && Date.now() < deadline;
    view = await read()
  ) {
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return { view, ended };
}
