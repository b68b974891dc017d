import type OpenAI from 'openai';
import type { ChatCompletion } from 'openai/resources/chat/completions';
import { LanguageModelError } from './language-model-error';
import type { TokenUsage } from './language-model.port';

export const PROVIDER = 'openai';

/** The client library, loaded with the first client (a service without a model need not load it). */
let loaded: typeof import('openai') | undefined;
// eslint-disable-next-line @typescript-eslint/no-require-imports
const openai = (): typeof import('openai') => (loaded ??= require('openai') as typeof import('openai'));

/** The official client for any OpenAI-compatible server; local servers often need no key (a placeholder is sent). */
export function openAiClient(
  options: { baseURL: string; apiKey?: string; model: string; maxRetries?: number },
  timeoutMs: number,
  owner: string,
): OpenAI {
  if (!options.model) throw new Error(`${owner} needs a model (OPENAI_MODEL)`);
  return new (openai().default)({
    baseURL: options.baseURL,
    apiKey: options.apiKey ?? 'unused',
    timeout: timeoutMs,
    maxRetries: options.maxRetries ?? 2,
  });
}

export interface JsonCallSettings {
  model: string;
  timeoutMs: number;
  temperature?: number;
  /** Strict structured output (default); off for caller-given schemas that strict mode cannot express. */
  strict?: boolean;
}

/**
 * One strict JSON-schema Chat Completions call, shared by the language and research models: our
 * own deadline bounds the whole call (retries included); failures become LanguageModelErrors
 * whose code says what went wrong and whether a retry can help.
 */
export async function completeJson(
  client: OpenAI,
  settings: JsonCallSettings,
  name: string,
  schema: Record<string, unknown>,
  system: string,
  payload: unknown,
  signal?: AbortSignal,
): Promise<{ value: unknown; usage: TokenUsage }> {
  // Our own deadline bounds the whole call, the client's retries included.
  const deadline = AbortSignal.timeout(settings.timeoutMs);
  let completion: ChatCompletion;
  try {
    completion = await client.chat.completions.create(
      {
        model: settings.model,
        messages: [
          { role: 'system', content: system },
          // JSON, so page text stays visibly data (and quotes inside it stay escaped).
          { role: 'user', content: JSON.stringify(payload) },
        ],
        response_format: { type: 'json_schema', json_schema: { name, strict: settings.strict ?? true, schema } },
        ...(settings.temperature !== undefined ? { temperature: settings.temperature } : {}),
      },
      { signal: signal ? AbortSignal.any([signal, deadline]) : deadline },
    );
  } catch (err) {
    if (signal?.aborted) throw signal.reason;
    if (deadline.aborted || err instanceof openai().APIConnectionTimeoutError) {
      throw new LanguageModelError(PROVIDER, 'timeout', `no answer within ${settings.timeoutMs} ms`, true, {
        cause: err,
      });
    }
    throw upstreamError(err);
  }
  const usage = { input: completion.usage?.prompt_tokens ?? 0, output: completion.usage?.completion_tokens ?? 0 };
  const choice = completion.choices?.[0];
  if (!choice) throw malformed('the answer has no choices');
  if (choice.message.refusal)
    throw new LanguageModelError(PROVIDER, 'refused', `the model refused: ${choice.message.refusal}`, false);
  if (choice.finish_reason === 'length')
    throw new LanguageModelError(PROVIDER, 'truncated_output', 'the answer was cut at the output token limit', true);
  const content = choice.message.content ?? '';
  try {
    // Servers that ignore response_format tend to wrap JSON in a ```json fence: unwrap that only.
    return { value: JSON.parse(content.replace(/^\s*```(?:json)?\s*\n([\s\S]*?)\n?```\s*$/, '$1')), usage };
  } catch {
    throw malformed(`the answer is not JSON: ${JSON.stringify(content.slice(0, 120))}`);
  }
}

/** Retryable: sampling differs per call, and a retry often gets a well-formed answer. */
export function malformed(why: string): LanguageModelError {
  return new LanguageModelError(PROVIDER, 'malformed_output', why, true);
}

function upstreamError(err: unknown): unknown {
  const { APIError, APIUserAbortError } = openai();
  if (err instanceof APIUserAbortError) return err;
  if (err instanceof APIError) {
    const status = err.status;
    const retryable = status === undefined || status === 408 || status === 409 || status === 429 || status >= 500;
    const what = status === undefined ? `cannot reach the server: ${err.message}` : `HTTP ${status}: ${err.message}`;
    return new LanguageModelError(PROVIDER, 'upstream', what, retryable, { cause: err });
  }
  return err;
}
