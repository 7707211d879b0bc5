import type { ModelCard } from '@agora/contract';
import { type CatalogueModel, type ModelCallOptions, apiKeyEnv, isDrawable, providerModelName } from '../config/catalogue';
import type { PairingCandidate } from '../domain/arena/pairing';
import { type IdentityLexicon, buildIdentityLexicon } from '../domain/arena/identity-leak';
import { licenseKindOf } from '../domain/datasets/training-use';

/** The loaded catalogue as services use it: public cards, drawable candidates, call options, identity lexicons. */
export class ArenaCatalogue {
  private byId: Map<string, CatalogueModel>;
  private readonly lexicons = new Map<string, IdentityLexicon>();

  constructor(
    models: readonly CatalogueModel[],
    readonly isDemo = false,
  ) {
    this.byId = new Map(models.map((model) => [model.entry.id, model]));
  }

  /**
   * The models with the console's overrides and added models (services/models/): the next draw,
   * card and call option read them. A duel under way keeps the client it started with.
   */
  replaceModels(models: readonly CatalogueModel[]): void {
    this.byId = new Map(models.map((model) => [model.entry.id, model]));
    this.lexicons.clear();
  }

  /** Every model, disabled ones included. */
  models(): CatalogueModel[] {
    return [...this.byId.values()];
  }

  /** Cards of enabled and archived models (disabled ones are hidden), as `GET /models` lists them. */
  publicCards(): ModelCard[] {
    return [...this.byId.values()].filter((model) => model.entry.status !== 'disabled').map(toCard);
  }

  /** The card of any catalogue model, or a placeholder for an id no longer in the catalogue (old duels). */
  card(modelId: string): ModelCard {
    const model = this.byId.get(modelId);
    if (model) return toCard(model);
    return {
      id: modelId,
      name: modelId,
      organisation: 'unknown',
      license: 'unknown',
      license_kind: 'unknown',
      open_weights: false,
      arch: 'unknown',
      params_b: null,
      active_params_b: null,
      reasoning: false,
      release_date: null,
      status: 'archived',
      available: false,
    };
  }

  has(modelId: string): boolean {
    return this.byId.has(modelId);
  }

  /** The model name the provider is asked for (`provider.model`). */
  providerModel(modelId: string): string {
    return providerModelName(this.require(modelId).entry);
  }

  /** US dollars per million output tokens, when the catalogue gives a price. */
  outputPricePerMillion(modelId: string): number | undefined {
    return this.byId.get(modelId)?.entry.pricing?.output_per_million_usd;
  }

  isExpensive(modelId: string): boolean {
    return this.byId.get(modelId)?.entry.expensive ?? false;
  }

  isDrawable(modelId: string): boolean {
    const model = this.byId.get(modelId);
    return model !== undefined && isDrawable(model);
  }

  /** Models the pairing policy may draw. */
  candidates(): PairingCandidate[] {
    return [...this.byId.values()].filter(isDrawable).map((model) => ({
      id: model.entry.id,
      paramsB: model.entry.params_b,
      reasoning: model.entry.reasoning,
      expensive: model.entry.expensive,
    }));
  }

  callOptions(modelId: string): ModelCallOptions {
    return this.require(modelId).options;
  }

  lexicon(modelId: string): IdentityLexicon {
    let lexicon = this.lexicons.get(modelId);
    if (!lexicon) {
      const entry = this.require(modelId).entry;
      lexicon = buildIdentityLexicon({ id: entry.id, name: entry.name, organisation: entry.organisation, aliases: entry.aliases });
      this.lexicons.set(modelId, lexicon);
    }
    return lexicon;
  }

  /** The key variables that would make models drawable, when fewer than two can be; undefined when the arena is usable. */
  setupNeeds(): { missing_keys: string[] } | undefined {
    if (this.candidates().length >= 2) return undefined;
    return {
      missing_keys: [...new Set([...this.byId.values()].map((model) => apiKeyEnv(model.entry)).filter((name): name is string => !!name))],
    };
  }

  /** What an operator must do when fewer than two models can be drawn (English, for the log and scripts), or undefined when the arena is usable. */
  setupHint(): string | undefined {
    const needs = this.setupNeeds();
    if (!needs) return undefined;
    const missing = needs.missing_keys;
    const keys = missing.length > 0 ? ` Set one or more of ${missing.join(', ')},` : ' Add models to the catalogue,';
    return `Fewer than two models can be drawn.${keys} run \`agora models pull\` to run small open models on this machine (no key needed), or point AGORA_MODELS at another catalogue, then restart. \`npm run demo\` runs the arena offline against a bundled fake upstream.`;
  }

  private require(modelId: string): CatalogueModel {
    const model = this.byId.get(modelId);
    if (!model) throw new Error(`model ${modelId} is not in the catalogue`);
    return model;
  }
}

function toCard(model: CatalogueModel): ModelCard {
  const entry = model.entry;
  return {
    id: entry.id,
    name: entry.name,
    organisation: entry.organisation,
    license: entry.license,
    license_kind: licenseKindOf({ license: entry.license, openWeights: entry.open_weights }),
    open_weights: entry.open_weights,
    arch: entry.arch,
    params_b: entry.params_b,
    active_params_b: entry.active_params_b ?? null,
    reasoning: entry.reasoning,
    release_date: entry.release_date ?? null,
    status: entry.status,
    available: isDrawable(model),
    ...(entry.params_estimated ? { params_estimated: true } : {}),
    ...descriptionOf(entry.description),
    ...(entry.license_url ? { license_url: entry.license_url } : {}),
    ...(entry.pricing ? { pricing: entry.pricing } : {}),
    ...(model.local ? { runs_locally: true, ...(model.local.quantization ? { quantization_label: model.local.quantization } : {}) } : {}),
  };
}

/**
 * The card's description: a plain string as it is; one per language (`{fr: …, en: …}`) as
 * `descriptions`, with English (else the first given) as `description` for clients that read one.
 */
function descriptionOf(
  description: string | Readonly<Record<string, string>> | undefined,
): Pick<ModelCard, 'description' | 'descriptions'> {
  if (description === undefined) return {};
  if (typeof description === 'string') return { description };
  const fallback = description.en ?? Object.values(description)[0];
  return { ...(fallback ? { description: fallback } : {}), descriptions: { ...description } };
}
