import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import type { Logger } from 'pino';
import { downloadModelFile, resolveUrl } from '../adapters/model-download';
import { type CatalogueModel, isDrawable, loadCatalogue } from '../config/catalogue';
import type { Config } from '../config/config';
import { localModelFileProblem } from '../providers/llama-cpp/local-model-files';
import { readLocalModelFacts } from '../providers/llama-cpp/local-model-facts';
import type { LocalModelRuntime } from '../providers/llama-cpp/local-model-runtime';
import { localModelSettings } from '../providers/create-model-client';

/**
 * The catalogue `agora serve` runs: AGORA_MODELS; but when it was not set, no model of the default
 * catalogue can be drawn (no key is set at all) and `agora models pull` wrote local models beside
 * it, those: `npm start` then works with no key and no network. One key set keeps the hosted
 * catalogue, so a missing key in production never silently turns the arena into local models.
 */
export function serveCatalogue(config: Config, environment: Record<string, string | undefined>, logger: Logger): CatalogueModel[] {
  const models = loadCatalogue(config.modelsPath, environment);
  const localPath = join(dirname(resolve(config.modelsPath)), 'models.local.yaml');
  if (environment.AGORA_MODELS || models.some(isDrawable) || !existsSync(localPath)) return models;
  logger.warn(`no model of ${config.modelsPath} can be drawn (no key is set): using the local models of ${localPath}`);
  return loadCatalogue(localPath, environment);
}

/**
 * A local model whose file is missing, is not GGUF or cannot fit is never drawn, and says why.
 * Otherwise its GGUF header fills the facts the catalogue leaves out (parameters, architecture)
 * and gives its quantisation, for the reveal and the impact estimate.
 */
export async function checkLocalModel(
  model: CatalogueModel,
  environment: Record<string, string | undefined>,
  logger: Logger,
): Promise<void> {
  const local = model.local!;
  if (model.unavailableReason !== null) return;
  if (local.huggingFace && !existsSync(local.path)) {
    // An `hf:` reference is fetched on first use, here, before the server listens.
    const { repo, revision, file } = local.huggingFace;
    const url = resolveUrl(environment.HF_ENDPOINT || 'https://huggingface.co', repo, revision, file);
    logger.info({ model: model.entry.id }, `downloading ${url} into ${local.path} (once; \`agora models pull\` shows progress)`);
    try {
      await downloadModelFile(url, local.path, { token: environment.HF_TOKEN || undefined });
    } catch (error) {
      model.unavailableReason = error instanceof Error ? error.message : String(error);
      return;
    }
  }
  model.unavailableReason = localModelFileProblem(local.path);
  if (model.unavailableReason !== null) return;
  try {
    const facts = await readLocalModelFacts(local.path);
    local.quantization = facts.quantization;
    if (model.entry.params_b === null) model.entry.params_b = facts.paramsB;
    if (model.entry.arch === 'unknown') model.entry.arch = facts.arch;
  } catch (error) {
    model.unavailableReason = `${local.path} is not a readable GGUF file (${error instanceof Error ? error.message : String(error)})`;
  }
}

/**
 * Local models load in the background from the start (the first duel need not wait); a file
 * llama.cpp cannot load (truncated, too large once mapped) makes its model unavailable, and says so.
 */
export function loadLocalModels(models: readonly CatalogueModel[], localModels: LocalModelRuntime, logger: Logger): void {
  for (const model of models) {
    if (!model.local || !isDrawable(model)) continue;
    localModels.load(localModelSettings(model)).catch((error: unknown) => {
      model.unavailableReason = `llama.cpp cannot load ${model.local!.path} (${error instanceof Error ? error.message : String(error)})`;
      logger.warn({ model: model.entry.id }, `model unavailable: ${model.unavailableReason}`);
    });
  }
}
