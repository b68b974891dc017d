import { ExtractiveLanguageModel } from './extractive.language-model';
import type { LanguageModel } from './language-model.port';
import { OpenAiLanguageModel, type OpenAiLanguageModelOptions } from './openai.language-model';

/** The settings this needs; `Config` from `@app/config` fits as is. */
export interface LanguageModelConfig {
  llmProvider: 'extractive' | 'openai';
  openaiBaseUrl?: string;
  openaiApiKey?: string;
  openaiModel?: string;
}

/** Builds the configured language model; tuning (timeouts, caps) can be passed for `openai`. */
export function createLanguageModel(
  config: LanguageModelConfig,
  tuning: Omit<OpenAiLanguageModelOptions, 'baseURL' | 'apiKey' | 'model'> = {},
): LanguageModel {
  if (config.llmProvider === 'extractive') return new ExtractiveLanguageModel();
  // loadConfig already requires OPENAI_BASE_URL; the model has no sensible default across servers.
  if (!config.openaiBaseUrl)
    throw new Error('invalid configuration: OPENAI_BASE_URL is required when LLM_PROVIDER=openai');
  if (!config.openaiModel) throw new Error('invalid configuration: OPENAI_MODEL is required when LLM_PROVIDER=openai');
  return new OpenAiLanguageModel({
    ...tuning,
    baseURL: config.openaiBaseUrl,
    apiKey: config.openaiApiKey,
    model: config.openaiModel,
  });
}
