import type { LanguageModelConfig } from '../create-language-model';
import { ExtractiveResearchModel } from './extractive.research-model';
import { OpenAiResearchModel, type OpenAiResearchModelOptions } from './openai.research-model';
import type { ResearchModel } from '@app/research';

/** Builds the configured research model from the same settings as the language model. */
export function createResearchModel(
  config: LanguageModelConfig,
  tuning: Omit<OpenAiResearchModelOptions, 'baseURL' | 'apiKey' | 'model'> = {},
): ResearchModel {
  if (config.llmProvider === 'extractive') return new ExtractiveResearchModel();
  if (!config.openaiBaseUrl)
    throw new Error('invalid configuration: OPENAI_BASE_URL is required when LLM_PROVIDER=openai');
  if (!config.openaiModel) throw new Error('invalid configuration: OPENAI_MODEL is required when LLM_PROVIDER=openai');
  return new OpenAiResearchModel({
    ...tuning,
    baseURL: config.openaiBaseUrl,
    apiKey: config.openaiApiKey,
    model: config.openaiModel,
  });
}
