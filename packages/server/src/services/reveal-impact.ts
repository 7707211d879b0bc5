import type { RevealImpact } from '@agora/contract';
import { type ConversationAnswers, type ConversationImpact, ImpactError, conversationImpactOf } from '../domain/impact';
import type { ArenaCatalogue } from './arena-catalogue';
import type { EnergyClasses } from './energy-classes';

/** One finished answer of a side, as the impact of the reveal needs it. */
export interface AnswerUsage {
  outputTokens: number;
  latencySeconds: number | null;
}

/** Computes the energy and carbon of one side's answers for the reveal; undefined when the model's size is unknown. */
export type RevealImpactEstimator = (modelId: string, answers: readonly AnswerUsage[], locale: string | null) => RevealImpact | undefined;

/**
 * The reveal's impact estimator over the catalogue's public facts and the operator's method and
 * zone. Each model's settings are resolved once, on its first reveal (the catalogue does not
 * change while the server runs).
 */
export function createRevealImpactEstimator(
  catalogue: ArenaCatalogue,
  settings: { method: '0.9.1' | '0.8.2' | 'comparia-compat'; zone: string | undefined },
  classes?: EnergyClasses,
): RevealImpactEstimator {
  // undefined: the model's size is unknown, so it has no impact to show.
  const ofModel = new Map<string, ((answers: ConversationAnswers) => ConversationImpact) | undefined>();
  const impactOf = (modelId: string) => {
    if (ofModel.has(modelId)) return ofModel.get(modelId);
    const card = catalogue.card(modelId);
    let impact: ((answers: ConversationAnswers) => ConversationImpact) | undefined;
    try {
      impact = conversationImpactOf(
        { params_b: card.params_b, active_params_b: card.active_params_b, arch: card.arch },
        { method: settings.method, zone: settings.zone ?? null },
      );
    } catch (error) {
      if (!(error instanceof ImpactError && error.code === 'unknown_model_size')) throw error;
    }
    ofModel.set(modelId, impact);
    return impact;
  };
  return (modelId, answers, locale) => {
    const impact = impactOf(modelId);
    if (!impact) return undefined;
    const { comparia: _comparia, ...shown } = impact({
      outputTokensPerMessage: answers.map((answer) => answer.outputTokens),
      latencySecondsPerMessage: answers.map((answer) => answer.latencySeconds),
      locale,
    });
    // The class of an answer: the side's energy (its range's midpoint) over its answers.
    const perAnswerWh = (shown.energy_wh.min + shown.energy_wh.max) / 2 / Math.max(1, answers.length);
    const energyClass = classes?.ofAnswerWh(perAnswerWh);
    return energyClass ? { ...shown, energy_class: energyClass } : shown;
  };
}
