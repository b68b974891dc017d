/**
 * Why a language model call produced no usable answer. Callers decide what to do (fail the
 * request, or fall back to the extractive model); adapters never substitute silently.
 */
export type LanguageModelErrorCode =
  /** The answer was not JSON, or not of the asked shape. */
  | 'malformed_output'
  /** The answer left out documents it was asked to score. */
  | 'incomplete_output'
  /** The answer was cut at the output token limit. */
  | 'truncated_output'
  /** The model declined (`message.refusal`). */
  | 'refused'
  | 'timeout'
  /** HTTP error or connection failure after the client's own retries. */
  | 'upstream';

export class LanguageModelError extends Error {
  constructor(
    readonly provider: string,
    readonly code: LanguageModelErrorCode,
    message: string,
    readonly retryable: boolean,
    options?: { cause?: unknown },
  ) {
    super(`${provider}: ${message}`, options);
    this.name = 'LanguageModelError';
  }
}
