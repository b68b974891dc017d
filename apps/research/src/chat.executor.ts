import { type RecordedCommand, type ChatParams, chatRuns, type ChatState, PROCESSOR_BUDGETS } from '@app/domain';
import { resolveReference } from '@app/language';
import { runResearch } from '@app/research';
import { type RunContext, type RunExecutor, RunExecutorOf } from '@app/runs';
import { documentsOf, recordedProgress, stepsTaken } from './research-progress';
import { ResearchPortsFactory } from './research-ports';

/** Rough tokens of text for an engine that counts none (about four characters a token). */
const estimateTokens = (text: string): number => Math.ceil(text.length / 4);

/** The question is the last user message; an earlier user message gives a follow-up its subject. */
export function chatQueries(params: ChatParams): { prompt: string; queries: string[] } {
  const users = params.messages.filter((m) => m.role === 'user' && m.content.trim());
  const asked = users[users.length - 1]!.content.trim();
  const before = users.length > 1 ? users[users.length - 2]!.content.trim() : null;
  // "Where is its battery plant?" after "Tell me about HelioGrid.": asked about HelioGrid.
  const prompt = before ? resolveReference(asked, before) : asked;
  return { prompt, queries: before ? [prompt, `${before} ${asked}`] : [prompt] };
}

/** Paragraphs, each with the blank line that follows it, so the chunks join back to the answer exactly. */
export const answerChunks = (content: string): string[] => content.match(/[^\n]+(?:\n+|$)|\n+/g) ?? [];

/**
 * Chat completions: the research pipeline on the last user message (earlier ones give context)
 * with the budget the model name chose, then the answer recorded in chunks, as a streaming client
 * is sent it, and its citations (`[N]` is `citations[N-1]`) and search results.
 */
@RunExecutorOf(chatRuns)
export class ChatExecutor implements RunExecutor<typeof chatRuns> {
  readonly kind = chatRuns;

  constructor(private readonly ports: ResearchPortsFactory) {}

  async execute(run: RunContext<ChatState, RecordedCommand<typeof chatRuns>>): Promise<void> {
    if (run.state.status === 'absent') throw new Error(`chat completion ${run.runId} has no request`);
    const params = run.state.params;
    const budget = PROCESSOR_BUDGETS[params.budget];
    const { prompt, queries } = chatQueries(params);
    const schema = params.response_format.type === 'json_schema' ? params.response_format.json_schema.schema : null;
    const ports = this.ports.for({ objective: prompt, signal: run.signal, teamId: run.state.team_id });
    const outcome = await runResearch(
      {
        prompt,
        queries,
        objective: null,
        maxSubqueries: budget.subqueries,
        maxFetches: budget.fetches,
        limit: 10,
        country: 'us',
        language: 'en',
        readBatch: budget.readBatch,
        synthesise: schema === null,
      },
      ports,
      recordedProgress(run),
    );
    if (run.stopped() || outcome.stopped) return;
    let content: string;
    let tokens = { ...outcome.usage.tokens };
    let fillCalls = 0;
    if (schema) {
      const filled = await this.ports.languageModel.fillSchema(
        { task: prompt, schema, documents: documentsOf(outcome, ports.texts) },
        run.signal,
      );
      fillCalls = 1;
      tokens = { input: tokens.input + filled.usage.input, output: tokens.output + filled.usage.output };
      content = JSON.stringify(filled.output);
    } else if (params.response_format.type === 'json_object') {
      content = JSON.stringify({ answer: outcome.report ?? '', citations: outcome.sources.map((s) => s.url) });
    } else {
      content = outcome.report ?? '';
    }
    let finish: 'stop' | 'length' = 'stop';
    if (params.max_tokens !== null && estimateTokens(content) > params.max_tokens) {
      content = content.slice(0, params.max_tokens * 4);
      finish = 'length';
    }
    const chunks = answerChunks(content);
    for (const [index, text] of chunks.entries()) {
      if (run.stopped()) return;
      await run.record({ type: 'RecordAnswerChunk', index, text });
    }
    const counted = tokens.input + tokens.output > 0;
    await run.record({
      type: 'RecordAnswer',
      citations: outcome.sources.map((s) => s.url),
      search_results: outcome.results.map((r) => ({
        url: r.url,
        title: r.title,
        snippet: r.snippet,
        excerpts: r.snippet ? [r.snippet] : [],
        date: r.date,
        domain: r.domain,
        category: null,
        score: r.score,
      })),
      finish_reason: finish,
      prompt_tokens: counted ? tokens.input : estimateTokens(params.messages.map((m) => m.content).join('\n')),
      completion_tokens: counted ? tokens.output : estimateTokens(content),
      steps: stepsTaken(outcome, budget, fillCalls),
    });
  }
}
