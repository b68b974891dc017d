import { loadConfig } from '@app/config';
import { createLanguageModel } from './create-language-model';
import { ExtractiveLanguageModel } from './extractive.language-model';
import { OpenAiLanguageModel } from './openai.language-model';

describe('createLanguageModel', () => {
  it('builds the extractive model by default (from the real config loader)', () => {
    expect(createLanguageModel(loadConfig({}))).toBeInstanceOf(ExtractiveLanguageModel);
  });

  it('builds the OpenAI model from OPENAI_* settings', () => {
    const config = loadConfig({
      LLM_PROVIDER: 'openai',
      OPENAI_BASE_URL: 'http://127.0.0.1:1/v1',
      OPENAI_MODEL: 'qwen2.5:7b',
    });
    const model = createLanguageModel(config);
    expect(model).toBeInstanceOf(OpenAiLanguageModel);
    expect(model.name).toBe('openai');
  });

  it('refuses openai without a model or base URL, naming the variable', () => {
    expect(() => createLanguageModel({ llmProvider: 'openai', openaiBaseUrl: 'http://127.0.0.1:1/v1' })).toThrow(
      /OPENAI_MODEL/,
    );
    expect(() => createLanguageModel({ llmProvider: 'openai', openaiModel: 'm' })).toThrow(/OPENAI_BASE_URL/);
  });
});
