import { DEFAULT_INTEGRITY_RULES, type IntegrityRules } from '../domain/arena/vote-integrity';
import { integrityOfVotes } from './vote-integrity';
import {
  buildVoteTable,
  computeLeaderboard,
  createSeededRandom,
  matchesFromArenaVotes,
  type Leaderboard,
  type RankingVariant,
  type StyleRule,
  type VoteTable,
} from '../domain/ranking';
import { readVoteFile, type VoteFileContents } from '../adapters/vote-files/read-vote-file';
import type { Store } from '../db/unit-of-work';
import { toViewVote } from '../domain/ranking/leaderboard-views';

/** How to rank (the `agora leaderboard` flags). */
export interface RankVotesOptions {
  variant?: RankingVariant | undefined;
  style?: boolean | undefined;
  styleRule?: StyleRule | undefined;
  /** Bootstrap rounds (0 or absent: sandwich intervals) and their seed (default 0). */
  bootstrapRounds?: number | undefined;
  seed?: number | undefined;
  anchor?: { model: string; rating: number } | undefined;
  /** Keep votes flagged identity_leak or abuse. */
  includeFlagged?: boolean | undefined;
}

/** A leaderboard and, for a file, what was read. */
export interface RankedVotes {
  leaderboard: Leaderboard;
  /** Undefined when the votes did not come from a file. */
  input: VoteFileContents | undefined;
}

function wantsStyle(options: RankVotesOptions): boolean {
  return options.style === true || (options.variant?.startsWith('style_') ?? false);
}

/**
 * Ranks a vote table (docs/ranking.md). The bootstrap gets a generator seeded with `seed`, so a run is
 * reproducible.
 *
 * @throws RankingError when the options cannot be met (unknown anchor, no style counts).
 */
export function rankVoteTable(table: VoteTable, options: RankVotesOptions = {}): Leaderboard {
  const rounds = options.bootstrapRounds ?? 0;
  return computeLeaderboard(table, {
    variant: options.variant,
    style: wantsStyle(options),
    styleRule: options.styleRule,
    anchor: options.anchor,
    bootstrap: rounds > 0 ? { rounds, random: createSeededRandom(options.seed ?? 0) } : undefined,
  });
}

/**
 * Reads a vote file and ranks it. Style counts are taken from the conversation text only when
 * style control is asked for.
 *
 * @throws VoteFileError for an unreadable file or a bad row (file and line named).
 * @throws RankingError when the options cannot be met.
 */
export async function rankVoteFile(path: string, options: RankVotesOptions = {}): Promise<RankedVotes> {
  const input = await readVoteFile(path, {
    excludeFlags: options.includeFlagged ? [] : undefined,
    styleFromText: wantsStyle(options),
  });
  return { leaderboard: rankVoteTable(input.table, options), input };
}

/** The arena's stored votes as a ranking vote table (`agora leaderboard` without `--votes`): the rankable ones, as the live leaderboard counts them. */
export async function storeVoteTable(store: Store, integrity: IntegrityRules = DEFAULT_INTEGRITY_RULES): Promise<VoteTable> {
  const records = await store.feedback.listRankingVotes();
  const flags = integrityOfVotes(records, integrity);
  const votes = records.map((record) => toViewVote(record, flags.get(record.duelId)).vote);
  return buildVoteTable(matchesFromArenaVotes(votes).matches);
}
