import { rankingCategories } from '../../domain/annotation/capabilities';
import type { RankingVoteRecord, SideRankingData } from '../../domain/ranking/ranking-records';
import type { TurnLanguages } from './annotation.repository';
import { type Kysely, sql } from 'kysely';
import type { Database } from '../database';

/* A ranking vote's row, as FeedbackRepository reads it, into the record the leaderboard ranks. */

const jsonList = (text: string | null): string[] | null => (text === null ? null : (JSON.parse(text) as string[]));

/** Every vote with what the leaderboard ranks it by (FeedbackRepository reads pages of it). */
export function rankingVotesQuery(db: Kysely<Database>) {
  return (
    db
      .selectFrom('votes')
      .innerJoin('duels', 'duels.id', 'votes.duel_id')
      .leftJoin('turns as last_turn', (join) =>
        join.onRef('last_turn.duel_id', '=', 'votes.duel_id').onRef('last_turn.turn', '=', 'duels.turn_count'),
      )
      // The last turn's answers: what the visitor read before voting (the too_fast rule).
      .leftJoin('turn_sides as last_a', (join) =>
        join.onRef('last_a.duel_id', '=', 'votes.duel_id').onRef('last_a.turn', '=', 'duels.turn_count').on('last_a.side', '=', 'a'),
      )
      .leftJoin('turn_sides as last_b', (join) =>
        join.onRef('last_b.duel_id', '=', 'votes.duel_id').onRef('last_b.turn', '=', 'duels.turn_count').on('last_b.side', '=', 'b'),
      )
      .leftJoin('vote_reviews as review', 'review.duel_id', 'votes.duel_id')
      .leftJoin('conversation_annotations as a', 'a.duel_id', 'votes.duel_id')
      .select([
        'votes.duel_id',
        'votes.created_at',
        'duels.source',
        'duels.visitor_hash',
        'votes.client_hash',
        'last_turn.ended_at as last_turn_ended_at',
        'last_turn.started_at as last_turn_started_at',
        sql<number | null>`length(last_a.text) + length(last_b.text)`.as('last_turn_chars'),
        'last_a.ttft_ms as last_ttft_a',
        'last_b.ttft_ms as last_ttft_b',
        'review.decision as review',
        'votes.model_a',
        'votes.model_b',
        'votes.choice',
        'votes.identity_leak',
        'votes.served_model_mismatch',
        'votes.mode',
        'votes.locale',
        'style_a',
        'style_b',
        'tokens_a',
        'tokens_b',
        'energy_a',
        'energy_b',
        'a.languages',
        'a.message_languages',
        'a.categories',
        'a.capabilities',
        'a.prompt_cluster',
      ])
  );
}

export type RankingVoteRow = Awaited<ReturnType<ReturnType<typeof rankingVotesQuery>['execute']>>[number];

const rankingSide = (style: string | null, tokens: number | null, energy: string | null): SideRankingData | null =>
  style === null
    ? null
    : {
        style: JSON.parse(style) as SideRankingData['style'],
        outputTokens: tokens ?? 0,
        energyWh: energy ? (JSON.parse(energy) as { min: number; max: number }) : null,
      };

export function toRankingVoteRecord(row: RankingVoteRow): RankingVoteRecord {
  return {
    modelA: row.model_a,
    modelB: row.model_b,
    choice: row.choice,
    identityLeak: row.identity_leak === 1,
    servedModelMismatch: row.served_model_mismatch === 1,
    mode: row.mode,
    locale: row.locale,
    a: rankingSide(row.style_a, row.tokens_a, row.energy_a),
    b: rankingSide(row.style_b, row.tokens_b, row.energy_b),
    languages: jsonList(row.languages),
    messageLanguages: row.message_languages === null ? null : (JSON.parse(row.message_languages) as TurnLanguages[]),
    // Capability labels ride as categories in their own namespace (docs/ranking.md#capability-views).
    categories: rankingCategories(jsonList(row.categories), jsonList(row.capabilities)),
    promptCluster: row.prompt_cluster,
    duelId: row.duel_id,
    createdAt: row.created_at,
    source: row.source,
    visitorHash: row.visitor_hash,
    clientHash: row.client_hash,
    lastTurnEndedAt: row.last_turn_ended_at,
    lastTurnShown:
      row.last_turn_started_at === null || row.last_turn_chars === null
        ? null
        : { startedAt: row.last_turn_started_at, chars: Number(row.last_turn_chars), ttftMs: [row.last_ttft_a, row.last_ttft_b] },
    review: row.review === 'count' || row.review === 'exclude' ? row.review : null,
  };
}
