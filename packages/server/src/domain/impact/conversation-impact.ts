import { comparIaConsumption, type ComparIaConsumption } from './comparia-compat';
import { WORLD_ZONE } from './electricity-mixes';
import { impactsWithSettings } from './estimate-impact';
import { comparIaEquivalents, everydayEquivalents, type Equivalent } from './equivalents';
import { ImpactError } from './impact-error';
import { IMPACT_MESSAGES, resolveImpactLocale, type ImpactLocale } from './impact-messages';
import type { EcologitsVersion, ImpactMethod, LlmImpacts } from './impact-types';
import type { ModelFacts } from './model-parameters';
import { resolveImpactSettings, type ImpactSettings } from './resolve-impact-settings';
import { checkOutputTokens } from './validate-impact-input';
import { rangeMean, scaleRange, sumRanges, type ValueOrRange, type ValueRange } from './value-range';

/** What the arena knows about one side of a duel when it reveals the models. */
export interface ConversationImpactInput {
  model: ModelFacts;
  /** Output tokens of each finished answer of this side, in order. */
  outputTokensPerMessage: readonly number[];
  /** Measured latency of each answer in seconds (null when unknown); same length as the tokens. */
  latencySecondsPerMessage?: readonly (number | null)[];
  /** EcoLogits version (`0.9.1` by default), or a method label (`comparia-compat` turns the switch on). */
  method?: EcologitsVersion | ImpactMethod | null;
  /** `'comparia'` (or `true`) reproduces compar:IA's published figures (see `comparia-compat.ts`). */
  compat?: 'comparia' | boolean | null;
  /** Electricity-mix zone (ISO 3166-1 alpha-3 or `WOR`); defaults per `resolveImpactSettings`. */
  zone?: string | null;
  /** The deployment's PUE and on-site WUE, overriding the provider's. */
  datacenter?: { pue?: ValueOrRange | null; wue?: ValueOrRange | null };
  /** The visitor's locale tag; its interface language gives the texts (`sv-SE`: Swedish), anything else French. */
  locale?: string | null;
}

/**
 * One side's impact as the reveal shows it (`Reveal.impact` of docs/api.md#reveal, plus labels): energy in
 * Wh and carbon in g CO2e of the whole conversation as `{min, max}` (min < max when the model size is
 * uncertain or the method gives a band), everyday equivalents, the method and zone used.
 */
export interface ConversationImpact {
  energy_wh: ValueRange;
  gwp_g: ValueRange;
  equivalents: Equivalent[];
  method: ImpactMethod;
  method_label: string;
  zone: string;
  zone_label: string;
  output_tokens: number;
  /** True when a parameter count is a range (unknown exact size, MoE without active count). */
  size_uncertain: boolean;
  /** compar:IA's own reveal figures, only under the compar:IA switch. */
  comparia?: ComparIaConsumption;
}

/**
 * The environmental impact of one side of a duel, for the reveal. Each finished answer is computed
 * once (its own latency cap applies to it alone) and the answers are summed bound-wise. Under the
 * compar:IA switch the total tokens are computed in one call without latency, exactly as compar:IA.
 *
 * Unknown size: `params_b` null is an `unknown_model_size` error (EcoLogits has no estimate for an
 * unregistered model, docs/impact.md#parameter-counts), so the caller shows no impact; an MoE without `active_params_b` gets
 * EcoLogits' 10–30 % active range; other architectures without it are sized as dense.
 * Equivalents are computed on the midpoint of the range (compar:IA's convention).
 * @throws ImpactError for invalid input (no parameters, unknown zone or provider, negative tokens…).
 */
export function conversationImpact(input: ConversationImpactInput): ConversationImpact {
  return conversationImpactOf(input.model, input)(input);
}

/** What {@link conversationImpactOf} computes per call: one side's answers and the visitor's locale. */
export type ConversationAnswers = Pick<ConversationImpactInput, 'outputTokensPerMessage' | 'latencySecondsPerMessage' | 'locale'>;

/**
 * {@link conversationImpact} for one model and method, its settings resolved (and checked) once:
 * the reveal computes the answers of the same few models over and over.
 * @throws ImpactError for invalid settings (here) or answers (from the returned function).
 */
export function conversationImpactOf(
  model: ModelFacts,
  options: Pick<ConversationImpactInput, 'method' | 'compat' | 'zone' | 'datacenter'>,
): (answers: ConversationAnswers) => ConversationImpact {
  const settings = resolveImpactSettings(model, {
    method: options.method ?? null,
    compat: options.compat ?? null,
    zone: options.zone ?? null,
    pue: options.datacenter?.pue ?? null,
    wue: options.datacenter?.wue ?? null,
  });
  return (answers) => {
    const locale = resolveImpactLocale(answers.locale);
    const tokens = answers.outputTokensPerMessage.map(checkOutputTokens);
    const base = describeSettings(
      settings,
      locale,
      tokens.reduce((sum, count) => sum + count, 0),
    );
    if (settings.method === 'comparia-compat') return { ...base, ...comparIaFigures(settings, base.output_tokens, locale) };
    const latencies = checkLatencies(answers.latencySecondsPerMessage, tokens.length);
    const totals = totalsInUnits(tokens.map((count, index) => impactsWithSettings(settings, count, latencies[index])));
    const amounts = { energyWh: rangeMean(totals.energy_wh), gwpG: rangeMean(totals.gwp_g) };
    return { ...base, ...totals, equivalents: everydayEquivalents(amounts, locale) };
  };
}

/** The method, zone and size facts of the reveal, with labels in the locale. */
function describeSettings(settings: ImpactSettings, locale: ImpactLocale, outputTokens: number) {
  const messages = IMPACT_MESSAGES[locale];
  return {
    method: settings.method,
    method_label: messages.methods[settings.method],
    zone: settings.zone,
    zone_label: settings.zone === WORLD_ZONE ? messages.worldZone : messages.zone(settings.zone),
    output_tokens: outputTokens,
    size_uncertain: settings.sizeUncertain,
  };
}

/** compar:IA's way: one computation on the total tokens, its truncated card and equivalents. */
function comparIaFigures(settings: ImpactSettings, outputTokens: number, locale: ImpactLocale) {
  const impacts = impactsWithSettings(settings, outputTokens);
  const comparia = comparIaConsumption(impacts.energyKwh, impacts.gwpKgCo2eq.total, outputTokens);
  return { ...totalsInUnits([impacts]), equivalents: comparIaEquivalents(comparia, locale), comparia };
}

/** Sums the answers bound-wise and converts kWh to Wh and kg to g. */
function totalsInUnits(perMessage: LlmImpacts[]): { energy_wh: ValueRange; gwp_g: ValueRange } {
  const energyKwh = sumRanges(perMessage.map((impacts) => impacts.energyKwh));
  const gwpKg = sumRanges(perMessage.map((impacts) => impacts.gwpKgCo2eq.total));
  return { energy_wh: scaleRange(energyKwh, 1000), gwp_g: scaleRange(gwpKg, 1000) };
}

function checkLatencies(latencies: ConversationImpactInput['latencySecondsPerMessage'], count: number) {
  if (latencies === undefined) return new Array<null>(count).fill(null);
  if (latencies.length !== count) {
    throw new ImpactError('invalid_latency', `got ${latencies.length} latencies for ${count} messages`);
  }
  return latencies;
}
