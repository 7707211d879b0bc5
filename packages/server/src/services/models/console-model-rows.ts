import type { ConsoleModel, ConsoleModelList } from '@agora/contract';
import { type CatalogueModel, isDrawable, providerModelName } from '../../config/catalogue';
import type { ConfiguredProvider } from '../../config/catalogue-overrides';
import type { ModelCallStats, ModelErrorRecord } from '../../db/repositories/model-override.repository';
import type { ModelOrigin } from './model-overrides';

/** The console's table of models: each model's facts, where they come from, its recent answers and errors. */
export function consoleModelList(input: {
  models: readonly CatalogueModel[];
  origins: ReadonlyMap<string, ModelOrigin>;
  stats: readonly ModelCallStats[];
  errors: readonly ModelErrorRecord[][];
  providers: readonly ConfiguredProvider[];
  since: string;
}): ConsoleModelList {
  const statsOf = new Map(input.stats.map((row) => [row.modelId, row]));
  return {
    models: input.models.map((model, index) =>
      consoleModel(model, input.origins.get(model.entry.id), statsOf.get(model.entry.id), input.errors[index] ?? []),
    ),
    providers: input.providers.map(({ key, provider }) => ({
      key,
      type: provider.type,
      base_url: provider.base_url,
      api_key_env: provider.api_key_env ?? null,
      key_set: input.models.some(
        (model) =>
          model.entry.provider.type !== 'llama-cpp' &&
          model.entry.provider.api_key_env === provider.api_key_env &&
          model.apiKey !== undefined,
      ),
    })),
    stats_since: input.since,
  };
}

function consoleModel(
  model: CatalogueModel,
  origin: ModelOrigin | undefined,
  stats: ModelCallStats | undefined,
  errors: ModelErrorRecord[],
): ConsoleModel {
  const entry = model.entry;
  const description =
    entry.description === undefined ? {} : typeof entry.description === 'string' ? { '*': entry.description } : { ...entry.description };
  const answers = stats?.answers ?? 0;
  return {
    id: entry.id,
    name: entry.name,
    organisation: entry.organisation,
    origin: origin?.origin ?? 'yaml',
    overridden_fields: origin?.fields ?? [],
    updated_by: origin?.updatedBy ?? null,
    updated_at: origin?.updatedAt ?? null,
    status: entry.status,
    drawable: isDrawable(model),
    unavailable_reason: entry.status === 'enabled' ? model.unavailableReason : null,
    license: entry.license,
    license_url: entry.license_url ?? null,
    open_weights: entry.open_weights,
    arch: entry.arch,
    params_b: entry.params_b,
    active_params_b: entry.active_params_b ?? null,
    pricing: entry.pricing ?? null,
    description,
    provider: {
      type: entry.provider.type,
      base_url: entry.provider.type === 'llama-cpp' ? null : entry.provider.base_url,
      model: providerModelName(entry),
    },
    stats: {
      answers,
      failed: stats?.failed ?? 0,
      error_rate: answers === 0 ? null : (stats?.failed ?? 0) / answers,
      mean_ttft_ms: stats?.meanTtftMs ?? null,
      mean_duration_ms: stats?.meanDurationMs ?? null,
    },
    last_errors: errors.map((error) => ({ kind: error.kind, status_code: error.statusCode, message: error.message, at: error.createdAt })),
  };
}
