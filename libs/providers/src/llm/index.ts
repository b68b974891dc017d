export * from './language-model.port';
export * from './language-model-error';
export { ExtractiveLanguageModel } from './extractive.language-model';
export { OpenAiLanguageModel, type OpenAiLanguageModelOptions } from './openai.language-model';
export { createLanguageModel, type LanguageModelConfig } from './create-language-model';
export * from './schema-fill/schema-fill.port';
export { nullableSchema, outputProblems, schemaDepth, schemaProblem } from './schema-fill/json-schema';
export * from './filter/row-filter';
