import type { StyleCounts } from '../ranking/vote-table';

/** An imported conversation pair: a duel row, its turns and sides. */
export interface ImportedDuel {
  id: string;
  source: string;
  externalId: string;
  visitorHash: string;
  mode: string;
  modelA: string;
  modelB: string;
  chosenModels: string | null;
  createdAt: string;
  sourceMeta: string | null;
  turns: ImportedTurn[];
}

export interface ImportedTurn {
  turn: number;
  prompt: string;
  status: 'complete' | 'failed';
  sides: [ImportedSide, ImportedSide];
}

/** One side's answer in one turn of an imported conversation. */
export interface ImportedSide {
  side: 'a' | 'b';
  modelId: string;
  text: string;
  reasoning: string | null;
  outputTokens: number | null;
  durationMs: number | null;
  status: 'complete' | 'failed';
  /** Style counts of the answer (tokens counted locally), null when it failed; stored as JSON. */
  style: StyleCounts | null;
  /** JSON: the message's own fields Agora does not model (compar:IA's `metadata`, …). */
  sourceMeta: string | null;
}

/** A vote row as stored (JSON columns as text). */
export interface ImportedVote {
  duelId: string;
  choice: string;
  modelA: string;
  modelB: string;
  tagsA: string;
  tagsB: string;
  commentA: string | null;
  commentB: string | null;
  mode: string;
  createdAt: string;
  /** What the ranking needs of each side, as the arena stores it when a vote is cast (JSON style sums, output tokens). */
  styleA: string | null;
  styleB: string | null;
  tokensA: number | null;
  tokensB: number | null;
  sourceMeta: string | null;
}

/** A reaction row as stored (JSON columns as text). */
export interface ImportedReaction {
  duelId: string;
  turn: number;
  side: 'a' | 'b';
  modelId: string;
  value: 'like' | 'dislike';
  tags: string;
  comment: string | null;
  createdAt: string;
  sourceMeta: string | null;
}
