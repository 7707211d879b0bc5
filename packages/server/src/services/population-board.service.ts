import type { PopulationBoardBody } from '@agora/contract';
import type { Store } from '../db/unit-of-work';
import { type PopulationVote, populationBoard } from '../domain/ranking/population-board';
import { type PopulationSurvey, answerIndices, surveyMargins } from '../domain/ranking/population-survey';
import type { ArenaChoice } from '../domain/ranking/arena-matches';
import type { VoteOutcome } from '../domain/ranking/vote-table';
import type { LeaderboardRow as RankedRow } from '../domain/ranking';
import type { ArenaCatalogue } from './arena-catalogue';
import type { Runtime } from './ports/runtime';

/** The weighted board is computed again at most this often (it reads the answering visitors' votes in full). */
const RECOMPUTE_MS = 60_000;

const OUTCOME: Readonly<Record<ArenaChoice, VoteOutcome>> = { a: 'model_a', b: 'model_b', tie: 'tie', both_bad: 'both_bad' };

/**
 * The board weighted to the population (docs/ranking.md#population-board): the answering
 * visitors' votes, raked to the survey's margins, fitted with visitor clusters; cached a minute.
 */
export class PopulationBoardService {
  private cached: { at: number; body: Promise<PopulationBoardBody> } | undefined;

  constructor(
    private readonly dependencies: {
      store: Store;
      catalogue: ArenaCatalogue;
      runtime: Runtime;
      survey: PopulationSurvey | undefined;
      /** Duels whose votes the integrity rules or a reviewer keep off every board (services/vote-integrity.ts); none: all count. */
      flaggedDuels?: () => Promise<Pick<ReadonlySet<string>, 'has'>>;
    },
  ) {}

  board(): Promise<PopulationBoardBody> {
    const now = this.dependencies.runtime.now().getTime();
    if (!this.cached || now - this.cached.at >= RECOMPUTE_MS) {
      const body = this.compute();
      this.cached = { at: now, body };
      // A failed computation is not kept: the next request tries again.
      body.catch(() => (this.cached = undefined));
    }
    return this.cached.body;
  }

  private async compute(): Promise<PopulationBoardBody> {
    const { store, survey, runtime } = this.dependencies;
    if (!survey) return { ...EMPTY, enabled: false, reason: 'not_configured' };
    const [records, answered, total, flagged] = await Promise.all([
      store.surveyAnswers.answeredVisitorsVotes(),
      store.surveyAnswers.listAnswered(),
      store.surveyAnswers.countCountableVotes(),
      this.dependencies.flaggedDuels?.() ?? new Set<string>(),
    ]);
    const answers = new Map<string, number[]>();
    for (const record of answered) {
      const indices = record.answers && answerIndices(survey, record.answers);
      if (indices) answers.set(record.visitorHash, indices);
    }
    // A flagged vote counts on no board: the main board leaves it out, so does this one (n_votes still counts it, as cast).
    const votes: PopulationVote[] = records
      .filter((record) => !flagged.has(record.duelId))
      .map((record) => ({
        visitor: record.visitorHash,
        modelA: record.modelA,
        modelB: record.modelB,
        outcome: OUTCOME[record.choice as ArenaChoice],
      }));
    const result = populationBoard(votes, answers, surveyMargins(survey), { threshold: survey.threshold });
    const counts = {
      n_votes: total,
      answered_votes: result.counts.answeredVotes,
      answered_visitors: result.counts.answeredVisitors,
      answered_share: total > 0 ? result.counts.answeredVotes / total : 0,
    };
    const base = {
      ...EMPTY,
      ...counts,
      generated_at: runtime.now().toISOString(),
      source: survey.source,
      threshold: { min_votes: survey.threshold.minVotes, min_visitors: survey.threshold.minVisitors },
    };
    if (!result.shown) return { ...base, reason: result.reason };
    const { leaderboard, raking } = result;
    return {
      ...base,
      shown: true,
      effective_votes: leaderboard.weighting?.effectiveVotes ?? null,
      design_effect: leaderboard.weighting?.designEffect ?? null,
      raking: { iterations: raking.iterations, converged: raking.converged, max_error: raking.maxError, trim_rounds: raking.trimRounds },
      models: leaderboard.rows.map((row) => this.toRow(row)),
    };
  }

  private toRow(row: RankedRow): PopulationBoardBody['models'][number] {
    const card = this.dependencies.catalogue.card(row.model);
    return {
      model: row.model,
      name: card.name,
      organisation: card.organisation,
      rating: row.rating,
      se: row.se,
      ci_low: row.ciLow,
      ci_high: row.ciHigh,
      rank: row.rank,
      rank_best: row.rankBest,
      rank_worst: row.rankWorst,
      tier: row.tier,
      n_battles: row.nBattles,
      provisional: row.provisional,
    };
  }
}

const EMPTY: PopulationBoardBody = {
  enabled: true,
  shown: false,
  reason: null,
  generated_at: null,
  source: null,
  threshold: null,
  n_votes: 0,
  answered_votes: 0,
  answered_visitors: 0,
  answered_share: 0,
  effective_votes: null,
  design_effect: null,
  raking: null,
  models: [],
};
