import { type CatalogueModel, apiKeyEnv } from '../../config/catalogue';
import { type Config, ConfigError } from '../../config/config';
import type { Store } from '../../db/unit-of-work';
import { type TrainingUse, trainingUseOf } from '../../domain/datasets/training-use';
import { createModelClient } from '../../providers/create-model-client';
import { systemRuntime } from '../ports/runtime';
import type { MaxxRoleModel, MaxxRoles } from './maxx-roles';
import { MaxxService, type MaxxSettings } from './maxx.service';

/** The catalogue ids of a run's role models: one per role, one or more judges. */
export interface MaxxRoleIds {
  generator: string;
  reviewer: string;
  critic: string;
  stylist: string;
  judges: readonly string[];
}

/**
 * Why a set of role ids cannot make an honest run: the reviewer is the generator (a cross-review by
 * the model that wrote the draft is worth nothing), a judge is listed twice, or a judge also writes,
 * reviews or criticises the replies it judges (LLM judges prefer their own writing) unless the
 * operator allowed it. Null when the roles hold.
 */
export function roleClash(ids: MaxxRoleIds, allowSelfJudging: boolean): string | null {
  if (ids.reviewer === ids.generator)
    return `--reviewer: the reviewer must be another model than the generator (both are "${ids.generator}")`;
  if (ids.judges.length === 0) return '--judge takes at least one catalogue model id';
  const twice = ids.judges.find((judge, index) => ids.judges.indexOf(judge) !== index);
  if (twice !== undefined) return `--judge: "${twice}" is listed twice`;
  if (allowSelfJudging) return null;
  for (const judge of ids.judges) {
    const clash = (['generator', 'reviewer', 'critic'] as const).find((role) => ids[role] === judge);
    if (clash)
      return `--judge: "${judge}" is also the ${clash}; a judge may not judge what it wrote or reviewed (LLM judges prefer their own writing). Choose another judge, or pass --allow-self-judging (said in the card)`;
  }
  return null;
}

/** Judges of the same organisation as a writer, reviewer or critic: allowed, but worth a warning (models of one maker share habits). */
export function sameOrganisationWarnings(ids: MaxxRoleIds, models: readonly CatalogueModel[]): string[] {
  const organisation = (id: string) => models.find((model) => model.entry.id === id)?.entry.organisation;
  const warnings: string[] = [];
  for (const judge of ids.judges) {
    for (const role of ['generator', 'reviewer', 'critic'] as const) {
      if (ids[role] === judge) continue;
      const shared = organisation(judge);
      if (shared !== undefined && shared === organisation(ids[role]))
        warnings.push(
          `the judge "${judge}" and the ${role} "${ids[role]}" are both made by ${shared}: their judgements may share the same preferences`,
        );
    }
  }
  return warnings;
}

/**
 * The optimised-set pipeline with its role models, given as catalogue ids (any status: tool models
 * are usually `disabled`, so that they are never drawn into duels).
 */
export function createMaxxService(
  config: Config,
  store: Store,
  models: readonly CatalogueModel[],
  ids: MaxxRoleIds,
  settings: Partial<MaxxSettings> & { allowSelfJudging?: boolean } = {},
): MaxxService {
  const clash = roleClash(ids, settings.allowSelfJudging === true);
  if (clash) throw new ConfigError(clash);
  const role = (flag: string, id: string): MaxxRoleModel => {
    const model = models.find((candidate) => candidate.entry.id === id);
    if (!model) throw new ConfigError(`--${flag}: no model "${id}" in the catalogue ${config.modelsPath}`);
    const keyName = apiKeyEnv(model.entry);
    if (keyName && !model.apiKey) throw new ConfigError(`--${flag}: model "${id}" needs ${keyName}, which is not set`);
    const pricing = model.entry.pricing;
    const provider = model.entry.provider;
    const endpoint = provider.type === 'llama-cpp' ? provider.model_path : `${provider.base_url} ${provider.api_key_env ?? ''}`;
    return {
      id,
      client: createModelClient(model, undefined),
      // One endpoint with one key is one quota, whichever catalogue models share it.
      provider: { key: `${provider.type} ${endpoint}`, maxConcurrency: provider.max_concurrency },
      pricing: pricing && { inputPerMillionUsd: pricing.input_per_million_usd, outputPerMillionUsd: pricing.output_per_million_usd },
      maxOutputTokens: model.entry.options?.max_output_tokens ?? undefined,
      takesSeed: provider.type !== 'anthropic',
    };
  };
  const roles: MaxxRoles = {
    generator: role('generator', ids.generator),
    reviewer: role('reviewer', ids.reviewer),
    critic: role('critic', ids.critic),
    stylist: role('stylist', ids.stylist),
    judges: ids.judges.map((id) => role('judge', id)),
  };
  const uses = new Map<string, TrainingUse>(
    models.map((model) => [
      model.entry.id,
      trainingUseOf({ license: model.entry.license, openWeights: model.entry.open_weights, trainingUse: model.entry.training_use }),
    ]),
  );
  const { allowSelfJudging, ...rest } = settings;
  return new MaxxService(
    store,
    roles,
    {
      privateCohorts: config.privateCohorts,
      selfJudging: allowSelfJudging === true && roleClash(ids, false) !== null,
      // A model the catalogue does not know (an imported conversation's): its licence must be read.
      trainingUse: (id) => uses.get(id) ?? 'check_licence',
      modelLicences: models.map((model) => ({ id: model.entry.id, license: model.entry.license, trainingUse: uses.get(model.entry.id)! })),
      ...rest,
    },
    systemRuntime,
  );
}
