export * from './language-model.port';
export * from './language-model-error';
export { ExtractiveLanguageModel } from './extractive.language-model';
export { OpenAiLanguageModel, type OpenAiLanguageModelOptions } from './openai.language-model';
export { createLanguageModel, type LanguageModelConfig } from './create-language-model';
export * from './schema-fill/schema-fill.port';
export { schemaDepth, schemaProblem } from './schema-fill/json-schema';
export type { FilterRow, FilterVerdicts } from './filter/row-filter';
export {
  ExtractiveResearchModel,
  isWorded,
  promptAbstention,
  promptAnswer,
  type PromptAnswer,
} from './research/extractive.research-model';
export { OpenAiResearchModel, type OpenAiResearchModelOptions } from './research/openai.research-model';
export { createResearchModel } from './research/create-research-model';
export { resolveReference } from './research/question/follow-up';
