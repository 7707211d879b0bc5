/** A complete turn: the prompt and both answers. */
export interface ExportableTurn {
  turn: number;
  prompt: string;
  a: ExportableAnswer;
  b: ExportableAnswer;
}

export interface ExportableTurnVerdict {
  turn: number;
  choice: 'a' | 'b' | 'both_good' | 'both_bad';
  /** The source row's id (compar:IA's `response_id`). */
  sourceId: string | null;
  createdAt: string;
}

/** A conversation that passed the privacy rules, with everything an export writes of it. */
export interface ExportableConversation {
  duelId: string;
  /** `arena` or the dataset it was imported from. */
  source: string;
  externalId: string | null;
  /** Hash of the visitor cookie (arena) or the source's already-public visitor id (imports). */
  visitorHash: string;
  mode: string;
  modelA: string;
  modelB: string;
  chosenModels: string[] | null;
  createdAt: string;
  sourceMeta: Record<string, unknown> | null;
  /** Most frequent first; null when the screening recorded none (so are topics and keywords). */
  languages: string[] | null;
  /** Language of each turn's prompt, by turn order, when the screening recorded it. */
  promptLanguages: (string | null)[];
  categories: string[] | null;
  /** Capability labels (docs/ranking.md#capability-views); null before post-processing labelled the conversation. */
  capabilities?: string[] | null;
  /**
   * The stored near-duplicate cluster of its first complete prompt (the founding duel's id, docs/ranking.md#duplicate-prompts):
   * '' when it has none, null before post-processing clustered it. Exports write it salted, never as is.
   */
  promptCluster?: string | null;
  keywords: string[] | null;
  shortSummary: string | null;
  /** Whether the model layer of the screening ran: `done` | `not_configured` | `failed` | `pending`. */
  modelStatus: string;
  /**
   * Who screened it: `agora` (this arena's rules layer ran: every arena conversation, and imported
   * ones screened by `agora postprocess`) or `source` (imported with `--trust-source`: its source's
   * screening was taken as is and Agora's rules never ran on it).
   */
  screenedBy: 'agora' | 'source';
  /** Screened turns that completed, in order (at least one). */
  turns: ExportableTurn[];
  vote: ExportableVote | null;
  reactions: ExportableReaction[];
  /** Verdicts on single turns (compar:IA's per-response arena data), by turn. */
  turnVerdicts: ExportableTurnVerdict[];
}

/** One side's answer in a complete turn. */
export interface ExportableAnswer {
  modelId: string;
  text: string;
  reasoning: string | null;
  outputTokens: number | null;
  durationMs: number | null;
  /** The answer's `metadata` as an imported file had it (compar:IA: generation id, output tokens, duration); null otherwise. */
  sourceMetadata: Record<string, unknown> | null;
}

export interface ExportableVote {
  choice: 'a' | 'b' | 'tie' | 'both_bad';
  tagsA: string[];
  tagsB: string[];
  commentA: string | null;
  commentB: string | null;
  createdAt: string;
  sourceMeta: Record<string, unknown> | null;
}

export interface ExportableReaction {
  turn: number;
  side: 'a' | 'b';
  modelId: string;
  liked: boolean;
  tags: string[];
  comment: string | null;
  createdAt: string;
  sourceMeta: Record<string, unknown> | null;
}

/** Conversations of the store by the first privacy rule that keeps them out (reviewer includes are in). */
export interface ExclusionCounts {
  conversations: number;
  notScreened: number;
  screeningFailed: number;
  privateCohort: number;
  reviewerExcluded: number;
  reviewerIncluded: number;
  flagged: number;
  reportedNotReviewed: number;
}
