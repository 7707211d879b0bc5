import { type ConversationAnnotator, createConversationAnnotator } from '../adapters/conversation-annotator';
import { lazyLanguageDetector } from '../adapters/lazy-language-detector';
import { inlineRulesLayer } from '../adapters/rules-layer/rules-layer';
import { ThreadedRulesLayer } from '../adapters/rules-layer/threaded-rules-layer';
import { type CatalogueModel, apiKeyEnv } from '../config/catalogue';
import { type Config, ConfigError } from '../config/config';
import type { Store } from '../db/unit-of-work';
import { createModelClient } from '../providers/create-model-client';
import { PostprocessService } from '../services/postprocess.service';
import type { Runtime } from '../services/ports/runtime';
import type { ProgressLog } from '../services/read-progress';

/** Post-processing with a model layer (or none): the background job's and `agora postprocess`'s service. */
export function createPostprocessService(
  config: Config,
  store: Store,
  runtime: Runtime,
  annotator: ConversationAnnotator | undefined,
  options: { retryDelayMs?: number; threads?: number; progressLog?: ProgressLog } = {},
): PostprocessService {
  // The rules layer off the event loop: on worker threads (one in the server, by default).
  const threads = options.threads ?? config.postprocess.threads;
  const rules = threads > 0 ? new ThreadedRulesLayer(threads) : inlineRulesLayer(lazyLanguageDetector());
  return new PostprocessService(store, rules, annotator, runtime, {
    maxAttempts: config.postprocess.maxAttempts,
    retryDelayMs: options.retryDelayMs ?? config.postprocess.everyMs,
    idleMs: config.postprocess.idleMs,
    concurrency: config.postprocess.concurrency,
    progressLog: options.progressLog,
  });
}

/**
 * The model layer of the screening and topics, or undefined when none is configured.
 * AGORA_ANNOTATION_MODEL names a catalogue model of any status: a tool model is usually
 * `disabled`, so that it is never drawn into duels.
 */
export function createAnnotator(
  config: Config,
  models: readonly CatalogueModel[],
  fetchOverride?: typeof fetch,
  modelId = config.postprocess.annotationModel,
): ConversationAnnotator | undefined {
  if (modelId === undefined) return undefined;
  const model = models.find((candidate) => candidate.entry.id === modelId);
  if (!model) throw new ConfigError(`AGORA_ANNOTATION_MODEL: no model "${modelId}" in the catalogue ${config.modelsPath}`);
  const keyName = apiKeyEnv(model.entry);
  if (keyName && !model.apiKey) throw new ConfigError(`AGORA_ANNOTATION_MODEL: model "${modelId}" needs ${keyName}, which is not set`);
  return createConversationAnnotator(modelId, createModelClient(model, fetchOverride), {
    timeoutMs: config.postprocess.annotationTimeoutMs,
  });
}
