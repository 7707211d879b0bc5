import type { RankingVoteRecord } from '../domain/ranking/ranking-records';
import type { VoteFacts } from '../domain/arena/vote-integrity';

/** A stored vote as the integrity rules see it. */
export function voteFacts(record: RankingVoteRecord): VoteFacts {
  const votedAfterMs = record.lastTurnEndedAt === null ? null : Date.parse(record.createdAt) - Date.parse(record.lastTurnEndedAt);
  const shown = record.lastTurnShown ?? null;
  // The first character appeared at the turn's start plus the quicker side's first token.
  const firstTokenMs = Math.min(...(shown?.ttftMs.filter((ms) => ms !== null) ?? []), Number.POSITIVE_INFINITY);
  const shownAtMs = shown === null ? Number.NaN : Date.parse(shown.startedAt) + (Number.isFinite(firstTokenMs) ? firstTokenMs : 0);
  const votedAfterShownMs = Date.parse(record.createdAt) - shownAtMs;
  return {
    duelId: record.duelId,
    createdAt: record.createdAt,
    source: record.source,
    visitor: record.visitorHash,
    client: record.clientHash,
    choice: record.choice as VoteFacts['choice'],
    modelA: record.modelA,
    modelB: record.modelB,
    votedAfterMs: Number.isNaN(votedAfterMs) ? null : votedAfterMs,
    shownChars: shown?.chars ?? null,
    votedAfterShownMs: Number.isNaN(votedAfterShownMs) ? null : votedAfterShownMs,
    review: record.review,
    promptCluster: record.promptCluster,
  };
}
