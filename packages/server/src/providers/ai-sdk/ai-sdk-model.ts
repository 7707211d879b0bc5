import { createAnthropic } from '@ai-sdk/anthropic';
import { createOpenAI } from '@ai-sdk/openai';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import type { LanguageModelV3 } from '@ai-sdk/provider';
import { withFlatContentParts } from '../openai-compatible/content-parts';
import { type ModelCallOptions, type ModelClient, type ModelStreamResult, readerParts } from '../spec';
import { convertToAiSdkPrompt } from './convert-to-ai-sdk-prompt';
import { mapAiSdkStream } from './map-ai-sdk-stream';
import { mapCallError } from './map-ai-sdk-error';

/** How to reach one model: the `provider` block of `models.yaml`. */
export interface AiSdkProviderSettings {
  type: 'openai-compatible' | 'openai' | 'anthropic';
  baseUrl: string;
  model: string;
  apiKey?: string;
  headers?: Record<string, string>;
  /** Injected in tests to replay recorded vendor streams. */
  fetch?: typeof fetch;
}

function createLanguageModel(settings: AiSdkProviderSettings): LanguageModelV3 {
  const common = { baseURL: settings.baseUrl, apiKey: settings.apiKey, headers: settings.headers, fetch: settings.fetch };
  switch (settings.type) {
    case 'openai-compatible':
      // includeUsage asks for `stream_options.include_usage`; without it real servers send no token counts.
      // Mistral's typed content parts become the fields the provider reads (it expects a string).
      return createOpenAICompatible({
        ...common,
        fetch: withFlatContentParts(settings.fetch),
        name: 'openai-compatible',
        includeUsage: true,
      }).chatModel(settings.model);
    case 'openai':
      // `.chat()`: the default OpenAI model speaks /v1/responses, which compatible servers do not have.
      return createOpenAI({ ...common, apiKey: settings.apiKey ?? '' }).chat(settings.model);
    case 'anthropic':
      return createAnthropic({ ...common, apiKey: settings.apiKey ?? '' }).messages(settings.model);
  }
}

/** A {@link ModelClient} over the AI SDK's provider packages: one adapter for most vendors, chosen by configuration. */
export class AiSdkModelClient implements ModelClient {
  readonly specificationVersion = 'v1';
  readonly provider: string;
  readonly modelId: string;
  private readonly languageModel: LanguageModelV3;

  constructor(settings: AiSdkProviderSettings) {
    this.provider = settings.type;
    this.modelId = settings.model;
    this.languageModel = createLanguageModel(settings);
  }

  async doStream(options: ModelCallOptions): Promise<ModelStreamResult> {
    try {
      const result = await this.languageModel.doStream({
        prompt: convertToAiSdkPrompt(options.messages),
        maxOutputTokens: options.maxOutputTokens,
        temperature: options.temperature,
        topP: options.topP,
        seed: options.seed,
        responseFormat: options.responseFormat
          ? { type: 'json', name: options.responseFormat.name, schema: options.responseFormat.schema }
          : undefined,
        abortSignal: options.abortSignal,
        headers: options.headers,
        providerOptions: options.providerOptions as never,
      });
      return { stream: readerParts(mapAiSdkStream(result.stream)), response: { headers: result.response?.headers } };
    } catch (error) {
      if (options.abortSignal?.aborted) throw options.abortSignal.reason ?? error;
      throw mapCallError(error);
    }
  }
}
