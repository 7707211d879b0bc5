import type { LeaderboardBody, LeaderboardRow } from '@agora/contract';
import { type ModelFacts, whPer1000OutputTokens } from '../domain/impact';
import type { Leaderboard, LeaderboardRow as RankedRow } from '../domain/ranking';
import type { ViewDefinition } from '../domain/ranking/leaderboard-views';
import type { ArenaCatalogue } from './arena-catalogue';
import type { EnergyClasses } from './energy-classes';
import type { Available } from './leaderboard-view-plan';

/** What a board's rows take from outside the fit: the catalogue's cards, the impact settings, the energy classes. */
export interface BoardDressing {
  catalogue: ArenaCatalogue;
  energyClasses?: EnergyClasses | undefined;
  minVotes: number;
  impact: { method: '0.9.1' | '0.8.2' | 'comparia-compat'; zone: string | undefined };
}

/** Mean revealed energy of each model's side of a duel (RankingVoteColumns.meanEnergyByModel). */
export type MeanEnergy = Map<string, { min: number; max: number }>;

/** A view's fit as the API serves it. */
export function boardBody(
  dressing: BoardDressing,
  view: ViewDefinition,
  ranking: Leaderboard,
  generatedAt: string,
  available: Available,
  energy: MeanEnergy,
): LeaderboardBody {
  return {
    generated_at: generatedAt,
    view: { style: view.style, language: view.language, category: view.category, mode: view.mode },
    n_votes: ranking.nVotesUsed,
    min_votes: dressing.minVotes,
    variant: ranking.variant,
    models: ranking.rows.map((row) => boardRow(dressing, row, energy)),
    available,
    style_coefficients: ranking.style ? { ...ranking.style.betaPointsPerSd } : null,
  };
}

function boardRow(dressing: BoardDressing, row: RankedRow, energy: MeanEnergy): LeaderboardRow {
  const card = cardFields(dressing, row.model, energy);
  return {
    model: row.model,
    name: card.name,
    organisation: card.organisation,
    license: card.license,
    open_weights: card.open_weights,
    arch: card.arch,
    params_b: card.params_b,
    rating: row.rating,
    se: row.se,
    ci_low: row.ciLow,
    ci_high: row.ciHigh,
    rank: row.rank,
    rank_best: row.rankBest,
    rank_worst: row.rankWorst,
    tier: row.tier,
    n_battles: row.nBattles,
    wins: row.wins,
    losses: row.losses,
    ties: row.ties,
    both_bad: row.bothBad,
    win_rate: row.winRate,
    both_bad_rate: row.bothBadRate,
    provisional: row.provisional,
    wh_per_1000_tokens: card.wh_per_1000_tokens,
    mean_energy_wh_per_duel: card.mean_energy_wh_per_duel,
    ...(card.energy_class ? { energy_class: card.energy_class } : {}),
  };
}

/** The fields of a row that do not come from the fit (a stored board is current only when they are unchanged). */
export function cardFields(dressing: BoardDressing, model: string, energy: MeanEnergy) {
  const card = dressing.catalogue.card(model);
  return {
    name: card.name,
    organisation: card.organisation,
    license: card.license,
    open_weights: card.open_weights,
    arch: card.arch,
    params_b: card.params_b,
    wh_per_1000_tokens: energyPer1000(dressing, card),
    mean_energy_wh_per_duel: energy.get(model) ?? null,
    energy_class: dressing.energyClasses?.ofModel(model),
  };
}

function energyPer1000(dressing: BoardDressing, card: ModelFacts & { params_b: number | null }): { min: number; max: number } | null {
  if (card.params_b === null) return null;
  const { method, zone } = dressing.impact;
  const range = whPer1000OutputTokens(
    { params_b: card.params_b, active_params_b: card.active_params_b, arch: card.arch },
    { method, zone: zone ?? null },
  );
  return { min: range.min, max: range.max };
}
