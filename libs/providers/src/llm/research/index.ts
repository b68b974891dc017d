export * from './research-model.port';
export { ExtractiveResearchModel } from './extractive.research-model';
export { OpenAiResearchModel, type OpenAiResearchModelOptions } from './openai.research-model';
export { createResearchModel } from './create-research-model';
export { citedIndexes, uncitedClaims, claimSentences, GAP_NOTE, type CitableSource } from './report-citations';
