import type { RevealImpact } from '@agora/contract';
import { ImpactError, conversationImpact } from '../domain/impact';
import type { ArenaCatalogue } from './arena-catalogue';

/** One finished answer of a side, as the impact of the reveal needs it. */
export interface AnswerUsage {
  outputTokens: number;
  latencySeconds: number | null;
}

/** Computes the energy and carbon of one side's answers for the reveal; undefined when the model's size is unknown. */
export type RevealImpactEstimator = (modelId: string, answers: readonly AnswerUsage[], locale: string | null) => RevealImpact | undefined;

/** The reveal's impact estimator over the catalogue's public facts and the operator's method and zone. */
export function createRevealImpactEstimator(catalogue: ArenaCatalogue, settings: { method: '0.9.1' | '0.8.2' | 'comparia-compat'; zone: string | undefined }): RevealImpactEstimator {
  return (modelId, answers, locale) => {
    const card = catalogue.card(modelId);
    try {
      const impact = conversationImpact({
        model: { params_b: card.params_b, active_params_b: card.active_params_b, arch: card.arch },
        outputTokensPerMessage: answers.map((answer) => answer.outputTokens),
        latencySecondsPerMessage: answers.map((answer) => answer.latencySeconds),
        method: settings.method,
        zone: settings.zone ?? null,
        locale,
      });
      const { comparia: _comparia, ...shown } = impact;
      return shown;
    } catch (error) {
      if (error instanceof ImpactError && error.code === 'unknown_model_size') return undefined;
      throw error;
    }
  };
}
