import type { Reveal, Side } from '@agora/contract';
import type { DuelRecord, TurnSideSummary } from '../../db/repositories/duel.repository';
import { answersOfCompletedTurns } from '../../domain/arena/duel-rules';
import type { DuelServiceDependencies } from './duel-dependencies';

/**
 * What the vote reveals of each side, over the answers of its completed turns: the model's card, the
 * output tokens, their cost when the catalogue prices them, and their impact when it can be estimated.
 */
export function buildReveal(
  { catalogue, estimateImpact }: Pick<DuelServiceDependencies, 'catalogue' | 'estimateImpact'>,
  duel: DuelRecord,
  sideRecords: readonly TurnSideSummary[],
): Record<Side, Reveal> {
  const revealSide = (side: Side, modelId: string): Reveal => {
    const answers = answersOfCompletedTurns(sideRecords)
      .filter((record) => record.side === side)
      .map((record) => ({
        outputTokens: record.outputTokens ?? 0,
        latencySeconds: record.durationMs === null ? null : record.durationMs / 1000,
      }));
    const impact = estimateImpact?.(modelId, answers, duel.locale);
    const outputTokens = answers.reduce((sum, answer) => sum + answer.outputTokens, 0);
    const price = catalogue.outputPricePerMillion(modelId);
    return {
      model: catalogue.card(modelId),
      output_tokens: outputTokens,
      ...(price !== undefined ? { output_cost_usd: (outputTokens * price) / 1_000_000 } : {}),
      ...(impact ? { impact } : {}),
    };
  };
  return { a: revealSide('a', duel.modelA), b: revealSide('b', duel.modelB) };
}
