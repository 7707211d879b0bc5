import type { CatalogueModel } from '../config/catalogue';
import { AiSdkModelClient } from './ai-sdk/ai-sdk-model';
import { OpenAiCompatibleModelClient } from './openai-compatible/openai-compatible-model';
import { ModelRegistry } from './registry';
import type { ModelClient } from './spec';
import { LlamaCppModelClient } from './llama-cpp/llama-cpp-model';
import {
  DEFAULT_CONTEXT_SIZE,
  DEFAULT_PARALLEL,
  LocalModelRuntime,
  type LocalModelSettings,
  defaultThreads,
} from './llama-cpp/local-model-runtime';

/** The process's llama.cpp: one for every local model, so that a file shared by entries is loaded once. */
export const sharedLocalModelRuntime = new LocalModelRuntime();

/** The client of one catalogue model: the direct OpenAI-compatible client unless the AI SDK is asked for or needed. */
export function createModelClient(
  model: CatalogueModel,
  fetchOverride: typeof fetch | undefined,
  localRuntime: LocalModelRuntime = sharedLocalModelRuntime,
): ModelClient {
  const provider = model.entry.provider;
  if (provider.type === 'llama-cpp') return new LlamaCppModelClient(model.entry.id, localRuntime, localModelSettings(model));
  const settings = {
    baseUrl: provider.base_url,
    model: provider.model,
    apiKey: model.apiKey,
    headers: provider.headers,
    fetch: fetchOverride,
  };
  if (provider.type === 'openai-compatible' && provider.client !== 'ai-sdk') return new OpenAiCompatibleModelClient(settings);
  return new AiSdkModelClient({ ...settings, type: provider.type });
}

/** How a local catalogue model runs, its defaults filled in. */
export function localModelSettings(model: CatalogueModel): LocalModelSettings {
  const local = model.local!;
  return {
    path: local.path,
    contextSize: local.contextSize ?? DEFAULT_CONTEXT_SIZE,
    parallel: local.parallel ?? DEFAULT_PARALLEL,
    threads: local.threads ?? defaultThreads(),
  };
}

/** The clients of every catalogue model that can be called (all but the disabled ones), by model id. */
export function createModelRegistry(models: readonly CatalogueModel[], clientOf: (model: CatalogueModel) => ModelClient): ModelRegistry {
  return new ModelRegistry(models.filter((model) => model.entry.status !== 'disabled').map((model) => [model.entry.id, clientOf(model)]));
}
