import { loadConfig } from '@app/config';
import { createResearchModel } from './create-research-model';
import { ExtractiveResearchModel } from './extractive.research-model';
import { OpenAiResearchModel } from './openai.research-model';

describe('createResearchModel', () => {
  it('builds the extractive model by default (from the real config loader)', () => {
    expect(createResearchModel(loadConfig({}))).toBeInstanceOf(ExtractiveResearchModel);
  });

  it('builds the OpenAI model from OPENAI_* settings', () => {
    const model = createResearchModel(
      loadConfig({ LLM_PROVIDER: 'openai', OPENAI_BASE_URL: 'http://127.0.0.1:1/v1', OPENAI_MODEL: 'qwen2.5:7b' }),
    );
    expect(model).toBeInstanceOf(OpenAiResearchModel);
    expect(model.name).toBe('openai');
  });

  it('refuses openai without a model or base URL, naming the variable', () => {
    expect(() => createResearchModel({ llmProvider: 'openai', openaiBaseUrl: 'http://127.0.0.1:1/v1' })).toThrow(
      /OPENAI_MODEL/,
    );
    expect(() => createResearchModel({ llmProvider: 'openai', openaiModel: 'm' })).toThrow(/OPENAI_BASE_URL/);
  });
});
