import type { TurnLanguages } from '../language/turn-languages';

/** Style counts, output tokens and revealed energy of one side's whole conversation. */
export interface SideRankingData {
  style: { len: number; headers: number; lists: number; bold: number };
  outputTokens: number;
  energyWh: { min: number; max: number } | null;
}

/** A vote as the leaderboard reads it. */
export interface RankingVoteRecord {
  modelA: string;
  modelB: string;
  choice: string;
  identityLeak: boolean;
  servedModelMismatch: boolean;
  mode: string;
  locale: string | null;
  a: SideRankingData | null;
  b: SideRankingData | null;
  /** From post-processing, once it ran: languages of the conversation and of each turn, topic categories. */
  languages: string[] | null;
  messageLanguages: TurnLanguages[] | null;
  categories: string[] | null;
  /** Near-duplicate cluster of the first prompt (docs/ranking.md#duplicate-prompts): null or '' when none. */
  promptCluster?: string | null | undefined;
  /** What the integrity rules look at (docs/arena.md#vote-integrity). */
  duelId: string;
  createdAt: string;
  source: string;
  visitorHash: string;
  clientHash: string | null;
  /** When the duel's last turn ended (null when unknown). */
  lastTurnEndedAt: string | null;
  /** When the last turn started, its sides' milliseconds to their first token, and the characters of its two answers (null when unknown). */
  lastTurnShown?: { startedAt: string; ttftMs: (number | null)[]; chars: number } | null | undefined;
  review: 'count' | 'exclude' | null;
}

/** A reaction with its duel's pairing, mode and locale, as the leaderboard reads it. */
export interface RankingReactionRecord {
  duelId: string;
  turn: number;
  side: 'a' | 'b';
  liked: boolean;
  modelA: string;
  modelB: string;
  mode: string;
  locale: string | null;
  /** A side of the duel named its own model: the visitor was not blind. */
  identityLeak: boolean;
  languages: string[] | null;
  messageLanguages: TurnLanguages[] | null;
  categories: string[] | null;
}
