import type { MaxxRole } from '../../adapters/maxx-steps';
import type { TrainingUse } from '../../domain/datasets/training-use';
import type { ModelClient } from '../../providers/spec';

/** A catalogue model playing one role of the optimised set. */
export interface MaxxRoleModel {
  id: string;
  client: ModelClient;
  /** The endpoint it is served by, and how many requests that endpoint takes at once (unset: no limit beyond the run's concurrency). */
  provider?: { key: string; maxConcurrency?: number | undefined };
  /** US dollars per million tokens, when the catalogue says. */
  pricing?: { inputPerMillionUsd: number; outputPerMillionUsd: number } | undefined;
  /** The catalogue's own output budget for this model (`options.max_output_tokens`), when it sets one. */
  maxOutputTokens?: number | undefined;
  /** Whether its provider takes a sampling seed (OpenAI-compatible APIs and llama.cpp do; Anthropic's does not). */
  takesSeed?: boolean;
}

/** The models of a run: one per role, and a panel of one or more judges. */
export interface MaxxRoles {
  generator: MaxxRoleModel;
  reviewer: MaxxRoleModel;
  critic: MaxxRoleModel;
  stylist: MaxxRoleModel;
  judges: readonly MaxxRoleModel[];
}

/** The model ids of a run, role by role (the judges joined by commas), for the card and the build record. */
export function roleIds(roles: MaxxRoles): Record<MaxxRole, string> {
  return {
    generator: roles.generator.id,
    reviewer: roles.reviewer.id,
    critic: roles.critic.id,
    judge: roles.judges.map((judge) => judge.id).join(', '),
    stylist: roles.stylist.id,
  };
}

/** Every model of a run (a judge may share an endpoint, and so a concurrency limit, with another role). */
export function allRoleModels(roles: MaxxRoles): MaxxRoleModel[] {
  return [roles.generator, roles.reviewer, roles.critic, roles.stylist, ...roles.judges];
}

/** What the models may be used for, by model id (the arena's models and the role models): from the catalogue. */
export type TrainingUseLookup = (modelId: string) => TrainingUse;

/** What each call of a role is sent: its output budget, temperature and seed (docs/datasets.md#maxx-calls). */
export interface MaxxCallSettings {
  maxOutputTokens: number;
  temperature: number;
  /** Null when the provider takes none. */
  seed: number | null;
}

/**
 * Per role, when the catalogue sets no output budget: writers get room for a long reply, the
 * structured steps (review, critic, judge) room for their reasons. Writers sample a little; the
 * steps that decide are as deterministic as the provider allows.
 */
const ROLE_DEFAULTS: Record<MaxxRole, { maxOutputTokens: number; temperature: number }> = {
  generator: { maxOutputTokens: 4096, temperature: 0.7 },
  stylist: { maxOutputTokens: 4096, temperature: 0.3 },
  reviewer: { maxOutputTokens: 2048, temperature: 0 },
  critic: { maxOutputTokens: 2048, temperature: 0 },
  judge: { maxOutputTokens: 2048, temperature: 0 },
};

/** The seed of every call that takes one: a rerun asks the same question the same way. */
export const MAXX_SEED = 1;

/** The largest budget an answer cut on length is asked again with. */
export const MAX_RETRY_OUTPUT_TOKENS = 32_768;

/**
 * The settings of a call of `role` to `model`. `tag` names the turn and the attempt (`t0#2`): a draft
 * written again after the critic rejected one gets the next seed, since the same seed would give a
 * seeded provider the same draft again.
 */
export function callSettingsOf(role: MaxxRole, model: MaxxRoleModel, tag = ''): MaxxCallSettings {
  const defaults = ROLE_DEFAULTS[role];
  const attempt = Number(/#(\d+)$/.exec(tag)?.[1] ?? 1);
  return {
    maxOutputTokens: model.maxOutputTokens ?? defaults.maxOutputTokens,
    temperature: defaults.temperature,
    seed: model.takesSeed === false ? null : MAXX_SEED + attempt - 1,
  };
}
